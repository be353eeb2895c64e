"""A sealed daily keeps its deal secret until its UTC day is over and closed.

The policy (RULES.md R18, README "Fair play"): the sealed daily of day D
closes at the end of D (00:00 UTC). From that instant no game of it takes a
move: the move is refused and the game forfeited. Its deal (the seed, its
runs' seeds and moves, their replays, the day page's deal) is shown only
after the close is recorded in Redis (``store.games.close_sealed_day``),
which forfeits every game of D still in play first: so at no instant is the
seed public while a game dealt from it can move.

A sealed run's moves name the cards in the order they came up, so until
then they are as secret as its seed: every view of the run a non-moderator
gets shows both as null, and its replay is refused. Moderators see all.
"""

from datetime import date

from store.games import close_sealed_day

from .context import db
from .daily_seed import day_over


def revealed(day: date) -> bool:
    """Whether ``day``'s sealed deal may be shown: its day is over, and closed (the close is done here
    if no one has done it yet), so no game of it can move."""
    if not day_over(day):
        return False
    close_sealed_day(db(), day.isoformat())
    return True


def is_sealed(run: dict) -> bool:
    """A sealed daily game's run whose deal is not revealed yet."""
    return run.get("challenge") == "daily" and not revealed(date.fromisoformat(run["date"]))


def shown(run: dict, moderator: bool = False) -> dict:
    """The run as this reader may see it."""
    if moderator or not is_sealed(run):
        return run
    return {**run, "seed": None, "moves": None}
