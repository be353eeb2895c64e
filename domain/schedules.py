"""Schedules: tournaments that make themselves, one for each time a cron expression names.

- **A schedule** holds a 5-field cron expression read in an IANA
  ``timezone`` (DST included: a time the clocks skip fires at the first
  minute after the jump, a time they repeat fires once; ``cronsim``'s
  reading), a ``duration_s``, and a template: the fields of a tournament but
  its times, its reward table included. Each time the expression names is an
  occurrence: a tournament running from that time for ``duration_s``, which
  carries the schedule's id. Occurrences may overlap (an hourly schedule of
  two-hour tournaments runs two at once), as Nakama's reset schedules do not:
  here each occurrence is a tournament of its own.
- **Made ahead, once.** The workers' periodic pass makes each occurrence
  starting within ``ahead`` (``SCOUNDREL_SCHEDULE_AHEAD``, a day by default)
  before it starts, so players see it upcoming; an occurrence is made once
  however many workers run (``store.schedules``). One whose end has passed
  (the workers were away) is skipped, never made late.
- **Paused** schedules make nothing; resumed, they make the occurrences
  ahead from then on. Deleting a schedule leaves the tournaments it made.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from .errors import Refusal

CRON_FIELDS = 5
MAX_DURATION_S = 366 * 24 * 3600
MAX_MADE = 2000  # occurrences one pass makes of one schedule: the rest wait for the next pass


class NoSuchSchedule(Refusal):
    """The schedule does not exist."""

    def __init__(self, schedule_id: str):
        super().__init__(f"No schedule {schedule_id!r}.")


def cron_problem(cron: str) -> str | None:
    """Why ``cron`` is not a 5-field cron expression this service reads; None when it is."""
    if len(cron.split()) != CRON_FIELDS:
        return f"A cron expression has {CRON_FIELDS} fields (minute hour day month weekday)."
    try:
        CronSim(cron, datetime.now(UTC))
    except CronSimError as error:
        return f"Not a cron expression: {error}."
    return None


def timezone_problem(name: str) -> str | None:
    """Why ``name`` is not an IANA timezone; None when it is."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name no file could have (too long)
        return f"No timezone {name!r}: give an IANA name such as Europe/Paris or UTC."
    return None


@dataclass(frozen=True)
class Schedule:
    """One schedule as defined, with who defined it and when (times in ms since 1970). ``template``: the
    fields of ``POST /v1/tournaments`` but ``starts_at`` and ``ends_at``, as the API took them."""

    id: str
    title: str
    cron: str
    timezone: str
    duration_s: int
    template: dict[str, Any]
    paused: bool
    created_by: str
    created_ms: int

    def occurrences(self, after_ms: int, until_ms: int) -> Iterator[int]:
        """The starts (ms) the expression names after ``after_ms``, up to ``until_ms``, in order, in the
        schedule's timezone."""
        after = datetime.fromtimestamp(after_ms / 1000, ZoneInfo(self.timezone))
        for start in CronSim(self.cron, after):
            start_ms = int(start.timestamp() * 1000)
            if start_ms > until_ms:
                return
            if start_ms > after_ms:
                yield start_ms

    def due(self, made_ms: int, at_ms: int, ahead_ms: int) -> list[int]:
        """The occurrences to make at ``at_ms``: after the last made (``made_ms``), starting within
        ``ahead_ms``, and not over yet; at most ``MAX_MADE``."""
        starts = []
        for start_ms in self.occurrences(max(made_ms, at_ms - self.duration_s * 1000), at_ms + ahead_ms):
            if start_ms + self.duration_s * 1000 > at_ms:
                starts.append(start_ms)
                if len(starts) == MAX_MADE:
                    break
        return starts
