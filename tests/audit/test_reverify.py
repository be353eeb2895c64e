"""Issue 4: re-verification, one run by a moderator and in bulk with ``scoundrel reverify``.

A run stored under a deliberately wrong verdict (written straight into
Redis, as a buggy engine would have left it) gets its true verdict back,
the boards follow, and the audit log records the change.
"""

import json
import time

import pytest

from store.base import keys
from store.base.packing import pack
from tests.support.games import games_by_score

from .conftest import bearer, cli, submit_final


def corrupt_as_verified(redis_client, run: dict, score: int) -> None:
    """Store ``run`` as verified with ``score`` and give it its player's place, as a wrong engine would have."""
    redis_client.hset(keys.run(run["id"]), mapping={
        "status": "verified", "outcome": "won", "score": score, "health": score, "error": ""})
    submitted = int(redis_client.hget(keys.run(run["id"]), "submitted_ms"))
    redis_client.zadd(keys.board_places("open", (run["variant"],)), {run["player"]: pack(score, submitted)})
    redis_client.hset(keys.board_holders("open", (run["variant"],)), run["player"], run["id"])


def corrupt_as_rejected(redis_client, run: dict) -> None:
    error = {"code": "card_not_in_room", "move_index": 0, "message": "wrong", "ruling": "R4"}
    redis_client.hset(keys.run(run["id"]), mapping={
        "status": "rejected", "outcome": "", "score": "", "health": "", "error": json.dumps(error)})


def place(stack, variant: str, player: str):
    response = stack.get(f"/v1/leaderboards/{variant}/players/{player}")
    return (response.json()["run_id"], response.json()["score"]) if response.status_code == 200 else None


@pytest.fixture(scope="module")
def cyd(stack):
    name, token = stack.register("cyd")
    low, high = games_by_score("reverify-1", 2)
    runs = {"low": submit_final(stack, token, low)}
    time.sleep(0.005)
    runs["high"] = submit_final(stack, token, high)
    runs["incomplete"] = submit_final(stack, token, {**high, "moves": high["moves"][:5]})
    return {"token": token, "runs": runs}


def test_reverify_corrects_a_wrong_verified_verdict_and_the_board(stack, cyd, moderator, redis_client):
    runs = cyd["runs"]
    corrupt_as_verified(redis_client, runs["incomplete"], 30)
    assert place(stack, "classic", "cyd") == (runs["incomplete"]["id"], 30)

    response = stack.post(f"/v1/runs/{runs['incomplete']['id']}/reverify", headers=bearer(moderator))
    assert response.status_code == 200
    result = response.json()
    assert result["changed"] is True
    assert result["before"] == {"status": "verified", "outcome": "won", "score": 30, "health": 30, "error": None}
    assert result["after"]["status"] == "rejected" and result["after"]["error"] == "incomplete"
    assert result["run"]["status"] == "rejected"
    assert result["run"]["error"]["code"] == "incomplete"
    assert place(stack, "classic", "cyd") == (runs["high"]["id"], runs["high"]["score"])

    entry = stack.get(f"/v1/runs/{runs['incomplete']['id']}/audit-log").json()["entries"][-1]
    assert entry["event"] == "reverified"
    assert entry["actor"] == {"kind": "moderator", "name": "mia"}
    assert entry["detail"] == {"changed": True}
    assert (entry["before"]["status"], entry["before"]["score"]) == ("verified", 30)
    assert (entry["after"]["status"], entry["after"]["error"]) == ("rejected", "incomplete")


def test_reverify_of_a_wrongly_rejected_run_puts_it_back_on_the_board(stack, cyd, moderator, redis_client):
    runs = cyd["runs"]
    corrupt_as_rejected(redis_client, runs["high"])
    # the board a rejection left
    redis_client.zadd(keys.board_places("open", ("classic",)), {"cyd": pack(runs["low"]["score"], 1)})
    redis_client.hset(keys.board_holders("open", ("classic",)), "cyd", runs["low"]["id"])

    result = stack.post(f"/v1/runs/{runs['high']['id']}/reverify", headers=bearer(moderator)).json()
    assert result["changed"] is True
    assert result["before"]["status"] == "rejected" and result["after"]["status"] == "verified"
    assert result["after"]["score"] == runs["high"]["score"]
    assert place(stack, "classic", "cyd") == (runs["high"]["id"], runs["high"]["score"])


