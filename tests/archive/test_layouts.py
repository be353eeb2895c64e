"""Issue 11: a run in a tenth of the memory, and runs stored the way before it still answer.

A new run is one compact hash: its moves one byte each, its audit log a
field, no id, no empty field, no submission index (its id comes from its
player and game). A run stored before issue 11 (an id of its own, its
moves spelt out, its audit log in a stream, a submission key, the index of
every run) reads, takes new audit entries, moves to the archive and comes
back; back in Redis it takes the new layout. A game sent again is the run
it made, in Redis or archived.
"""

import json
import time

from store import keys, move_codes
from store.runs import fingerprint
from store.verdicts import verdict_fields
from tests.audit.conftest import bearer, submit_final
from tests.support.games import games_by_score
from verification import judge

from .conftest import archive_now, snapshot

BASE_MS = 1_795_900_000_000


def test_a_new_run_is_one_compact_hash(stack, db):
    _, token = stack.register("eve")
    game = games_by_score("layout-1", 1)[0]
    run = submit_final(stack, token, game)
    stored = db.redis.hgetall(keys.run(run["id"]))
    assert move_codes.decode(stored.pop("codes")) == game["moves"]
    assert not {"id", "moves", "job", "request_id", "daily", "error"} & set(stored)
    assert "" not in stored.values()
    assert db.redis.object("encoding", keys.run(run["id"])) == "listpack"
    assert not db.redis.exists(keys.audit(run["id"]))
    assert not db.redis.exists(keys.submission("eve", fingerprint(game["seed"], "classic", game["moves"])))
    assert db.redis.memory_usage(keys.run(run["id"])) < 450
    entries = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]
    assert [(entry["event"], entry["before"], entry["after"]) for entry in entries] == [
        ("submitted", None, {"status": "pending"}),
        ("verified", {"status": "pending", "outcome": None, "score": None, "health": None, "error": None},
         {"status": "verified", "outcome": run["outcome"], "score": run["score"], "health": run["health"],
          "error": None})]


def test_a_game_sent_again_is_its_run_in_redis_and_once_archived(stack, db):
    _, token = stack.register("fay")
    low, high = games_by_score("layout-2", 2)
    low_run = submit_final(stack, token, low)
    again = stack.submit(token, low)
    assert again.status_code == 200 and again.json()["id"] == low_run["id"]
    submit_final(stack, token, high)  # the places are high's: low moves to the archive
    archive_now(stack)
    assert not db.redis.exists(keys.run(low_run["id"])) and low_run["id"] in db.archive.load([low_run["id"]])
    again = stack.submit(token, low)
    assert again.status_code == 200 and again.json() == low_run
    batch = stack.post("/v1/runs/batch", json={"runs": [low]}, headers=bearer(token)).json()
    assert (batch["accepted"], batch["existing"]) == (0, 1) and batch["results"][0]["run"] == low_run
    assert not db.redis.exists(keys.run(low_run["id"]))  # still archived, not accepted anew
    assert not db.redis.zscore(keys.pending_runs(), low_run["id"])


def _old_layout_run(db, player: str, game: dict, run_id: str) -> None:
    """A verified run as Redis held it before issue 11, every key of it."""
    verdict = verdict_fields(judge({**game, "moves": " ".join(game["moves"])}))
    fields = {"id": run_id, "player": player, "seed": game["seed"], "variant": "classic",
              "moves": " ".join(game["moves"]), "status": "pending", "submitted_ms": BASE_MS, "daily": "",
              "request_id": "r" * 32, "job": "j" * 24}
    db.redis.hset(keys.run(run_id), mapping={**fields, **verdict, "verified_ms": BASE_MS + 40})
    pending = {"status": "pending", "outcome": None, "score": None, "health": None, "error": None}
    judged = {**pending, "status": verdict["status"], "outcome": verdict["outcome"],
              "score": int(verdict["score"]), "health": int(verdict["health"])}
    for at, event, kind, actor, before, after in [
            (BASE_MS, "submitted", "player", player, None, {"status": "pending"}),
            (BASE_MS + 40, "verified", "worker", "f" * 32, pending, judged)]:
        db.redis.xadd(keys.audit(run_id), {"event": event, "actor_kind": kind, "actor": actor, "at": at,
                                           "before": json.dumps(before), "after": json.dumps(after),
                                           "detail": json.dumps({})})
    db.redis.set(keys.submission(player, fingerprint(game["seed"], "classic", game["moves"])), run_id)
    db.redis.zadd(keys.player_runs(player), {run_id: BASE_MS})
    db.redis.zadd(keys.runs(), {run_id: BASE_MS})


