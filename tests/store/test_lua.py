"""The Lua side of the store agrees with the Python side where both must know a thing.

Rank packing lives once in Python (``store/base/packing.py``) and once in Lua
(``store/lua/_rank.lua``); which verdict fields matter lives once in Python
(``store.runs.verdicts.verdict_summary``) and once in Lua (``snapshot`` in
``store/lua/_audit.lua``), and so does the audit log's encoding
(``store.runs.audit``, appended to by ``audit`` in ``_audit.lua``). These run the
Lua in a throwaway Redis and hold each pair equal; they also check the
``--#include`` loader.
"""

import json
import random

import pytest
import redis

from cli.redis_server import RedisServer
from store.base.packing import LADDER_OFFSET, LADDER_SPAN, LATEST_MS, SCORE_OFFSET, pack, pack_ladder
from store.lua import source
from store.runs.audit import SUBMITTED, decode_log
from store.runs.verdicts import verdict_summary
from tests.store.test_compact_runs import PENDING, SUBMITTED_MS, VERIFIED
from tests.store.test_compact_runs import entry as log_entry


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("lua"), persistent=False).start()
    connection = redis.Redis.from_url(server.url, decode_responses=True)
    yield connection
    connection.close()
    server.stop()


def _eval(client, fragment: str, body: str, keys=(), args=()):
    return client.eval(source(fragment) + body, len(keys), *keys, *args)


def test_lua_packs_the_rank_key_as_python_does(client):
    rng = random.Random(13)
    cases = [(-SCORE_OFFSET, 0), (SCORE_OFFSET - 1, LATEST_MS), (30, 1_795_966_213_791), (-221, 1)]
    cases += [(rng.randrange(-SCORE_OFFSET, SCORE_OFFSET), rng.randrange(0, LATEST_MS + 1)) for _ in range(200)]
    for score, ms in cases:
        packed, unpacked_score, unpacked_ms = _eval(
            client, "_rank", "return {pack_rank(tonumber(ARGV[1]), tonumber(ARGV[2])), "
                             "rank_score(pack_rank(tonumber(ARGV[1]), tonumber(ARGV[2]))), "
                             "rank_submitted_ms(pack_rank(tonumber(ARGV[1]), tonumber(ARGV[2])))}",
            args=(score, ms))
        assert (packed, unpacked_score, unpacked_ms) == (pack(score, ms), score, ms)


def test_lua_packs_the_ladder_key_as_python_does(client):
    rng = random.Random(17)
    latest_ms = (LADDER_SPAN - 1) * 1000
    cases = [(-LADDER_OFFSET, 0), (LADDER_OFFSET - 1, latest_ms), (600, 1_795_966_213_791), (-4420, 1)]
    cases += [(rng.randrange(-LADDER_OFFSET, LADDER_OFFSET), rng.randrange(0, latest_ms)) for _ in range(200)]
    for total, ms in cases:
        packed, unpacked = _eval(client, "_rank", "local packed = pack_ladder(tonumber(ARGV[1]), tonumber(ARGV[2])) "
                                                  "return {packed, ladder_total(packed)}", args=(total, ms))
        assert (packed, unpacked) == (pack_ladder(total, ms), total)


RUNS = {
    "verified": {"status": "verified", "outcome": "won", "score": "17", "health": "17", "error": ""},
    "lost": {"status": "verified", "outcome": "lost", "score": "-40", "health": "0", "error": ""},
    "rejected": {"status": "rejected", "outcome": "", "score": "", "health": "",
                 "error": json.dumps({"code": "weapon_not_usable", "move_index": 3})},
    "pending": {"status": "pending"},
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_lua_snapshot_and_verdict_summary_name_the_same_fields(client, name):
    fields = {"id": name, **RUNS[name]}
    client.delete(f"run:{name}")
    client.hset(f"run:{name}", mapping=fields)
    snapshot = json.loads(_eval(client, "_audit", "return cjson.encode(snapshot(KEYS[1]))", keys=[f"run:{name}"]))
    assert snapshot == verdict_summary(fields)


def test_a_void_run_shows_its_verdict_under_voided_status_in_both(client):
    fields = {"id": "void", **RUNS["verified"], "status": "void", "voided_status": "verified"}
    client.hset("run:void", mapping=fields)
    snapshot = json.loads(_eval(client, "_audit", "return cjson.encode(snapshot(KEYS[1]))", keys=["run:void"]))
    summary = verdict_summary(fields)
    assert snapshot.pop("voided_status") == summary["status"] == "verified"
    assert snapshot.pop("status") == "void"
    assert set(snapshot) == set(summary) - {"status"}
    assert all(snapshot[field] == summary[field] for field in snapshot)


def test_a_fragment_included_twice_is_inlined_once():
    text = source("resolve_dispute")  # includes _audit and _places, which includes _placement, then _rank
    assert "--#include" not in text
    for function in ("snapshot", "place", "put", "outranks", "pack_rank"):
        assert text.count(f"local function {function}(") == 1
    board = source("board_page")
    assert board.count("local function rank_score(") == 1 and "local function put(" not in board


def _audit(client, run_key: str, event: str, kind: str, actor: str, offset: int, before: dict, detail=None):
    """``audit`` of ``lua/_audit.lua``, the run's snapshot after the change as ``after``."""
    client.eval(source("_audit") + "audit(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], "
                "cjson.decode(ARGV[5]), snapshot(KEYS[1]), cjson.decode(ARGV[6]))", 1, run_key,
                event, kind, actor, SUBMITTED_MS + offset, json.dumps(before), json.dumps(detail or {"x": 1}))


def test_lua_appends_what_python_reads(client):
    """A run's life written by the Lua fragment every script uses reads back as the API showed it."""
    key = "run:lua"
    run = {"player": "ann", "submitted_ms": SUBMITTED_MS, "status": "pending"}
    client.hset(key, mapping={**run, "log": SUBMITTED})
    client.hset(key, mapping={"status": "verified", "outcome": "won", "score": 12, "health": 20})
    _audit(client, key, "verified", "worker", "0123456789ab", 31, PENDING)
    assert decode_log(client.hget(key, "log"), client.hgetall(key))[1]["after"] == VERIFIED
    _audit(client, key, "disputed", "player", "ann", 900, VERIFIED, {"dispute_id": "d1", "reason": "a,b\x1f"})
    client.hset(key, mapping={"status": "void", "voided_status": "verified"})
    _audit(client, key, "voided", "moderator", "mia", 1000, VERIFIED, {"note": "{}"})
    client.hset(key, mapping={"status": "verified", "error": json.dumps({"code": "bad_move"})})
    client.hdel(key, "voided_status")
    _audit(client, key, "restored", "moderator", "mia", 2000, {**VERIFIED, "status": "void",
                                                                "voided_status": "verified"})
    void = {**VERIFIED, "status": "void", "voided_status": "verified"}
    assert decode_log(client.hget(key, "log"), client.hgetall(key)) == [
        log_entry(0, "submitted", "player", "ann", 0, None, {"status": "pending"}),
        log_entry(1, "verified", "worker", "0123456789ab", 31, PENDING, VERIFIED, {"x": 1}),
        log_entry(2, "disputed", "player", "ann", 900, VERIFIED, VERIFIED,
                  {"dispute_id": "d1", "reason": "a,b\x1f"}),
        log_entry(3, "voided", "moderator", "mia", 1000, VERIFIED, void, {"note": "{}"}),
        log_entry(4, "restored", "moderator", "mia", 2000, void, {**VERIFIED, "error": "bad_move"}, {"x": 1}),
    ]
