"""The wrappers of the desk's Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.lua import LuaScript

_DESK_SESSION = LuaScript("desk_session")
_RELEASE_CASE = LuaScript("release_case")


def desk_session(client: Any, *, session_hash: str, idle_ms: int) -> list[str] | None:
    """The session's fields as a flat list, its expiry renewed; None for none, or one whose moderator's token
    was revoked (ended here)."""
    return _DESK_SESSION.run(client, [keys.desk_session(session_hash)], [idle_ms, keys.moderator("")])


def release_case(client: Any, *, run_id: str, moderator: str) -> bool:
    """Release the run's case if ``moderator`` holds it."""
    return bool(_RELEASE_CASE.run(client, [keys.desk_case(run_id)], [moderator]))
