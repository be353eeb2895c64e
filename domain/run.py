"""A run as the boards see it: the fields that decide which boards it counts on and where.

``Run.from_stored`` is the one conversion from a stored run's hash (its
fields as strings, a missing or empty field for none); the store reads
``STORED_FIELDS`` when it needs no more than the boards do.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

OPEN = "open"  # submitted whole: its player knew the seed, so the whole deck, before the first move
DEALT = "dealt"  # dealt by the server card by card (docs/fair-play.md); stored as the run's ``origin``
DAILY = "daily"  # the ``challenge`` of a sealed daily game's run

# The hash fields ``from_stored`` reads.
STORED_FIELDS = ("player", "variant", "seed", "status", "score", "submitted_ms", "origin", "daily", "challenge",
                 "date")


@dataclass(frozen=True, slots=True)
class Run:
    """One run: who played which deal (``seed`` as ``variant``), how it was played (``origin``:
    open or dealt), its verdict's ``status`` and ``score``, and the day it belongs to: ``daily``
    for an open run on that day's public seed, ``challenge`` "daily" with its ``date`` for a
    sealed daily game."""

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

    @classmethod
    def from_stored(cls, run_id: str, fields: Mapping[str, Any]) -> "Run":
        """The run whose hash holds ``fields`` (a run without an ``origin`` is open)."""
        get = fields.get
        score = get("score")
        return cls(run_id, get("player") or "", get("variant") or "", get("seed") or None, get("status") or "",
                   None if score in (None, "") else int(score), int(get("submitted_ms") or 0), get("origin") or OPEN,
                   get("daily") or None, get("challenge") or None, get("date") or None)

    @property
    def dealt(self) -> bool:
        return self.origin == DEALT

    @property
    def sealed_daily(self) -> bool:
        """A game of the day's sealed daily (one deck for everyone, one game per player)."""
        return self.dealt and self.challenge == DAILY and self.date is not None
