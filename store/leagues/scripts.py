"""The wrapper of the leagues' Lua script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.lua import LuaScript

_JOIN_LEAGUE = LuaScript("join_league")


def join_league(client: Any, *, week: str, player: str, tier: int, size: int, kept: int) -> str:
    """Put ``player`` in the open cohort of ``tier`` in ``week`` (a new one when it holds ``size``), unless
    they joined already; "<cohort> <tier>" as held. The week's keys are kept ``kept`` seconds more."""
    return _JOIN_LEAGUE.run(
        client, [keys.league_members(week), keys.league_open(week), keys.league_cohorts(week),
                 keys.league_tiers(week), keys.league_history(player)],
        [player, tier, size, keys.league_cohort(week, ""), week, kept])
