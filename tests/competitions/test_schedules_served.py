"""Issue 48, schedules over the real processes: two workers' periodic passes, each on its own timer, make a
schedule's tournaments ahead of time, each occurrence once."""

import time
from collections import Counter

import pytest

from tests.support.games import moderator_token
from tests.support.stack import Stack

pytestmark = [pytest.mark.served,  # two worker processes' own timers racing: only processes show it
              pytest.mark.slow]

AHEAD_S = 300  # five minutes ahead: five tournaments of a schedule firing every minute


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("schedules"), workers=2, env={
        "SCOUNDREL_SWEEP_INTERVAL": "0.2", "SCOUNDREL_SCHEDULE_AHEAD": str(AHEAD_S)}).start()
    yield running
    running.stop()


def made_by(stack, schedule_id: str) -> list[dict]:
    found = []
    for state in ("running", "upcoming"):
        page = stack.get("/v1/tournaments", params={"state": state, "limit": 100}).json()["tournaments"]
        found += [tournament for tournament in page if tournament["schedule"] == schedule_id]
    return found


def waited(what: str, found, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not (result := found()):
        assert time.monotonic() < deadline, f"{what}: not in {timeout} s"
        time.sleep(0.1)
    return result


def test_two_workers_make_each_of_a_schedules_tournaments_once(stack):
    moderator = {"Authorization": f"Bearer {moderator_token(stack, 'mia')}"}
    body = {"title": "Minute sprint", "cron": "* * * * *", "duration_s": 120, "tournament": {"deals": 1}}
    first = stack.post("/v1/schedules", json=body, headers=moderator)
    assert first.status_code == 201, first.text
    waited("the first schedule's tournaments", lambda: len(made_by(stack, first.json()["id"])) >= AHEAD_S // 60)
    # a schedule defined after: once its tournaments are made, both workers have passed over the first many times
    second = stack.post("/v1/schedules", json={**body, "title": "Later sprint"}, headers=moderator)
    waited("the second schedule's tournaments", lambda: len(made_by(stack, second.json()["id"])) >= AHEAD_S // 60)
    for schedule in (first.json(), second.json()):
        starts = Counter(tournament["starts_at"] for tournament in made_by(stack, schedule["id"]))
        assert max(starts.values()) == 1, starts
        assert len(starts) in (AHEAD_S // 60, AHEAD_S // 60 + 1)  # a minute may have turned meanwhile
