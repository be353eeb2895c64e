"""Issue 11: a run's audit log and moves, kept compact in its hash, read back exactly.

``store.runs.audit`` encodes an audit log (what the API shows) into the run
hash's ``log`` field and back; ``lua/_audit.lua`` appends entries in the
same encoding. These hold the round trip to every shape an entry can take,
and ``tests/store/test_lua.py`` the Lua writer to what Python reads.
"""

import pytest

from store.base.packing import iso_time
from store.runs import move_codes
from store.runs.audit import SUBMITTED, decode_log, encode_log

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
    {"before": [1, "a,b"], "after": "verified,won"},
    {"before": {"status": "=x"}, "after": {**VERIFIED, "outcome": "=won"}},
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
    submitted = [entry(0, "submitted", "player", "ann", 0, None, {"status": "pending"})]
    assert encode_log(submitted, run) == SUBMITTED
    assert decode_log(SUBMITTED, run) == submitted


def test_moves_take_one_character_each():
    moves = ["flee", "D4", "C3w", "S14b", "H10", "C14w"]
    assert move_codes.decode(move_codes.encode(moves)) == moves
    assert len(move_codes.encode(moves)) == len(moves)
    assert all(" " < code <= "~" for code in move_codes.encode(list(move_codes.MOVE_CODES)))
