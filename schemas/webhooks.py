"""Webhooks in API requests and responses: registering one, reading it, its deliveries."""

from urllib.parse import urlsplit

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from settings import without_password
from store.webhooks.hooks import EVENTS

from .runs import Time

MAX_URL = 2048


def _http_url(url: str) -> None:
    """An absolute http or https URL with a host, as the workers will post to it."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        raise ValidationError("Not a URL.") from None
    if parts.scheme not in ("http", "https") or not host:
        raise ValidationError("Must be an http:// or https:// URL with a host.")
    if any(character.isspace() or not character.isprintable() for character in url):
        raise ValidationError("Must not hold spaces or control characters.")


class WebhookCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    url = fields.String(required=True, validate=[validate.Length(1, MAX_URL), _http_url],
                        metadata={"example": "https://studio.example/scoundrel-events"})
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)), required=True,
                         validate=validate.Length(1, len(EVENTS)),
                         metadata={"description": f"the events to send it: one or more of {', '.join(EVENTS)}",
                                   "example": ["run.verified", "record.beaten"]})


class ShownUrl(fields.String):
    """A webhook's URL with its password, if it has one, shown as ``***``."""

    def _serialize(self, value, attr, obj, **kwargs) -> str:
        return without_password(value)


class WebhookSchema(Schema):
    """A webhook (``store.webhooks.Webhook``) as moderators read it: never its secret."""

    id = fields.String()
    url = ShownUrl()
    events = fields.List(fields.String())
    moderator = fields.String(metadata={"description": "who registered it"})
    created_at = Time(attribute="created_ms")


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(metadata={"description": "the key of the signatures: shown here once, never again"})


class WebhookPageSchema(Schema):
    total = fields.Integer()
    webhooks = fields.List(fields.Nested(WebhookSchema))


class DeliverySchema(Schema):
    """One delivery attempt."""

    event = fields.String()
    event_id = fields.String(metadata={"description": "the event's id, the same at every attempt"})
    attempt = fields.Integer(metadata={"description": "1 for the first"})
    status = fields.Integer(allow_none=True, metadata={"description": "the HTTP status answered; null for none"})
    error = fields.String(allow_none=True, metadata={"description": "why no answer came (timeout, refused…)"})
    delivered = fields.Boolean(metadata={"description": "a 2xx answer"})
    duration_ms = fields.Integer()
    at = Time(attribute="at_ms")
    retry_at = Time(attribute="retry_at_ms", allow_none=True,
                    metadata={"description": "when the next attempt is due; null once delivered or given up"})


class DeliveryListSchema(Schema):
    webhook_id = fields.String()
    deliveries = fields.List(fields.Nested(DeliverySchema), metadata={"description": "the latest, newest first"})
