"""Schedules in the store: one hash each, listed by when they were defined, and the occurrences they make.

Making an occurrence is one script (``lua/make_occurrence.lua``): the
tournament's hash and its places by start and end, and the schedule's
``made_ms`` moved on to it, in one step that makes nothing when ``made_ms``
is already at or past the occurrence. Each pass makes a schedule's
occurrences in order, so 4 workers racing through the same occurrences make
each once (``bench/schedules.py``), and a worker dying between two leaves
the next to whichever pass comes next.
"""

import json
import secrets

from domain.numerals import is_ascii_number
from domain.rewards import bands_of
from domain.schedules import NoSuchSchedule, Schedule
from domain.tournaments import Tournament
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.listing import indexed_page
from store.schedules import scripts
from store.tournaments.tournaments import SECRET_BYTES, stored_tournament


def _schedule(fields: dict[str, str]) -> Schedule:
    return Schedule(fields["id"], fields["title"], fields["cron"], fields["timezone"], int(fields["duration_s"]),
                    json.loads(fields["template"]), fields["paused"] == "1", fields["created_by"],
                    int(fields["created_ms"]))


def create_schedule(db: Database, *, title: str, cron: str, timezone: str, duration_s: int, template: dict,
                    created_by: str) -> Schedule:
    """Store a new schedule (its fields checked by the caller's schema), making from now on."""
    at = now_ms()
    schedule = Schedule(str(db.redis.incr(keys.schedule_ids())), title, cron, timezone, duration_s, template,
                        False, created_by, at)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hset(keys.schedule(schedule.id), mapping={
            "id": schedule.id, "title": title, "cron": cron, "timezone": timezone, "duration_s": duration_s,
            "template": json.dumps(template), "paused": "", "created_by": created_by, "created_ms": at,
            "made_ms": at})
        pipe.zadd(keys.schedules(), {schedule.id: at})
        pipe.execute()
    return schedule


def load_schedule(db: Database, schedule_id: str) -> Schedule:
    """The schedule; ``NoSuchSchedule`` if there is none."""
    fields = db.redis.hgetall(keys.schedule(schedule_id)) if is_ascii_number(schedule_id) else {}
    if not fields:
        raise NoSuchSchedule(schedule_id)
    return _schedule(fields)


def schedule_page(db: Database, offset: int, limit: int) -> tuple[int, list[Schedule]]:
    """``(total, schedules)``: a page of the schedules, oldest first."""
    total, found = indexed_page(db, keys.schedules(), keys.schedule, offset, limit)
    return total, [_schedule(fields) for fields in found]


def pause_schedule(db: Database, schedule_id: str, paused: bool) -> Schedule:
    """Pause the schedule (it makes nothing) or resume it (it makes the occurrences ahead from now on;
    those it would have made meanwhile are not made)."""
    held = load_schedule(db, schedule_id)
    made_ms = int(db.redis.hget(keys.schedule(schedule_id), "made_ms") or 0)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hset(keys.schedule(schedule_id), "paused", "1" if paused else "")
        if held.paused and not paused:  # nothing of the pause is made late: an occurrence started is skipped
            pipe.hset(keys.schedule(schedule_id), "made_ms", max(made_ms, now_ms()))
        pipe.execute()
    return load_schedule(db, schedule_id)


def delete_schedule(db: Database, schedule_id: str) -> None:
    """Forget the schedule; the tournaments it made stay. ``NoSuchSchedule`` if there is none."""
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.schedule(schedule_id))
        pipe.zrem(keys.schedules(), schedule_id)
        deleted, _ = pipe.execute()
    if not deleted:
        raise NoSuchSchedule(schedule_id)


def _occurrence(schedule: Schedule, starts_ms: int, at_ms: int) -> Tournament:
    template = schedule.template
    return Tournament(
        id="", title=template.get("title") or schedule.title, variant=template["variant"], starts_ms=starts_ms,
        ends_ms=starts_ms + schedule.duration_s * 1000, join_required=template["join_required"],
        max_entrants=template["max_entrants"], max_attempts=template["max_attempts"], deals=template["deals"],
        scoring=template["scoring"], created_by=schedule.created_by, created_ms=at_ms,
        rewards=bands_of(template["rewards"]), schedule=schedule.id)


def make_due(db: Database, schedule: Schedule, ahead_s: int) -> list[str]:
    """Make the schedule's occurrences starting within ``ahead_s`` seconds and not made yet, in order;
    the ids of the tournaments this call made. Safe in several processes at once."""
    at = now_ms()
    made_ms = int(db.redis.hget(keys.schedule(schedule.id), "made_ms") or 0)
    made = []
    for starts_ms in schedule.due(made_ms, at, ahead_s * 1000):
        tournament = _occurrence(schedule, starts_ms, at)
        reply = scripts.make_occurrence(
            db.redis, schedule_id=schedule.id, starts_ms=starts_ms, ends_ms=tournament.ends_ms,
            fields={**stored_tournament(tournament), "secret": secrets.token_hex(SECRET_BYTES)})
        if reply[0] == -1:
            break
        if reply[0] == 1:
            made.append(str(reply[1]))
    return made


def make_scheduled(db: Database, ahead_s: int) -> list[str]:
    """Make every running schedule's occurrences due (``make_due``): the workers' periodic step. The ids
    of the tournaments this call made."""
    made = []
    for schedule_id in db.redis.zrange(keys.schedules(), 0, -1):
        try:
            schedule = load_schedule(db, schedule_id)
        except NoSuchSchedule:  # deleted meanwhile
            continue
        if not schedule.paused:
            made += make_due(db, schedule, ahead_s)
    return made
