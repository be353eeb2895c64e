"""A sealed daily keeps its deal secret until its UTC day is over and closed.

The policy (RULES.md R18, docs/fair-play.md): the sealed daily of day D
closes at the end of D (00:00 UTC, ``daily_seed.closes_ms``). From that
instant no game of it takes a move: the move is refused and the game
forfeited. Its deal (the seed, its runs' seeds and moves, their replays,
the day page's deal) is shown only after the close is recorded, which
forfeits every game of D still in play first: so at no instant is the seed
public while a game dealt from it can move.

A sealed run's moves name the cards in the order they came up, so until
then they are as secret as its seed: every view of the run a non-moderator
gets shows both as null, and its replay is refused. Moderators see all.

The rule is here; recording the close is the store's act
(``store.games.dealt.close_sealed_day``), which the caller hands to ``revealed``.
Everything else that asks takes a ``Revealed``: ``revealed`` with that act
bound (``service.context.revealed``).
"""

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from .daily_seed import day_over
from .game import DAILY
from .run import Run

Revealed = Callable[[date], bool]  # whether a day's sealed deal may be shown, its close recorded first


def revealed(day: date, close: Callable[[date], None]) -> bool:
    """Whether ``day``'s sealed deal may be shown: its day is over, and closed (``close`` records it,
    a no-op if done already, before this says yes), so no game of it can move."""
    if not day_over(day):
        return False
    close(day)
    return True


def is_sealed(run: Run, revealed: Revealed) -> bool:
    """A sealed daily game's run whose deal is not revealed yet."""
    return run.challenge == DAILY and run.date is not None and not revealed(date.fromisoformat(run.date))


def shown(run: Run, revealed: Revealed, moderator: bool = False) -> Run:
    """The run as this reader may see it."""
    if moderator or not is_sealed(run, revealed):
        return run
    return replace(run, seed=None, moves=None)
