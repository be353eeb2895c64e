"""The wrapper of the sanctions' Lua script (how a wrapper reads: ``store.lua``)."""

from store.base.database import Database
from store.boards.placements import Placement
from store.lua import LuaScript
from store.runs.places import with_runs_on

_PLACE_PLAYER = LuaScript("place_player")


def place_player(db: Database, *, player: str, boards: list[Placement], withhold: bool) -> str:
    """Recompute ``player``'s places on ``boards`` from all their runs, or withhold them (no place): 'ok'."""
    return with_runs_on(db, _PLACE_PLAYER, player, boards, [], [player, "1" if withhold else ""], [])