def test_reverify_of_a_correct_verdict_changes_nothing_but_is_logged(stack, cyd, moderator):
    run = cyd["runs"]["low"]
    before = stack.get(f"/v1/runs/{run['id']}").json()
    result = stack.post(f"/v1/runs/{run['id']}/reverify", headers=bearer(moderator)).json()
    assert result["changed"] is False and result["before"] == result["after"]
    after = result["run"]
    assert {k: after[k] for k in ("status", "outcome", "score", "health")} == \
        {k: before[k] for k in ("status", "outcome", "score", "health")}
    entry = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"][-1]
    assert (entry["event"], entry["detail"]) == ("reverified", {"changed": False})


def test_reverify_of_a_pending_run_is_409_and_of_an_unknown_run_404(stack, cyd, moderator, redis_client):
    run_id = cyd["runs"]["low"]["id"]
    redis_client.hset(keys.run(run_id), "status", "pending")
    try:
        assert stack.post(f"/v1/runs/{run_id}/reverify", headers=bearer(moderator)).status_code == 409
    finally:
        redis_client.hset(keys.run(run_id), "status", "verified")
    assert stack.post("/v1/runs/0000000000000000/reverify", headers=bearer(moderator)).status_code == 404


def test_reverify_keeps_a_void_run_void(stack, cyd, moderator, redis_client):
    run = cyd["runs"]["low"]
    dispute = stack.post(f"/v1/runs/{run['id']}/disputes", json={"reason": "r"}, headers=bearer(cyd["token"])).json()
    stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void"}, headers=bearer(moderator))
    corrupt_as_rejected(redis_client, run)
    redis_client.hset(keys.run(run["id"]), mapping={"status": "void", "voided_status": "rejected"})
    result = stack.post(f"/v1/runs/{run['id']}/reverify", headers=bearer(moderator)).json()
    assert result["changed"] is True and result["after"]["status"] == "verified"
    assert result["run"]["status"] == "void"
    restored = stack.post(f"/v1/runs/{run['id']}/restore", headers=bearer(moderator)).json()
    assert (restored["status"], restored["score"]) == ("verified", run["score"])


def test_bulk_reverify_fixes_changed_runs_and_reports_them(stack, moderator, redis_client):
    name, token = stack.register("dee")
    low, high = games_by_score("bulk-1", 2)
    good = submit_final(stack, token, low)
    wrong = submit_final(stack, token, {**high, "moves": high["moves"][:-1]})
    easy = submit_final(stack, token, games_by_score("bulk-1", 1, "easy")[0])
    assert (good["status"], wrong["status"], easy["status"]) == ("verified", "rejected", "verified")
    corrupt_as_verified(redis_client, wrong, 29)
    corrupt_as_rejected(redis_client, easy)
    assert place(stack, "classic", "dee") == (wrong["id"], 29)

    # --variant easy touches only the easy run
    only_easy = cli(stack, "reverify", "--variant", "easy")
    assert only_easy.returncode == 0, only_easy.stderr
    assert easy["id"] in only_easy.stdout and wrong["id"] not in only_easy.stdout
    assert only_easy.stdout.strip().splitlines()[-1] == "1 run re-verified: 1 changed, 0 unchanged"
    assert stack.get(f"/v1/runs/{wrong['id']}").json()["score"] == 29

    done = cli(stack, "reverify", "--all")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    changed = [line for line in lines if line.startswith(wrong["id"])]
    assert changed == [f"{wrong['id']}\tverified won score 29 -> rejected incomplete"]
    assert " 1 changed" in lines[-1]
    assert place(stack, "classic", "dee") == (good["id"], good["score"])
    assert stack.get(f"/v1/runs/{easy['id']}").json()["status"] == "verified"

    entry = stack.get(f"/v1/runs/{wrong['id']}/audit-log").json()["entries"][-1]
    assert (entry["event"], entry["actor"]["kind"], entry["detail"]) == ("reverified", "cli", {"changed": True})
    assert entry["actor"]["name"].startswith("cli:")
    # unchanged runs get no audit entry from a bulk run
    assert [e["event"] for e in stack.get(f"/v1/runs/{good['id']}/audit-log").json()["entries"]] == \
        ["submitted", "verified"]

    again = cli(stack, "reverify", "--all")
    assert " 0 changed" in again.stdout.strip().splitlines()[-1]


def test_bulk_reverify_filters_by_date_and_needs_a_selection(stack):
    future = cli(stack, "reverify", "--since", "2999-01-01")
    assert future.returncode == 0
    assert future.stdout.strip() == "0 runs re-verified: 0 changed, 0 unchanged"
    assert cli(stack, "reverify").returncode == 2
    assert cli(stack, "reverify", "--all", "--variant", "easy").returncode == 2
    assert cli(stack, "reverify", "--since", "yesterday").returncode == 2
