"""Webhooks: the endpoints moderators register, the events' outbox, and deliveries (``hooks``)."""

from store.webhooks.hooks import (
    ATTEMPTS_COUNTED,
    Attempt,
    Delivery,
    backlog,
    create_webhook,
    delete_webhook,
    deliveries,
    drain_outbox,
    drain_starts,
    get_webhook,
    record_attempt,
    release_due,
    resend,
    wake_if_waiting,
    webhook_page,
    webhook_target,
)

__all__ = [
    "ATTEMPTS_COUNTED", "Attempt", "Delivery", "backlog", "create_webhook",
    "delete_webhook", "deliveries", "drain_outbox", "drain_starts", "get_webhook", "record_attempt", "release_due",
    "resend",
    "wake_if_waiting", "webhook_page", "webhook_target",
]
