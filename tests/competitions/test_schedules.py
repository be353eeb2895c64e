"""Issue 48, schedules: a moderator defines one over HTTP (the service in this process), the workers' scheduling
step makes each of its tournaments ahead of time, once however many callers race (the workers' periodic passes
too), pauses, resumes and deletes;
its cron expression is read in its timezone across DST."""

import threading
from collections import Counter
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from domain.schedules import Schedule
from settings import Settings
from store.schedules import make_scheduled
from tests.support.games import moderator_token
from tests.support.in_process import stack_of
from worker.runner import periodic_pass

AHEAD_S = 600  # the schedules' tournaments are made 10 minutes ahead here
RACERS = 4


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request, env={"SCOUNDREL_SCHEDULE_AHEAD": str(AHEAD_S)})


@pytest.fixture(scope="module")
def moderator(stack) -> dict:
    return {"Authorization": f"Bearer {moderator_token(stack, 'mia')}"}


def every_minute(stack, moderator, **fields) -> dict:
    body = {"title": "Minute sprint", "cron": "* * * * *", "duration_s": 120,
            "tournament": {"deals": 1, "max_attempts": 2, "rewards": [{"from_rank": 1, "payload": {"coins": 5}}]},
            **fields}
    answer = stack.post("/v1/schedules", json=body, headers=moderator)
    assert answer.status_code == 201, answer.text
    assert answer.headers["Location"].endswith(f"/v1/schedules/{answer.json()['id']}")
    return answer.json()


def made_by(stack, schedule_id: str) -> list[dict]:
    """The tournaments the schedule made, upcoming or running, soonest first."""
    found = []
    for state in ("running", "upcoming"):
        page = stack.get("/v1/tournaments", params={"state": state, "limit": 100}).json()["tournaments"]
        found += [tournament for tournament in page if tournament["schedule"] == schedule_id]
    return sorted(found, key=lambda tournament: tournament["starts_at"])


