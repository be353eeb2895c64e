"""The wrapper of the live events' own Lua script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.lua import LuaScript

_PUBLISH_LIVE = LuaScript("publish_live")


def publish_live(client: Any, *, player: str, data: str) -> str:
    """Keep the event ``data`` (JSON) in ``player``'s stream and publish it: its id there."""
    return _PUBLISH_LIVE.run(client, [keys.live_events(""), keys.live_channel()], [player, data])
