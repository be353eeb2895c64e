"""The flask-smorest ``Api``, with errors in the one JSON shape clients parse.

Every error answers ``{"code", "status", "message", "errors"?}``; validation
errors list messages per field (``{"errors": {"seed": [...]}}``), as an
``invalid`` verdict does, whatever part of the request they came from.
"""

import re

import flask
import flask_smorest
from apispec import APISpec, BasePlugin
from flask import current_app
from flask_smorest import Api
from marshmallow import missing
from webargs.flaskparser import FlaskParser, abort, is_json_request

from schemas.errors import ErrorSchema

from .json_body import UnreadableJson, read_json


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


class BodyParser(FlaskParser):
    """webargs' parser, reading JSON bodies with ``read_json``: whatever it cannot take is a 400.

    That is a body that is not JSON, and also JSON that Python's parser reads
    badly or fails on with an error webargs does not expect (a 4,301-digit
    integer, nesting a thousand deep, ``NaN``, a name given twice: see
    ``service.json_body``); the reason is the error's one entry.
    """

    def load_json(self, req, schema):
        if not is_json_request(req):
            return missing
        body = req.get_data(cache=True)
        if not body:
            return missing  # no body: the schema's defaults, or its required fields' errors
        try:
            return read_json(body)
        except UnreadableJson as error:
            abort(400, exc=error, messages={"json": [f"Invalid JSON body: {error.reason}."]})


class Blueprint(flask_smorest.Blueprint):
    """Every API blueprint reads its arguments, the JSON body included, with ``BodyParser``."""

    ARGUMENTS_PARSER = BodyParser()


class RefereeApi(Api):
    """flask-smorest's ``Api``, writing a blueprint's part of the OpenAPI document when the document is first read
    (``spec``: ``/v1/openapi.json``, Swagger UI) rather than when the blueprint is registered: writing it is some
    0.07 s of CPU, twice what the app costs without it, and most processes never serve the document."""

    # The error shape, with the keys refusals add, as the document's ``Error``: one instance for the answers
    # flask-smorest describes for each of the sixty-odd HTTP statuses when an app is made (a class would be
    # instantiated for each, a tenth of the app's CPU).
    ERROR_SCHEMA = ErrorSchema()

    def __init__(self, *args, **kwargs) -> None:
        self._undocumented: list[tuple[flask_smorest.Blueprint, str, list | None]] = []
        self._spec: APISpec
        self._served: str | None = None  # the document as ``/v1/openapi.json`` serves it, once written
        super().__init__(*args, **kwargs)

    @property
    def spec(self) -> APISpec:
        """The document, with every blueprint registered so far (flask-smorest's attribute, read and set alike)."""
        pending, self._undocumented = self._undocumented, []
        for blp, name, parameters in pending:  # in the order registered, as flask-smorest would have
            blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
            self._spec.tag({"name": name, "description": blp.description})
        return self._spec

    @spec.setter
    def spec(self, spec: APISpec) -> None:
        self._spec = spec

    def register_blueprint(self, blp, *, parameters=None, **options) -> None:
        """The blueprint's views in the app now, in the document when it is read."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))
        self._served = None

    def _openapi_json(self):
        """``/v1/openapi.json``: the document written as JSON once, not at every request (half a megabyte,
        indented, which only Python's encoder writes)."""
        if self._served is None:
            self._served = flask.json.dumps(self.spec.to_dict(), indent=2, sort_keys=False)
        return current_app.response_class(self._served, mimetype="application/json")

    def handle_http_exception(self, error):
        payload, code, headers = super().handle_http_exception(error)
        # werkzeug's own headers of the error (a 405's Allow), but not its HTML Content-Type
        headers = {**{name: value for name, value in error.get_headers() if name.lower() != "content-type"},
                   **(headers or {})}
        data = getattr(error, "data", None) or {}
        if "messages" in data and "errors" not in data:
            payload["errors"] = _flatten_locations(data["messages"])
        if code == 413:
            payload.setdefault("message", f"The body is larger than the {current_app.config['MAX_CONTENT_LENGTH']:,} "
                                          "bytes this service accepts.")
        payload.setdefault("message", _MESSAGES.get(code, error.description))
        payload.update(data.get("extra", {}))  # fields an error of one operation adds (``abort(..., extra=)``)
        return payload, code, headers


ERROR_REF = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}

# Answers any operation may give, documented on every one of them.
COMMON_ERRORS = {
    414: ("The request line (method, path and query) is longer than the server reads", {}),
    431: ("The request's headers are more or larger than the server reads", {}),
    429: ("Too many requests for this token or address", RETRY_AFTER),
    503: ("Storage is unavailable; try again after Retry-After seconds", RETRY_AFTER),
}
BODY_ERRORS: dict[int, tuple[str, dict]] = {
    400: ("The body is not valid JSON", {}),
    413: ("The body is larger than the service accepts", {}),
    415: ("The body is not JSON (Content-Type: application/json)", {}),
    422: ("The request is malformed; errors lists each field", {}),
}


class ErrorResponses(BasePlugin):
    """Documents the error answers every operation can give, in the one error shape."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            errors = COMMON_ERRORS | (BODY_ERRORS if method in ("post", "put", "patch") else {})
            responses = operation.setdefault("responses", {})
            for code, (description, headers) in errors.items():
                if isinstance(responses.get(code), dict):  # the operation's own answer (``alt_response``)
                    continue
                responses.pop(code, None)  # flask-smorest's generic one, for a 422 of its arguments
                responses.setdefault(str(code), {"description": description, "content": ERROR_REF,
                                                 **({"headers": headers} if headers else {})})


_RST_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
_BACKTICKS = re.compile(r"`+")


def markdown_literals(text: str) -> str:
    """The docstrings' reStructuredText literals (````x````) as Markdown's (```x```), which Swagger UI renders."""
    return _RST_LITERAL.sub(r"`\1`", text)


def plain_literals(text: str) -> str:
    """A literal's text without its backticks: an operation's summary is plain text, which Swagger UI shows as is."""
    return _BACKTICKS.sub("", text)


_SPELLINGS = {"summary": plain_literals, "description": markdown_literals}


def _with_markdown_literals(node):
    if isinstance(node, dict):
        return {key: _SPELLINGS[key](value) if key in _SPELLINGS and isinstance(value, str)
                else _with_markdown_literals(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_with_markdown_literals(item) for item in node]
    return node


class MarkdownLiterals(BasePlugin):
    """The views' docstrings, written for Python's tools, become the operations' summaries and descriptions:
    the OpenAPI document gives a description as CommonMark, its literals rewritten in its spelling, and a
    summary as plain text, its literals without their marks."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            operations[method] = _with_markdown_literals(operation)


class CrossFieldRules(BasePlugin):
    """Adds a schema's rule across its fields, which no one field's JSON Schema can say, to its component.

    The rule is the schema's ``Meta.openapi`` (an ``anyOf``, say), so that a
    body the document allows is a body the API takes.
    """

    def schema_helper(self, name, definition, **kwargs):
        return getattr(getattr(kwargs.get("schema"), "Meta", None), "openapi", None)


def error_response(blp, code: int, description: str):
    """``alt_response`` for an error this operation gives, in the error shape."""
    return blp.alt_response(code, schema=ErrorSchema, description=description)
