"""The wrappers of the webhooks' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.lua import LuaScript

_RECORD_DELIVERY = LuaScript("record_delivery")


def record_delivery(client: Any, *, hook_id: str, attempt: str, kept: int, counter: str) -> Any:
    """Count a delivery attempt (JSON) under ``counter`` and keep it among the webhook's latest ``kept``,
    unless the webhook is gone: 1 if kept, 0 if not."""
    return _RECORD_DELIVERY.run(client, [keys.webhook(hook_id), keys.webhook_deliveries(hook_id), keys.metrics()],
                                [attempt, kept, counter])
