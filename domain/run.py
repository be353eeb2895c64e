"""A run: one player's game of one deal, how it was played, and its verdict.

A frozen value with every field a run has. Its stored form (a Redis hash of
strings, the moves as one-character codes) is the store's to read and write
(``store.runs.records``); its API view is the schema's (``schemas.runs.RunSchema``).
The boards read the fields that decide which boards it counts on and where.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .seasons import Schedule, season_at

OPEN = "open"  # submitted whole: its player knew the seed, so the whole deck, before the first move
DEALT = "dealt"  # dealt by the server card by card (docs/fair-play.md); stored as the run's ``origin``
DAILY = "daily"  # the ``challenge`` of a sealed daily game's run
PENDING = "pending"  # the status of a run waiting for its verdict
TOURNAMENT = "tournament"  # the ``challenge`` of a tournament game's run (``domain.tournaments``)


def daily_seal(day: str) -> str:
    """The seal of a day's sealed daily (``domain.sealing``)."""
    return f"{DAILY}:{day}"


def tournament_seal(tournament_id: str) -> str:
    """The seal of a tournament's sealed decks (``domain.sealing``)."""
    return f"{TOURNAMENT}:{tournament_id}"


@dataclass(frozen=True, slots=True)
class Run:
    """One run: who played which deal (``seed`` as ``variant``) with which ``moves``, how it
    was played (``origin``: open or dealt), its verdict's ``status``, ``outcome``, ``score``,
    ``health`` and ``error``, and the day it belongs to: ``daily`` for an open run on that day's
    public seed, ``challenge`` "daily" with its ``date`` for a sealed daily game.

    ``seed`` and ``moves`` are None in the view of a sealed run (a sealed daily game's whose day is not
    over, a tournament's sealed deck's before its end: ``domain.sealing.shown``). Times are milliseconds since 1970.
    """

    id: str
    player: str
    variant: str
    seed: str | None
    status: str
    score: int | None
    submitted_ms: int
    origin: str = OPEN
    daily: str | None = None
    challenge: str | None = None
    date: str | None = None
    moves: tuple[str, ...] | None = ()
    outcome: str | None = None  # won, lost or forfeit, for a verified run
    health: int | None = None
    error: Mapping[str, Any] | None = None  # the rule error of a rejected run, or why verification failed
    ruleset: str | None = None  # the ruleset and engine of its verdict
    engine: str | None = None
    verified_ms: int | None = None  # when it got its verdict (None while pending, or once re-queued)
    voided_status: str | None = None  # a void run's verdict under the void
    reverified_ms: int | None = None  # when a moderator or ``scoundrel reverify`` last replayed it
    reinstated_ms: int | None = None  # when it came back from the archive
    game_id: str | None = None  # a dealt run's game, its deal's time and each move's gap (ms, space-separated)
    dealt_ms: int | None = None
    move_gaps: str = ""
    forfeit: bool = False  # its player gave the dealt game up (R18)
    request_id: str = ""  # the submission's request and its verification job, while pending
    job: str = ""
    requeues: int = 0  # how often the sweeper queued it again
    season: str | None = None  # a dealt run's season: the one its game ended in (``domain.seasons``)
    tournament: str | None = None  # a tournament game's run: its tournament, deal (0: a fresh deck), scoring
    deal: int | None = None
    scoring: str | None = None

    @property
    def dealt(self) -> bool:
        return self.origin == DEALT

    @property
    def week(self) -> str:
        """The UTC ISO week the run was submitted in (a dealt run: its game ended): its league week
        (``domain.leagues``)."""
        return season_at(Schedule.WEEKLY, self.submitted_ms).id

    @property
    def tournament_deal(self) -> str:
        """A tournament run's deal as a board's key part names it (``domain.boards``)."""
        return str(self.deal)

    @property
    def seal(self) -> str | None:
        """What keeps its deal secret until it closes (``domain.sealing``), for a sealed daily game's run
        or a run of a tournament's sealed deck; None for any other."""
        if self.sealed_daily:
            return daily_seal(self.date or "")
        return tournament_seal(self.tournament) if self.tournament and self.deal else None

    @property
    def sealed_daily(self) -> bool:
        """A game of the day's sealed daily (one deck for everyone, one game per player)."""
        return self.dealt and self.challenge == DAILY and self.date is not None