def test_a_run_stored_before_reads_changes_archives_and_comes_back(stack, db):
    player, token = stack.register("gus")
    game = games_by_score("layout-3", 1)[0]
    old_id = "0123456789abcdef"
    _old_layout_run(db, player, game, old_id)
    before = snapshot(stack, old_id)
    assert before["run"]["moves"] == game["moves"] and before["run"]["status"] == "verified"
    assert [entry["event"] for entry in before["audit"]["entries"]] == ["submitted", "verified"]

    again = stack.submit(token, game)  # its submission key still names it
    assert again.status_code == 200 and again.json()["id"] == old_id
    dispute = stack.post(f"/v1/runs/{old_id}/disputes", json={"reason": "Old, but fair?"}, headers=bearer(token))
    assert dispute.status_code == 201, dispute.text
    assert db.redis.xlen(keys.audit(old_id)) == 3 and not db.redis.hexists(keys.run(old_id), "log")
    hot = snapshot(stack, old_id)
    assert hot["audit"]["entries"][:2] == before["audit"]["entries"]

    archive_now(stack)
    assert not db.redis.exists(keys.run(old_id), keys.audit(old_id), keys.runs())
    assert snapshot(stack, old_id) == hot

    second = stack.post(f"/v1/runs/{old_id}/disputes", json={"reason": "Again."}, headers=bearer(token))
    assert second.status_code == 201, second.text  # brought back from the archive, in the new layout
    stored = db.redis.hgetall(keys.run(old_id))
    assert "log" in stored and "codes" in stored and not db.redis.exists(keys.audit(old_id))
    entries = stack.get(f"/v1/runs/{old_id}/audit-log").json()["entries"]
    assert entries[:3] == hot["audit"]["entries"]  # their stream ids too
    assert [entry["event"] for entry in entries] == ["submitted", "verified", "disputed", "disputed"]
    assert snapshot(stack, old_id)["run"] == hot["run"]

    time.sleep(0.01)
    archive_now(stack)  # and round again, from the new layout
    assert not db.redis.exists(keys.run(old_id))
    assert stack.get(f"/v1/runs/{old_id}/audit-log").json()["entries"] == entries


def test_a_verified_run_costs_a_few_hundred_bytes(stack, db):
    """The issue asks at most 600 bytes a run in all at a million runs (``bench/memory.py`` measures
    Redis' ``used_memory``, which a few hundred runs cannot: client buffers swing it by more). Here the
    keys a verified open run adds, on a seed of its own: its hash, its seed board, its share of its
    player's run list. A stream of two audit entries alone took 4.7 KB."""
    player, token = stack.register("hal")
    count = 300
    games = [{"seed": f"memory-{n}", "moves": games_by_score(f"memory-{n}", 1)[0]["moves"]} for n in range(count)]
    answer = stack.post("/v1/runs/batch", json={"runs": games}, headers=bearer(token)).json()
    assert answer["accepted"] == count
    deadline = time.monotonic() + 60
    while db.redis.zcard(keys.pending_runs()) and time.monotonic() < deadline:
        time.sleep(0.05)
    run_keys = [keys.run(result["run"]["id"]) for result in answer["results"]]
    assert [db.redis.hget(key, "status") for key in run_keys] == ["verified"] * count
    assert {db.redis.object("encoding", key) for key in run_keys} == {"listpack"}
    hashes = sum(db.redis.memory_usage(key, samples=0) for key in run_keys)
    boards = sum(db.redis.memory_usage(keys.seed_board("classic", game["seed"]), samples=0) for game in games)
    run_list = db.redis.memory_usage(keys.player_runs(player), samples=0)
    per_run = (hashes + boards + run_list) / count
    assert per_run < 600, (hashes / count, boards / count, run_list / count)