def racing(stack, callers: int) -> list[str]:
    """``callers`` threads running the workers' scheduling step at once: every tournament id they made."""
    made: list[str] = []
    start = threading.Barrier(callers)

    def one() -> None:
        db = stack.database()
        try:
            start.wait()
            made.extend(make_scheduled(db, AHEAD_S))
        finally:
            db.close()

    threads = [threading.Thread(target=one) for _ in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return made


def test_a_schedule_firing_every_minute_makes_each_tournament_once_however_many_callers_race(stack, moderator):
    schedule = every_minute(stack, moderator)
    assert (schedule["paused"], schedule["timezone"], len(schedule["next_starts_at"])) == (False, "UTC", 5)
    made = racing(stack, RACERS)
    tournaments = made_by(stack, schedule["id"])
    assert sorted(made) == sorted(tournament["id"] for tournament in tournaments)  # each made by one caller
    starts = [tournament["starts_at"] for tournament in tournaments]
    assert len(starts) == len(set(starts)) == AHEAD_S // 60  # one a minute, 10 minutes ahead
    assert starts[0] == schedule["next_starts_at"][0]
    first = tournaments[0]
    assert (first["title"], first["deals"], first["max_attempts"], first["state"]) == ("Minute sprint", 1, 2,
                                                                                       "upcoming")
    assert first["rewards"] == [{"from_rank": 1, "payload": {"coins": 5}}]
    assert datetime.fromisoformat(first["ends_at"]) - datetime.fromisoformat(first["starts_at"]) == \
        datetime.fromisoformat("2026-01-01T00:02:00+00:00") - datetime.fromisoformat("2026-01-01T00:00:00+00:00")
    assert racing(stack, RACERS) == []  # made already: a second pass makes nothing


def test_workers_passing_at_once_make_each_of_a_schedules_tournaments_once(stack, moderator):
    """The workers' periodic passes (``worker.runner.periodic_pass``, each worker's on its own timer) racing:
    two threads passing over and over, and the test's own worker steps (``until``) between them."""
    stopped = threading.Event()

    def passing() -> None:
        db = stack.database()
        try:
            while not stopped.is_set():
                periodic_pass(db, Settings.from_env())
        finally:
            db.close()

    workers = [threading.Thread(target=passing) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        first = every_minute(stack, moderator, title="Raced sprint")
        stack.until(lambda: len(made_by(stack, first["id"])) >= AHEAD_S // 60, "the first schedule's tournaments")
        # a schedule defined after: once its tournaments are made, the workers have passed over the first many times
        second = every_minute(stack, moderator, title="Later raced sprint")
        stack.until(lambda: len(made_by(stack, second["id"])) >= AHEAD_S // 60, "the second schedule's tournaments")
    finally:
        stopped.set()
        for worker in workers:
            worker.join()
    for schedule in (first, second):
        starts = Counter(tournament["starts_at"] for tournament in made_by(stack, schedule["id"]))
        assert max(starts.values()) == 1, starts
        assert len(starts) in (AHEAD_S // 60, AHEAD_S // 60 + 1)  # a minute may have turned meanwhile


def test_a_paused_schedule_makes_nothing_and_resumed_makes_from_then_on(stack, moderator):
    schedule = every_minute(stack, moderator, title="Paused sprint")
    paused = stack.post(f"/v1/schedules/{schedule['id']}/pause", headers=moderator)
    assert paused.status_code == 200 and paused.json()["paused"] is True
    racing(stack, 2)
    assert made_by(stack, schedule["id"]) == []
    resumed = stack.post(f"/v1/schedules/{schedule['id']}/resume", headers=moderator)
    assert resumed.status_code == 200 and resumed.json()["paused"] is False
    racing(stack, 2)
    assert len(made_by(stack, schedule["id"])) == AHEAD_S // 60


def test_a_deleted_schedule_is_gone_and_its_tournaments_stay(stack, moderator):
    schedule = every_minute(stack, moderator, title="Deleted sprint")
    racing(stack, 1)
    kept = made_by(stack, schedule["id"])
    gone = stack.http.delete(stack.url(f"/v1/schedules/{schedule['id']}"), headers=moderator)
    assert gone.status_code == 204
    assert stack.get(f"/v1/schedules/{schedule['id']}", headers=moderator).status_code == 404
    assert made_by(stack, schedule["id"]) == kept and kept


def test_schedules_are_listed_for_moderators_only(stack, moderator):
    listed = stack.get("/v1/schedules", headers=moderator).json()
    assert listed["total"] == len(listed["schedules"]) >= 1
    _, token = stack.register()
    assert stack.get("/v1/schedules", headers={"Authorization": f"Bearer {token}"}).status_code == 403
    assert stack.post("/v1/schedules", json={}).status_code == 401


@pytest.mark.parametrize(("fields", "field"), [
    ({"cron": "* * * *"}, "cron"),
    ({"cron": "61 * * * *"}, "cron"),
    ({"cron": "0 0 * * * *"}, "cron"),
    ({"timezone": "Mars/Olympus"}, "timezone"),
    ({"timezone": "a" * 300}, "timezone"),
    ({"duration_s": 10}, "duration_s"),
    ({"tournament": {"starts_at": "2030-01-01T00:00:00Z"}}, "tournament"),
    ({"tournament": {"rewards": [{"from_rank": 3, "to_rank": 2, "payload": 1}]}}, "tournament"),
    ({"tournament": {"rewards": [{"from_rank": 1, "top_percent": 10, "payload": 1}]}}, "tournament"),
    ({"tournament": {"rewards": [{"from_rank": 1}]}}, "tournament"),
])
def test_a_schedule_that_is_not_one_is_refused_naming_its_field(stack, moderator, fields, field):
    body = {"title": "Bad", "cron": "0 12 * * *", "duration_s": 3600, "tournament": {}, **fields}
    answer = stack.post("/v1/schedules", json=body, headers=moderator)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["errors"], answer.json()


def starts(cron: str, zone: str, after: datetime, count: int) -> list[str]:
    schedule = Schedule("1", "t", cron, zone, 3600, {}, False, "mia", 0)
    after_ms = int(after.timestamp() * 1000)
    found = []
    for start_ms in schedule.occurrences(after_ms, after_ms + 10 * 86_400_000):
        found.append(datetime.fromtimestamp(start_ms / 1000, ZoneInfo(zone)).isoformat())
        if len(found) == count:
            return found
    return found


def test_a_time_the_clocks_skip_fires_just_after_the_jump_and_a_time_they_repeat_fires_once():
    new_york = ZoneInfo("America/New_York")
    assert starts("30 2 * * *", "America/New_York", datetime(2026, 3, 7, tzinfo=new_york), 3) == [
        "2026-03-07T02:30:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-09T02:30:00-04:00"]
    assert starts("30 1 * * *", "America/New_York", datetime(2026, 10, 31, 12, tzinfo=new_york), 3) == [
        "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00", "2026-11-03T01:30:00-05:00"]
    assert starts("0 12 * * 1", "UTC", datetime(2026, 12, 6, tzinfo=UTC), 2) == [
        "2026-12-07T12:00:00+00:00", "2026-12-14T12:00:00+00:00"]
