"""The wrappers of the webhooks' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

import json
from typing import Any

from store.base import keys
from store.lua import LuaScript

_RECORD_DELIVERY = LuaScript("record_delivery")
_MARK_ONCE = LuaScript("mark_once")


def mark_once(client: Any, *, marks: str, member: str, score: int, event: str, at_ms: int, fields: dict) -> int:
    """List ``member`` in the sorted set ``marks`` (scored ``score``) and record ``event`` (with ``fields``)
    in one step: 1 if this call listed it, 0 if it was listed already (and nothing was recorded)."""
    return _MARK_ONCE.run(client, [marks, keys.webhook_outbox(), keys.webhooks()],
                          [member, score, encoded_event(event, at_ms, fields)])


def encoded_event(event: str, at_ms: int, fields: dict) -> str:
    """An event as the outbox keeps it, for a script to record as given (``_events.record_encoded``)."""
    return json.dumps({"event": event, "at_ms": at_ms, "fields": fields})


def record_delivery(client: Any, *, hook_id: str, attempt: str, kept: int, counter: str) -> Any:
    """Count a delivery attempt (JSON) under ``counter`` and keep it among the webhook's latest ``kept``,
    unless the webhook is gone: 1 if kept, 0 if not."""
    return _RECORD_DELIVERY.run(client, [keys.webhook(hook_id), keys.webhook_deliveries(hook_id), keys.metrics()],
                                [attempt, kept, counter])
