"""``SCOUNDREL_WAIT_REPLICAS``: a new run is acknowledged only once that many replicas hold it, and so
is a verdict with its board places (``store.base.replicas``). With a replica, the replica has the run the
moment ``accept_runs`` answers; without one, acceptance raises ``NotReplicated`` (the API's 503), the
run kept for a retry to find."""

import os
import signal
import time

import pytest
import redis

from cli.redis_server import RedisServer
from store import Database
from store.base import keys
from store.base.errors import NotReplicated
from store.boards.placements import placements
from store.runs.accepting import Submission, accept_runs
from store.runs.archived_filter import make_whole
from store.runs.records import load_runs
from store.runs.verdicts import record_verdicts
from tests.support.games import legal_games
from worker.registry import JOBS


def _database(url: str, wait: int) -> Database:
    database = Database(url, JOBS, wait_replicas=wait)
    database.archive.upgrade()  # an empty archive (SQLite in memory)
    make_whole(database)  # as every process does when it starts: no submission asks the archive
    return database


def _submission(number: int) -> Submission:
    game = legal_games(number + 1)[number]
    return Submission(game["seed"], game["variant"], list(game["moves"]))


@pytest.fixture(scope="module")
def master_and_replica(tmp_path_factory):
    root = tmp_path_factory.mktemp("replication")
    master = RedisServer(root / "master", persistent=False).start()
    replica = RedisServer(root / "replica", persistent=False).start()
    # the master's first full sync starts at once, not after Redis's default 5 s wait for more replicas to join it
    redis.Redis(port=master.port).config_set("repl-diskless-sync-delay", 0)
    redis.Redis(port=replica.port).replicaof("127.0.0.1", master.port)
    deadline = time.monotonic() + 10
    while redis.Redis(port=replica.port).info("replication")["master_link_status"] != "up":
        assert time.monotonic() < deadline, "the replica did not sync"
        time.sleep(0.05)
    yield master, replica
    replica.stop()
    master.stop()


def test_a_run_acknowledged_is_on_the_replica_already(master_and_replica):
    master, replica = master_and_replica
    db = _database(master.url, wait=1)
    try:
        [(run, created)] = accept_runs(db, "ada", [_submission(0)])
        assert created
        assert redis.Redis(port=replica.port).exists(keys.run(run.id))
    finally:
        db.close()


def test_a_verdict_is_answered_only_once_the_replica_holds_it_with_its_board_places(master_and_replica):
    """With the replica stalled the verdict is not acknowledged (the job fails, and is retried: a
    verdict written is not written twice); once it answers, the replica holds the places."""
    master, replica = master_and_replica
    db = _database(master.url, wait=1)
    verified = {"status": "verified", "outcome": "won", "score": 7, "health": 7, "ruleset": "r", "engine": "e"}
    try:
        [(run, _)] = accept_runs(db, "bea", [_submission(9)])
        [stored] = load_runs(db, [run.id])
        os.kill(replica.process.pid, signal.SIGSTOP)  # the replica stalls: it acknowledges nothing
        try:
            with pytest.raises(NotReplicated):
                record_verdicts(db, [(stored, verified)])
        finally:
            os.kill(replica.process.pid, signal.SIGCONT)
        assert record_verdicts(db, [(stored, verified)]) == [False]  # the retry: written already, and kept
        board = placements(stored)[0]
        assert redis.Redis(port=replica.port, decode_responses=True).zscore(board.keys[0], "bea") is not None
    finally:
        db.close()


def test_without_the_replicas_asked_for_a_run_is_not_acknowledged_but_kept(tmp_path):
    alone = RedisServer(tmp_path / "alone", persistent=False).start()
    db = _database(alone.url, wait=1)
    try:
        with pytest.raises(NotReplicated):
            accept_runs(db, "ada", [_submission(1)])
        db.wait_replicas = 0  # the client tries again: the run kept is the one it gets
        [(run, created)] = accept_runs(db, "ada", [_submission(1)])
        assert not created and run.status == "pending"
    finally:
        db.close()
        alone.stop()
