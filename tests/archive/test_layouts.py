"""A run is one compact hash, a few hundred bytes, and a game sent again is the run it made.

A run is one compact hash: its moves one byte each, its audit log a
field, no id, no empty field, no submission index (its id comes from its
player and game). A game sent again is the run it made, in Redis or
archived. (A Redis of an older layout: ``test_layout_migration``.)
"""


from store.base import keys
from store.runs import move_codes
from store.runs.accepting import fingerprint
from tests.audit.conftest import bearer, submit_final
from tests.support.games import games_by_score

from .conftest import archive_now


def test_a_new_run_is_one_compact_hash(stack, db):
    _, token = stack.register("eve")
    game = games_by_score("layout-1", 1)[0]
    run = submit_final(stack, token, game)
    stored = db.redis.hgetall(keys.run(run["id"]))
    assert move_codes.decode(stored.pop("codes")) == game["moves"]
    assert not {"id", "moves", "job", "request_id", "daily", "error"} & set(stored)
    assert "" not in stored.values()
    assert db.redis.object("encoding", keys.run(run["id"])) == "listpack"
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


def test_a_verified_run_costs_a_few_hundred_bytes(stack, db):
    """At most 600 bytes a run in all at a million runs (``bench/memory.py`` measures
    Redis' ``used_memory``, which a few hundred runs cannot: client buffers swing it by more). Here the
    keys a verified open run adds, on a seed of its own: its hash, its seed board, its share of its
    player's run list. A stream of two audit entries alone would take 4.7 KB."""
    player, token = stack.register("hal")
    count = 300
    games = [{"seed": f"memory-{n}", "moves": games_by_score(f"memory-{n}", 1)[0]["moves"]} for n in range(count)]
    answer = stack.post("/v1/runs/batch", json={"runs": games}, headers=bearer(token)).json()
    assert answer["accepted"] == count
    stack.until(lambda: not db.redis.zcard(keys.pending_runs()), "the batch's verdicts")
    run_keys = [keys.run(result["run"]["id"]) for result in answer["results"]]
    assert [db.redis.hget(key, "status") for key in run_keys] == ["verified"] * count
    assert {db.redis.object("encoding", key) for key in run_keys} == {"listpack"}
    hashes = sum(db.redis.memory_usage(key, samples=0) for key in run_keys)
    boards = sum(db.redis.memory_usage(keys.board_places("seed", ("classic", game["seed"])), samples=0)
                 for game in games)
    run_list = db.redis.memory_usage(keys.player_runs(player), samples=0)
    per_run = (hashes + boards + run_list) / count
    assert per_run < 600, (hashes / count, boards / count, run_list / count)
