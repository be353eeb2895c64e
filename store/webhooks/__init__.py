"""Webhooks: the endpoints moderators register, the events' outbox, and deliveries (``hooks``)."""
