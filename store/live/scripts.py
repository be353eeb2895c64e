"""The wrappers of the live events' own Lua scripts (how a wrapper reads: ``store.lua``)."""

import json
from typing import Any

from store.base import keys
from store.lua import LuaScript, flatten

_PUBLISH_LIVE = LuaScript("publish_live")
_NOTE_ZONES = LuaScript("note_zones")


def publish_live(client: Any, *, player: str, data: str) -> str:
    """Keep the event ``data`` (JSON) in ``player``'s stream and publish it: its id there."""
    return _PUBLISH_LIVE.run(client, [keys.live_events(""), keys.live_channel()], [player, data])


def note_zones(client: Any, *, week: str, kept: int, fields: dict, zones: dict[str, str]) -> int:
    """Note each player's league zone in ``week`` (kept ``kept`` seconds), telling those whose zone changed
    (the event's other ``fields``): how many were told."""
    return _NOTE_ZONES.run(client, [keys.live_zones(week), keys.live_events(""), keys.live_channel()],
                           [kept, json.dumps(fields), *flatten(zones)])
