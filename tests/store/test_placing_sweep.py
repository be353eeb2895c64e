"""The workers' periodic pass finishes the board steps a crash left owed (``store.placing.finish_placements``).

The verdict step (or a void's run step) is written alone, as by a process
killed just after it; the stack's own worker, sweeping every 0.3 s with a
one-second grace, must then bring the boards to what ``scoundrel check``
expects, with nobody calling anything.
"""

import secrets
import time

import pytest

from store import keys, scripts, shards
from store.consistency import check
from store.placements import placements
from store.runs import now_ms, write_verdicts

from .test_placing import pending_run, verdict

pytestmark = pytest.mark.cluster_too


@pytest.fixture(scope="module")
def stack(stack_pool, data_store):
    running = stack_pool.take(env={"SCOUNDREL_PENDING_TIMEOUT": "1", "SCOUNDREL_SWEEP_INTERVAL": "0.3"},
                              cluster=data_store)
    yield running
    stack_pool.give_back(running)


def settled(db, run_ids: list[str], timeout: float = 20.0) -> list[str]:
    """``scoundrel check``'s problems once no run of ``run_ids`` is owed its board steps any more."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        owed = [run_id for run_id in run_ids
                if db.redis.zscore(keys.placing(shards.of_id(run_id)), run_id) is not None
                or db.redis.zscore(keys.replacing(shards.of_id(run_id)), run_id) is not None]
        if not owed:
            return check(db, pending_limit_seconds=3600)
        time.sleep(0.2)
    raise AssertionError(f"still owed their board steps: {owed}")


def test_the_workers_pass_places_a_verdict_left_alone(db):
    player = f"s{secrets.token_hex(3)}"
    runs = [pending_run(db, player, score, dealt=True, at_ms=now_ms() + score) for score in (3, 8)]
    write_verdicts(db, [(run, verdict(run.submitted_ms % 10)) for run in runs])  # the verdict step alone
    assert settled(db, [run.id for run in runs]) == []
    ladder = next(board for board in placements(runs[0]) if board.board.board.kind == "ladder")
    assert db.redis.hget(ladder.keys[2], player) == "2"


def test_the_workers_pass_recomputes_after_a_void_left_alone(db):
    player = f"t{secrets.token_hex(3)}"
    kept = pending_run(db, player, 2)
    voided = pending_run(db, player, 9, at_ms=now_ms() + 5)
    write_verdicts(db, [(kept, verdict(2)), (voided, verdict(9))])
    assert settled(db, [kept.id, voided.id]) == []
    board = placements(kept)[0]
    assert db.redis.hget(board.keys[1], player) == voided.id
    assert scripts.resolve_dispute(db.redis, run_id=voided.id, dispute_id=secrets.token_hex(8), moderator="mia",
                                   decision="void", note="", at_ms=now_ms()) == "voided"  # its recompute owed
    assert settled(db, [voided.id]) == []
    assert db.redis.hget(board.keys[1], player) == kept.id
