"""``/v1/webhooks``: moderators' endpoints told of events (``store.webhooks.hooks``, ``docs/webhooks.md``)."""

from dataclasses import asdict

from flask import g, url_for

from schemas.paging import PageArgs
from schemas.webhooks import (
    DeliveryListSchema,
    ResentSchema,
    WebhookCreatedSchema,
    WebhookCreateSchema,
    WebhookPageSchema,
    WebhookSchema,
)
from store.webhooks import create_webhook, delete_webhook, deliveries, get_webhook, resend, webhook_page
from webhook_targets import registration_refusal

from .api import Blueprint, error_response
from .auth import moderator_endpoint
from .context import db, referee
from .errors import abort

blp = Blueprint("webhooks", __name__, url_prefix="/v1/webhooks",
                description="Webhooks: signed POSTs to a studio's backend when a run is verified or voided, "
                            "a record falls or a season ends")


@blp.route("", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(WebhookCreateSchema())
@blp.response(201, WebhookCreatedSchema, description="Registered: the secret is shown here only")
def register(body):
    """Register an endpoint for events; its signing secret is in this answer and never shown again.

    Its URL must not name an address of the service's own network (loopback, private, link-local…);
    a host name is checked again, resolved, at each delivery."""
    if refused := refusal(body):
        abort(422, errors={"url": [refused]})
    hook, secret = create_webhook(db(), body["url"].text, body["events"], g.moderator)
    return {**asdict(hook), "secret": secret}, 201, {"Location": url_for("webhooks.show", hook_id=hook.id)}


def refusal(body: dict) -> str | None:
    """Why a ``WebhookCreateSchema``'s URL may not be registered (the API's, the desk's), or None."""
    return registration_refusal(body["url"], referee().settings.webhook_allow)


@blp.route("")
@moderator_endpoint(blp)
@blp.arguments(PageArgs(), location="query")
@blp.response(200, WebhookPageSchema)
def listing(args):
    """Every webhook, oldest first, with ``total``."""
    total, hooks = webhook_page(db(), args["offset"], args["limit"])
    return {"total": total, "webhooks": hooks}


@blp.route("/<hook_id>")
@moderator_endpoint(blp)
@blp.response(200, WebhookSchema)
@error_response(blp, 404, "No such webhook")
def show(hook_id):
    """A webhook: its URL, events, who registered it and when (never its secret)."""
    return get_webhook(db(), hook_id)


@blp.route("/<hook_id>", methods=["DELETE"])
@moderator_endpoint(blp)
@blp.response(204)
@error_response(blp, 404, "No such webhook")
def delete(hook_id):
    """Delete a webhook: nothing more is sent to it, its deliveries still queued are dropped."""
    delete_webhook(db(), hook_id)


@blp.route("/<hook_id>/deliveries")
@moderator_endpoint(blp)
@blp.response(200, DeliveryListSchema)
@error_response(blp, 404, "No such webhook")
def attempts(hook_id):
    """The webhook's latest delivery attempts (up to 50), newest first: each one's status or error and timing."""
    return {"webhook_id": hook_id, "deliveries": deliveries(db(), hook_id)}


@blp.route("/<hook_id>/deliveries/<event_id>/resend", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(202, ResentSchema)
@error_response(blp, 404, "No such webhook, or no delivery of that event kept")
@error_response(blp, 409, "The delivery's body was not kept: too large, an erasure's, or naming a player since erased "
                          "(reason body_not_kept)")
def send_again(hook_id, event_id):
    """Send a delivered (or given up) event to the webhook again: its body as first sent, signed alike, queued
    as a first attempt with its retries to come."""
    return resend_delivery(hook_id, event_id)


def resend_delivery(hook_id: str, event_id: str):
    """Queue event ``event_id`` to the webhook again with this service's delivery timeout (the API, the desk)."""
    return resend(db(), hook_id, event_id, referee().settings.webhook_timeout)
