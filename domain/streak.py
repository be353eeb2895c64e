"""A player's streak: UTC days in a row on which they finished the sealed daily.

A day counts when the player's sealed daily game of that day ended in its
day: played to its end (won or lost) or forfeited before midnight (given
up, or left idle until the sweeper forfeited it). A game the day's close
forfeited (RULES.md R18) does not count: the player did not finish it.

The store keeps three values a player (``store.games.streaks``), updated in the
same Lua step that ends the game (``lua/_streak.lua``): the last day
counted, the run of days in a row ending there, and the longest run ever.
Whether that run is still alive is a question of today's date, answered
here when it is read, never stored: a run ending yesterday is alive (today's
game may still come), one ending before is broken.
"""

from dataclasses import dataclass
from datetime import date, timedelta


def day_before(day: str) -> str:
    """The UTC day before ``day`` (both ``YYYY-MM-DD``): a day that follows it continues its run."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class Streak:
    """The player's streak as stored: ``run`` days in a row ending at ``last_date`` (None: no day
    counted yet, and ``run`` and ``best`` 0), the longest run ``best``."""

    last_date: str | None = None
    run: int = 0
    best: int = 0

    def current(self, today: date) -> int:
        """Days in a row up to today: the run, if it ends today or yesterday (UTC), else 0."""
        if self.last_date is None or date.fromisoformat(self.last_date) < today - timedelta(days=1):
            return 0
        return self.run

    def on(self, day: date) -> int | None:
        """The streak as it stood once ``day`` was over: known for a day of the latest run (its place
        in it) and a day after ``last_date`` (0: not counted); None for a day before the latest run,
        whose length there is not kept."""
        if self.last_date is None:
            return 0
        behind = (date.fromisoformat(self.last_date) - day).days
        if behind < 0:
            return 0
        return self.run - behind if behind < self.run else None
