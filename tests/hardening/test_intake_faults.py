"""The intake loses nothing and verifies nothing twice, wherever a process dies.

A single submission is acknowledged with no job of its own: it waits in the
intake until a worker's dispatcher queues a job for it with up to 99 others
(``store.queue.intake``). Here the API is killed while its runs wait there, and a
dispatcher is killed between reading the intake's head and taking it
(``slow_worker``'s dispatch delay): every acknowledged run is still verified
once, with one verdict in its audit log and one board place. (A worker
killed inside a shared job: ``test_worker_crash``.) A quiet stack's runs
reach their verdict well within the 200 ms the intake's window promises.
"""

import statistics
import time

import pytest
from rq import Worker

from store import load_runs
from store.base import keys
from store.queue.intake import IN_INTAKE
from store.queue.queues import verify_queue
from tests.support.games import legal_games
from tests.support.stack import Stack

pytestmark = pytest.mark.slow

DISPATCH_DELAY = 3.0  # seconds the slow dispatcher holds the head it read


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("intake"), workers=0).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def db(stack):
    database = stack.database()
    yield database
    database.close()


def _waiting(db) -> list[str]:
    return db.redis.lrange(keys.intake(), 0, -1)


def _registered(db, worker) -> None:
    deadline = time.monotonic() + 20
    while worker.pid not in {registered.pid for registered in Worker.all(queue=verify_queue(db))}:
        assert time.monotonic() < deadline, "the worker never registered"
        time.sleep(0.05)


def _only_worker_killed(stack) -> None:
    for index, worker in enumerate(stack.workers):
        if worker.poll() is None:
            stack.kill_worker(index)


def _verified_once(stack, db, player: str, run_ids: list[str]) -> None:
    """Every run verified, one verdict in its audit log, one board place each (one seed board a run)."""
    deadline = time.monotonic() + 20
    while any(run.status == "pending" for run in load_runs(db, run_ids)):
        assert time.monotonic() < deadline, "runs still pending"
        time.sleep(0.05)
    time.sleep(0.3)  # any second verification would have landed
    for run_id in run_ids:
        assert stack.get(f"/v1/runs/{run_id}").json()["status"] == "verified"
        log = stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
        assert [entry["event"] for entry in log].count("verified") == 1
    board = stack.get("/v1/leaderboards/classic", params={"limit": 100}).json()["entries"]
    assert [entry["run_id"] for entry in board if entry["player"] == player] in ([run_id] for run_id in run_ids)
    assert not _waiting(db) and not verify_queue(db).count


def test_runs_acknowledged_by_an_api_killed_before_their_job_are_verified(stack, db):
    player, token = stack.register()
    responses = [stack.submit(token, game) for game in legal_games(4)]
    assert [response.status_code for response in responses] == [202] * 4
    run_ids = [response.json()["id"] for response in responses]
    assert _waiting(db)[-4:] == run_ids  # stored and acknowledged; no job yet
    assert {run.job for run in load_runs(db, run_ids)} == {IN_INTAKE}
    stack.kill_api()
    stack.start_worker()
    stack.start_api()
    stack.wait_healthy()
    _verified_once(stack, db, player, run_ids)


def test_a_dispatcher_killed_between_reading_and_taking_loses_nothing(stack, db):
    _only_worker_killed(stack)
    slow = stack.start_worker(dispatch_delay=DISPATCH_DELAY)
    _registered(db, slow)
    player, token = stack.register()
    run_ids = [stack.submit(token, game).json()["id"] for game in legal_games(9)[4:]]
    time.sleep(0.5)  # past the window: the slow dispatcher holds the head it read
    assert _waiting(db)[-5:] == run_ids
    stack.kill_worker(stack.workers.index(slow))
    assert _waiting(db)[-5:] == run_ids and {run.job for run in load_runs(db, run_ids)} == {IN_INTAKE}
    stack.start_worker()
    _verified_once(stack, db, player, run_ids)


def test_a_quiet_stacks_runs_reach_their_verdict_within_the_window(stack, db):
    """Server times, submission to verdict: the window (50 ms) and one job's work; the bench has the figures."""
    _, token = stack.register()
    run_ids = []
    for game in legal_games(20)[9:]:
        run_ids.append(stack.submit(token, game).json()["id"])
        time.sleep(0.02)
    deadline = time.monotonic() + 10
    while any(run.status == "pending" for run in load_runs(db, run_ids)):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    waits = [run.verified_ms - run.submitted_ms for run in load_runs(db, run_ids)]
    assert statistics.median(waits) < 200 and max(waits) < 1000, waits
