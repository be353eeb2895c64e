"""Issue 11: a run's audit log and moves, kept compact in its hash, read back exactly.

``store.audit`` encodes an audit log (what the API shows) into the run
hash's ``log`` field and back; ``lua/_audit.lua`` appends entries in the
same encoding. These hold the round trip to every shape an entry can take,
and the Lua writer to what Python reads, in a throwaway Redis.
"""

import json

import pytest
import redis

from cli.redis_server import RedisServer
from store import move_codes
from store.audit import SUBMITTED, decode_log, encode_log, first_entry
from store.lua import source
from store.packing import iso_time

SUBMITTED_MS = 1_795_966_213_791
RUN = {"player": "ann", "submitted_ms": str(SUBMITTED_MS), "status": "verified", "outcome": "won", "score": "12",
       "health": "20", "error": ""}
VERIFIED = {"status": "verified", "outcome": "won", "score": 12, "health": 20, "error": None}
PENDING = {"status": "pending", "outcome": None, "score": None, "health": None, "error": None}


def entry(position: int, event: str, kind: str, name: str, offset: int, before, after, detail=None,
          entry_id: str | None = None) -> dict:
    at = SUBMITTED_MS + offset
    return {"id": entry_id or f"{at}-{position}", "event": event, "actor": {"kind": kind, "name": name},
            "at": iso_time(at), "before": before, "after": after, "detail": detail or {}}


def test_a_runs_whole_story_round_trips(tmp_path):
    void = {**VERIFIED, "status": "void", "voided_status": "verified"}
    entries = [
        entry(0, "submitted", "player", "ann", 0, None, {"status": "pending"}),
        entry(1, "verified", "worker", "0123456789ab", 31, PENDING, VERIFIED),
        entry(2, "disputed", "player", "ben", 900, VERIFIED, VERIFIED,
              {"dispute_id": "d1", "reason": 'Too good, "really"\x1e\x1f, ünïcode'}),
        entry(3, "voided", "moderator", "mia", 1000, VERIFIED, void, {"dispute_id": "d1", "note": "Checked."}),
        entry(4, "restored", "moderator", "mia", 2000, void, VERIFIED),
        entry(5, "reverified", "moderator", "mia", 3000, VERIFIED, VERIFIED, {"changed": False}),
    ]
    log = encode_log(entries, RUN)
    assert decode_log(log, RUN) == entries
    assert log.startswith(SUBMITTED + "\x1e")
    assert len(log) < 450  # six entries; a stream of them took several KB


@pytest.mark.parametrize("odd", [
    {"before": {"status": "pending"}, "after": {"anything": [1, 2]}},  # shapes a snapshot never has: JSON
    {"before": {**VERIFIED, "outcome": "a,b"}, "after": {**VERIFIED, "score": None, "health": 0}},
    {"before": {**VERIFIED, "status": ""}, "after": {**VERIFIED, "status": "null"}},
    {"before": None, "after": None},
    {"before": {"status": "void", "outcome": None, "score": None, "health": None, "error": None,
                "voided_status": None}, "after": {**VERIFIED, "error": "bad_move"}},
])
def test_odd_entries_round_trip_too(odd):
    """Entries brought back from the archive may come from any layout: whatever they hold reads back."""
    entries = [entry(0, "submitted", "player", "ann", 0, None, {"status": "pending"}),
               entry(1, "reverified", "system", "", -5, odd["before"], odd["after"], entry_id="1795966213000-7")]
    assert decode_log(encode_log(entries, RUN), RUN) == entries


def test_a_new_runs_log_is_one_byte():
    run = {"player": "ann", "submitted_ms": str(SUBMITTED_MS), "status": "pending"}
    assert first_entry(run) == SUBMITTED
    assert decode_log(SUBMITTED, run) == [entry(0, "submitted", "player", "ann", 0, None, {"status": "pending"})]


def test_moves_take_one_character_each():
    moves = ["flee", "D4", "C3w", "S14b", "H10", "C14w"]
    assert move_codes.decode(move_codes.encode(moves)) == moves
    assert len(move_codes.encode(moves)) == len(moves)
    assert all(" " < code <= "~" for code in move_codes.encode(list(move_codes.MOVE_CODES)))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("audit"), persistent=False).start()
    connection = redis.Redis.from_url(server.url, decode_responses=True)
    yield connection
    connection.close()
    server.stop()


def _audit(client, run_key: str, event: str, kind: str, actor: str, offset: int, before: dict, detail=None):
    """``audit`` of ``lua/_audit.lua``, the run's snapshot after the change as ``after``."""
    client.eval(source("_audit") + "audit(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], "
                "cjson.decode(ARGV[5]), snapshot(KEYS[1]), cjson.decode(ARGV[6]))", 2, run_key, run_key + ":stream",
                event, kind, actor, SUBMITTED_MS + offset, json.dumps(before), json.dumps(detail or {"x": 1}))


def test_lua_appends_what_python_reads(client):
    """A run's life written by the Lua fragment every script uses reads back as the API showed it."""
    key = "run:lua"
    client.hset(key, mapping={"player": "ann", "submitted_ms": SUBMITTED_MS, "status": "pending",
                              "log": first_entry({"player": "ann", "submitted_ms": SUBMITTED_MS, "status": "pending"})})
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
        entry(0, "submitted", "player", "ann", 0, None, {"status": "pending"}),
        entry(1, "verified", "worker", "0123456789ab", 31, PENDING, VERIFIED, {"x": 1}),
        entry(2, "disputed", "player", "ann", 900, VERIFIED, VERIFIED, {"dispute_id": "d1", "reason": "a,b\x1f"}),
        entry(3, "voided", "moderator", "mia", 1000, VERIFIED, void, {"note": "{}"}),
        entry(4, "restored", "moderator", "mia", 2000, void, {**VERIFIED, "error": "bad_move"}, {"x": 1}),
    ]
    assert not client.exists(key + ":stream")


def test_lua_appends_to_the_stream_of_a_run_stored_before(client):
    key = "run:old"
    client.hset(key, mapping={"id": "old", "player": "ann", "submitted_ms": SUBMITTED_MS, "status": "verified"})
    client.xadd(key + ":stream", {"event": "submitted"})
    _audit(client, key, "disputed", "player", "ann", 900, VERIFIED)
    assert client.xlen(key + ":stream") == 2 and not client.hexists(key, "log")
