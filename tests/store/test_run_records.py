"""A run's stored form, one conversion each way losing nothing the hash says, and its API view."""

import json

from domain.run import DEALT, Run
from schemas.runs import RunSchema
from store.runs import move_codes
from store.runs.audit import SUBMITTED
from store.runs.records import BOARD_FIELDS, run_from_stored, stored_fields

MOVES = ["H4", "S5b", "flee", "D7", "C3w"]
DEALT_HASH = {
    "player": "ada", "seed": "f00d", "variant": "classic", "codes": move_codes.encode(MOVES), "status": "rejected",
    "submitted_ms": "1700000000000", "origin": DEALT, "game_id": "g1", "challenge": "daily", "date": "2026-03-01",
    "forfeit": "1", "dealt_ms": "1699999990000", "move_gaps": "400 250", "outcome": "lost", "score": "-7",
    "health": "0", "error": '{"code": "illegal_move", "move_index": 2, "message": "Move 3: no", "ruling": "R7"}',
    "ruleset": "scoundrel-1", "engine": "e1", "verified_ms": "1700000000500", "voided_status": "verified",
    "reverified_ms": "1700000000900", "reinstated_ms": "1700000001000", "requeues": "2",
    "season": "2023-11",
}


def test_every_field_of_a_stored_run_comes_back_as_it_was_stored():
    run = run_from_stored("r1", DEALT_HASH)
    assert run.moves == tuple(MOVES) and run.error == {"code": "illegal_move", "move_index": 2,
                                                         "message": "Move 3: no", "ruling": "R7"}
    assert (run.score, run.health, run.forfeit, run.dealt_ms, run.requeues) == (-7, 0, True, 1699999990000, 2)
    assert stored_fields(run) == DEALT_HASH


def test_an_open_run_stores_no_origin_and_no_empty_field():
    run = Run("r2", "bo", "easy", "abc", "pending", None, 1700000000000, moves=("flee",), request_id="q", job="j")
    assert stored_fields(run) == {"player": "bo", "seed": "abc", "variant": "easy",
                                  "codes": move_codes.encode(["flee"]), "status": "pending",
                                  "submitted_ms": "1700000000000", "request_id": "q", "job": "j"}
    assert run_from_stored("r2", stored_fields(run)) == run


def test_the_verdict_time_is_the_logs_last_verdict_without_a_stored_one():
    log = "\x1e".join([SUBMITTED, "\x1f".join(["verified", "worker", "w1", "40", "", "verified,won,12,3"])])
    fields = {"player": "ada", "variant": "easy", "seed": "abc", "status": "verified", "submitted_ms": "1000",
              "log": log}
    assert run_from_stored("r3", fields).verified_ms == 1040
    assert run_from_stored("r3", {name: fields[name] for name in BOARD_FIELDS if name in fields}).verified_ms is None


def test_the_api_shows_a_stored_run_with_every_key_in_order_and_its_times_in_iso():
    shown = RunSchema().dump(run_from_stored("r1", DEALT_HASH))
    assert json.dumps(shown) == json.dumps({
        "id": "r1", "player": "ada", "seed": "f00d", "variant": "classic", "moves": MOVES, "status": "rejected",
        "submitted_at": "2023-11-14T22:13:20.000Z", "verified_at": "2023-11-14T22:13:20.500Z", "outcome": "lost",
        "score": -7, "health": 0,
        "error": {"code": "illegal_move", "move_index": 2, "message": "Move 3: no", "ruling": "R7"},
        "ruleset": "scoundrel-1", "engine": "e1", "origin": "dealt", "game_id": "g1", "challenge": "daily",
        "date": "2026-03-01", "forfeit": True, "season": "2023-11", "tournament": None, "deal": None,
    })
    pending = RunSchema().dump(Run("r2", "bo", "easy", "abc", "pending", None, 0))
    assert [name for name, value in pending.items() if value is None] == [
        "verified_at", "outcome", "score", "health", "error", "ruleset", "engine", "game_id", "challenge", "date",
        "season", "tournament", "deal"]
    assert (pending["moves"], pending["origin"], pending["forfeit"]) == ([], "open", False)
