"""A sealed deal stays secret until what seals it is over and closed: a sealed daily's UTC day, a
tournament's window.

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

A tournament's sealed decks (``domain.tournaments``) follow the same
policy with its end for the day's (R19).

What seals a deal is named by a *seal*: ``daily:<date>`` or
``tournament:<id>`` (``domain.run.daily_seal``, ``tournament_seal``), a run's
and a game's ``seal``. The rule is here; recording a close is the store's
act (``store.tournaments.seals``), which the caller hands to ``day_revealed``.
Everything else that asks takes a ``Revealed``: whether a seal's deal may be
shown, with that act bound (``service.context.revealed``).
"""

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from .daily_seed import day_over
from .run import Run

Revealed = Callable[[str], bool]  # whether a seal's deal may be shown, its close recorded first


def day_revealed(day: date, close: Callable[[date], None]) -> bool:
    """Whether ``day``'s sealed deal may be shown: its day is over, and closed (``close`` records it,
    a no-op if done already, before this says yes), so no game of it can move."""
    if not day_over(day):
        return False
    close(day)
    return True


def is_sealed(run: Run, revealed: Revealed) -> bool:
    """A run whose deal is sealed and not revealed yet."""
    return run.seal is not None and not revealed(run.seal)


def shown(run: Run, revealed: Revealed, moderator: bool = False) -> Run:
    """The run as this reader may see it."""
    if moderator or not is_sealed(run, revealed):
        return run
    return replace(run, seed=None, moves=None)
