"""Issue 11: disputes and moderators' changes reach archived runs, which come back to Redis first.

dan plays two classic games (low, then high). With both archived but the
high one holding his place, each test archives the low run and acts on it:
the change brings it back to Redis (``store.runs.history.hot_run``) with its
audit log, and the usual change follows. (``--older-than 0`` counts a run
brought back a moment ago as old enough to leave again.)
"""

import time

import pytest

from store.base import keys
from store.runs.records import load_run
from tests.audit.conftest import bearer, cli, submit_final
from tests.support.games import games_by_score, play_at_machine_speed

from .conftest import archive_now, snapshot

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dan(stack):
    token = stack.register("dan")[1]
    low, high = games_by_score("archive-moderation", 2)
    runs = {"low": submit_final(stack, token, low)}
    time.sleep(0.005)
    runs["high"] = submit_final(stack, token, high)
    return {"token": token, "runs": runs}


@pytest.fixture
def archived_low(stack, db, dan):
    """The low run, in the archive only, and what a client read of it there."""
    low_id = dan["runs"]["low"]["id"]
    archive_now(stack)
    assert load_run(db, low_id) is None and low_id in db.archive.load([low_id])
    return low_id, snapshot(stack, low_id)


def back_in_redis(db, run_id: str) -> bool:
    return load_run(db, run_id) is not None and run_id not in db.archive.load([run_id])


def test_a_dispute_of_an_archived_run_brings_it_back_with_its_audit_log(stack, db, dan, archived_low):
    low_id, before = archived_low
    response = stack.post(f"/v1/runs/{low_id}/disputes", json={"reason": "odd"}, headers=bearer(dan["token"]))
    assert response.status_code == 201
    assert back_in_redis(db, low_id)
    entries = stack.get(f"/v1/runs/{low_id}/audit-log").json()["entries"]
    assert entries[:-1] == before["audit"]["entries"]
    assert entries[-1]["event"] == "disputed"
    assert stack.get(f"/v1/runs/{low_id}").json() == before["run"]


def test_voiding_an_archived_run_and_restoring_it(stack, db, dan, moderator, archived_low):
    low_id, _ = archived_low
    dispute = stack.post(f"/v1/runs/{low_id}/disputes", json={"reason": "void it"},
                         headers=bearer(dan["token"])).json()
    voided = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "n"},
                        headers=bearer(moderator))
    assert voided.status_code == 200 and stack.get(f"/v1/runs/{low_id}").json()["status"] == "void"
    archive_now(stack)
    assert load_run(db, low_id) is None
    restored = stack.post(f"/v1/runs/{low_id}/restore", headers=bearer(moderator))
    assert restored.status_code == 200
    assert restored.json()["status"] == "verified"
    assert back_in_redis(db, low_id)
    assert stack.get(f"/v1/runs/{low_id}/audit-log").json()["entries"][-1]["event"] == "restored"


def test_reverifying_an_archived_run(stack, db, dan, moderator, archived_low):
    low_id, before = archived_low
    response = stack.post(f"/v1/runs/{low_id}/reverify", headers=bearer(moderator))
    assert response.status_code == 200
    assert response.json()["changed"] is False
    assert response.json()["run"] == before["run"]
    assert back_in_redis(db, low_id)
    entries = stack.get(f"/v1/runs/{low_id}/audit-log").json()["entries"]
    assert entries[:-1] == before["audit"]["entries"] and entries[-1]["event"] == "reverified"


def test_requeue_of_an_archived_run_is_409_not_404(stack, moderator, archived_low):
    low_id, _ = archived_low
    assert stack.post(f"/v1/runs/{low_id}/requeue", headers=bearer(moderator)).status_code == 409


def test_an_unknown_run_is_still_404_everywhere(stack, moderator, dan):
    for path in ("/v1/runs/nope", "/v1/runs/nope/audit-log", "/v1/runs/nope/replay", "/runs/nope"):
        assert stack.get(path).status_code == 404, path
    assert stack.post("/v1/runs/nope/restore", headers=bearer(moderator)).status_code == 404
    assert stack.post("/v1/runs/nope/disputes", json={"reason": "x"},
                      headers=bearer(dan["token"])).status_code == 404


def test_a_run_brought_back_stays_hot_for_the_hot_days(stack, db, dan, moderator, archived_low):
    low_id, _ = archived_low
    assert stack.post(f"/v1/runs/{low_id}/reverify", headers=bearer(moderator)).status_code == 200
    # as if submitted in 1970: old enough for any cutoff
    db.redis.zadd(keys.player_runs("dan"), {low_id: 1})
    db.redis.zadd(keys.run_players(), {"dan": 1})
    try:
        kept = cli(stack, "archive", "--older-than", "1")
        assert kept.returncode == 0, kept.stderr
        assert "1 back from the archive since" in kept.stdout
        assert back_in_redis(db, low_id)
    finally:
        db.redis.zadd(keys.player_runs("dan"), {low_id: load_run(db, low_id).submitted_ms})
        [(_, oldest)] = db.redis.zrange(keys.player_runs("dan"), 0, 0, withscores=True)
        db.redis.zadd(keys.run_players(), {"dan": oldest})


def test_a_flag_of_an_archived_run_still_resolves_and_dismissing_it_brings_the_run_back(stack, db, moderator):
    """A bot-speed dealt game, flagged, then voided (so it holds no place) and archived: its flags
    still list it and link a replay that answers; dismissing one is logged on the run, back in Redis."""
    game, token = play_at_machine_speed(stack)
    run_id = game["run_id"]
    stack.until(lambda: stack.get("/v1/flags", params={"run_id": run_id}, headers=bearer(moderator)).json()["entries"],
                "the bot-speed game's flag")
    dispute = stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": "a bot"}, headers=bearer(token)).json()
    stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void"}, headers=bearer(moderator))
    archive_now(stack)
    assert load_run(db, run_id) is None and run_id in db.archive.load([run_id])

    [fast] = [flag for flag in stack.get("/v1/flags", params={"run_id": run_id}, headers=bearer(moderator))
              .json()["entries"] if flag["reason"] == "fast_moves"]
    assert stack.get(fast["replay"]).status_code == 200
    assert stack.get(f"/v1/runs/{run_id}/replay", headers=bearer(moderator)).status_code == 200
    dismissed = stack.post(f"/v1/flags/{fast['id']}/dismiss", json={}, headers=bearer(moderator))
    assert dismissed.status_code == 200 and dismissed.json()["status"] == "dismissed"
    assert back_in_redis(db, run_id)
    last = stack.get(f"/v1/runs/{run_id}/audit-log", headers=bearer(moderator)).json()["entries"][-1]
    assert (last["event"], last["detail"]) == ("flag_dismissed", {"flag": fast["id"], "reason": "fast_moves"})
    assert stack.get(f"/v1/runs/{run_id}").json()["status"] == "void"  # the flag changed nothing of the verdict
