"""Which season an instant is in: the one home of the season calendar.

A season is a UTC month (``monthly``, the default: ids like ``2026-12``) or
an ISO week (``weekly``: ids like ``2026-W49``, Monday 00:00 UTC to the next
Monday; the ISO year, so 2026-12-31 is in ``2026-W53`` and 2027-01-04 starts
``2027-W01``). A season starts at its ``starts_ms`` and ends, exclusive, at
its ``ends_ms``, which is the next season's start: every instant is in
exactly one season. An id says its own calendar, so a season is known from
its id alone (``parse_season``), whatever the service's setting is now.

A dealt run counts on the season in which its game ended (its ``season``,
set where its run is built, ``store.games.dealt``); the seasonal boards
(``domain.boards``) are keyed by it, and the close of a season that has
ended freezes them (``store.boards.seasons``).
"""

import enum
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

# A season id's shape, for routes and page names: a month 01-12 or a week 01-53 of a four-digit year (whether
# that year has that week, and year 0000, ``parse_season`` says).
SEASON_PATTERN = r"\d{4}-(?:0[1-9]|1[0-2]|W(?:0[1-9]|[1-4]\d|5[0-3]))"
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


class Schedule(enum.Enum):
    """How long a season lasts (``SCOUNDREL_SEASON``)."""

    MONTHLY = "monthly"
    WEEKLY = "weekly"


def _ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class Season:
    """One season: its id and the instants (ms since 1970, UTC) it starts at and ends before."""

    id: str
    starts_ms: int
    ends_ms: int

    @property
    def schedule(self) -> Schedule:
        return Schedule.WEEKLY if "W" in self.id else Schedule.MONTHLY

    def following(self) -> "Season":
        """The season that starts when this one ends (of the same calendar)."""
        return season_at(self.schedule, self.ends_ms)

    def left_ms(self, now_ms: int) -> int:
        """Milliseconds from ``now_ms`` to the season's end (0 once it has ended)."""
        return max(0, self.ends_ms - now_ms)


def _month(year: int, month: int) -> Season:
    first = date(year, month, 1)
    following = date(year + month // 12, month % 12 + 1, 1)
    return Season(f"{year:04d}-{month:02d}", _ms(first), _ms(following))


def _week(year: int, week: int) -> Season:
    monday = date.fromisocalendar(year, week, 1)  # ValueError for a week the ISO year does not have
    return Season(f"{year:04d}-W{week:02d}", _ms(monday), _ms(monday + timedelta(days=7)))


def season_at(schedule: Schedule, at_ms: int) -> Season:
    """The season of ``schedule`` that the instant ``at_ms`` is in."""
    day = datetime.fromtimestamp(at_ms / 1000, UTC).date()
    if schedule is Schedule.WEEKLY:
        year, week, _ = day.isocalendar()
        return _week(year, week)
    return _month(day.year, day.month)


def parse_season(text: str) -> Season:
    """The season ``text`` names (``2026-12``, ``2026-W49``); ``ValueError`` for anything else,
    a month past 12, a week the ISO year does not have and a season ending past the calendar's
    last day (9999-12-31) among them."""
    try:
        if match := _MONTH.match(text):
            year, month = int(match[1]), int(match[2])
            if year >= 1 and 1 <= month <= 12:
                return _month(year, month)
        elif match := _WEEK.match(text):
            year, week = int(match[1]), int(match[2])
            if year >= 1 and week >= 1:
                return _week(year, week)
    except (ValueError, OverflowError):
        pass
    raise ValueError(f"not a season: {text!r}")
