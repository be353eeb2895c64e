"""The flask-smorest ``Api``, with errors in the one JSON shape clients parse.

Every error answers ``{"code", "status", "message", "errors"?}``; validation
errors list messages per field (``{"errors": {"seed": [...]}}``), as an
``invalid`` verdict does, whatever part of the request they came from.
"""

from flask_smorest import Api


def _flatten_locations(messages: dict) -> dict:
    """webargs keys errors by location first ({"json": {...}}); clients want fields."""
    fields: dict = {}
    for location_errors in messages.values():
        if isinstance(location_errors, dict):
            fields.update(location_errors)
        else:
            fields.setdefault("_schema", []).extend(location_errors)
    return fields


# Plainer words than werkzeug's descriptions for the errors validation raises.
_MESSAGES = {
    400: "The body is not valid JSON.",
    422: "The request is malformed; see errors for each field.",
}


class RefereeApi(Api):
    def handle_http_exception(self, error):
        payload, code, headers = super().handle_http_exception(error)
        data = getattr(error, "data", None) or {}
        if "messages" in data and "errors" not in data:
            payload["errors"] = _flatten_locations(data["messages"])
        payload.setdefault("message", _MESSAGES.get(code, error.description))
        return payload, code, headers
