"""The public log across a Sentinel failover: the primary SIGKILLed between two checkpoints, the log goes on
from the promoted replica, and the checkpoint after is consistent with the one before (RFC 9162's
verification, ``tests.log.rfc9162``). Leaves reach the archive, so a checkpoint, only once the replica
holds them (``SCOUNDREL_WAIT_REPLICAS=1``): the log cannot fork."""

import pytest

from domain.transparency import parse_checkpoint
from store import Database, Submission, accept_runs, load_runs, record_verdicts
from store.base.service_mark import mark_service
from store.log import archived_size, open_note, prove_consistency, publish, resume_log
from store.log.notes import Signer
from store.queue.queues import verify_queue
from tests.log import rfc9162
from tests.support.games import legal_games
from tests.support.sentinel import SentinelSetup
from tests.support.stack import NO_REDIS_URL
from verification import judge
from worker.registry import JOBS

pytestmark = pytest.mark.slow  # three sentinels, two Redis servers and a failover


def _verdicts(db: Database, player: str, games) -> None:
    accepted = accept_runs(db, player, [Submission(g["seed"], g["variant"], g["moves"]) for g in games],
                           runs_per_job=1000)
    db.raw.delete(verify_queue(db).key)  # judged right here
    runs = [run for run in load_runs(db, [run.id for run, _ in accepted]) if run]
    assert all(record_verdicts(db, [(run, judge(run)) for run in runs]))


def test_checkpoints_before_and_after_a_failover_are_consistent(tmp_path):
    setup = SentinelSetup(tmp_path / "sentinel").start()
    db = Database(NO_REDIS_URL, JOBS, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3", wait_replicas=1,
                  sentinels=setup.endpoints, sentinel_master=setup.master_name, socket_timeout=2.0)
    signer = Signer.generate("referee.test/log")
    try:
        db.archive.upgrade()
        mark_service(db)
        setup.wait_ready_to_fail_over()
        games = legal_games(30)
        _verdicts(db, "ann", games[:10])
        before = parse_checkpoint(open_note(_signed(db, signer), signer.verifier))
        _verdicts(db, "bob", games[10:20])  # acknowledged: the replica holds their leaves
        lost = setup.kill_primary()
        setup.wait_promotion(lost)
        setup.rejoin(lost)
        assert resume_log(db) == 20  # the promoted replica kept the log's state: nothing to give back
        _verdicts(db, "cy", games[20:])
        after = parse_checkpoint(open_note(_signed(db, signer), signer.verifier))
        assert (before.size, after.size, archived_size(db)) == (10, 30, 30)
        proof = prove_consistency(db, before.size, after.size)
        assert rfc9162.verify_consistency(before.size, after.size, before.root, after.root, proof)
    finally:
        db.close()
        setup.stop()


def _signed(db: Database, signer: Signer) -> str:
    """The note of the checkpoint the worker's step signs now."""
    from store.log import latest_checkpoint

    assert publish(db, signer) is not None
    return latest_checkpoint(db)[1]
