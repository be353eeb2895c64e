"""The wrapper of the schedules' Lua script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.lua import LuaScript, flatten

_MAKE_OCCURRENCE = LuaScript("make_occurrence")


def make_occurrence(client: Any, *, schedule_id: str, starts_ms: int, ends_ms: int, fields: dict) -> list:
    """Make the schedule's occurrence starting at ``starts_ms`` as a tournament of ``fields`` (its hash's):
    ``[1, id]`` made now, ``[0]`` made already, ``[-1]`` the schedule is gone or paused."""
    return _MAKE_OCCURRENCE.run(
        client, [keys.schedule(schedule_id), keys.tournament_ids(), keys.tournaments_starting(),
                 keys.tournaments_ending()],
        [starts_ms, ends_ms, keys.tournament(""), *flatten(fields)])
