"""Webhooks in API requests and responses: registering one, reading it, its deliveries."""

from marshmallow import RAISE, ValidationError, fields, validate

from domain.events import EVENTS, RECORD_BEATEN, RUN_VERIFIED
from settings import without_password
from webhook_targets import MAX_URL, UnusableUrl, parse

from .base import Schema
from .runs import Time


class WebhookUrlField(fields.String):
    """A webhook's URL: read as ``webhook_targets.parse`` reads it for delivery (a ``WebhookUrl``), and shown
    as it is delivered to. A URL stored before credentials were refused shows them as ``***``."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return parse(super()._deserialize(value, attr, data, **kwargs))
        except UnusableUrl as unusable:
            raise ValidationError(str(unusable)) from None

    def _serialize(self, value, attr, obj, **kwargs):
        try:
            return parse(value).text
        except UnusableUrl:
            return without_password(value)


class WebhookCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    url = WebhookUrlField(required=True, metadata={
        "format": "uri", "minLength": 1, "maxLength": MAX_URL, "example": "https://studio.example/scoundrel-events",
        "description": "an http:// or https:// URL without credentials or a fragment, whose host is public: "
                       "not a loopback, private, link-local, multicast or reserved address, unless the operator "
                       "allows it (SCOUNDREL_WEBHOOK_ALLOW)"})
    events = fields.List(fields.String(validate=validate.OneOf(list(EVENTS))), required=True,
                         validate=validate.Length(1, len(EVENTS)),
                         metadata={"description": "the events to send it, one or more of: " + "; ".join(
                                       f"{event.name} ({event.tells})" for event in EVENTS.values()),
                                   "example": [RUN_VERIFIED, RECORD_BEATEN]})


class WebhookSchema(Schema):
    """A webhook (``store.webhooks.hooks.Webhook``) as moderators read it: never its secret."""

    id = fields.String()
    url = WebhookUrlField(metadata={"format": "uri"})
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
    resendable = fields.Boolean(metadata={"description": "its body is kept, so it can be sent again "
                                                         "(POST .../deliveries/<event_id>/resend)"})


class ResentSchema(Schema):
    """A delivery queued again."""

    webhook_id = fields.String(attribute="hook_id")
    event = fields.String()
    event_id = fields.String(metadata={"description": "the event's id, as at its first sending: receivers tell a "
                                                      "repeat by it"})
    attempt = fields.Integer(metadata={"description": "1: a first attempt, with its retries to come"})


class DeliveryListSchema(Schema):
    webhook_id = fields.String()
    deliveries = fields.List(fields.Nested(DeliverySchema), metadata={"description": "the latest, newest first"})
