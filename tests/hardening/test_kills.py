"""A process killed mid-work loses nothing: every acknowledged run is still verified once, with one
verdict in its audit log and one board place.

A worker killed or stopped (``slow_stack``): once a worker runs again, every affected run reaches a
final status within moments. Each job sleeps first (``Stack(job_delay=…)``, a test-only worker) so
the kill lands while a run is being verified; the sweeper re-queues what the dead worker held,
without waiting for RQ's own abandoned-job detection. A worker stopped (SIGSTOP) while it waits for
a job takes the next one from the queue into RQ's intermediate list and never starts it: the job
still says ``queued``, and only the sweeper's asking where it is rescues it.

The intake (``stack``, no job delay): a single submission is acknowledged with no job of its own and
waits in the intake until a worker's dispatcher queues a job for it with up to 99 others
(``store.queue.intake``). Here the API is killed while its runs wait there, and a dispatcher is
killed between reading the intake's head and taking it (``slow_worker``'s dispatch delay). A quiet
stack's runs reach their verdict well within the 200 ms the intake's window promises.
"""

import signal
import statistics
import time

import pytest
from prometheus_client.parser import text_string_to_metric_families
from rq import Worker
from rq.job import Job

from store import load_runs
from store.base import keys
from store.queue.intake import drain, entry_parts
from store.queue.pending import TRANSIT_SECONDS, jobs_of, oldest_pending, sweep
from store.queue.queues import verify_queue
from store.queue.workers import live_workers, roll_call
from tests.support.games import assert_verified_once, legal_games, scoundrel_check
from tests.support.stack import Stack
from tests.support.waiting import until

PENDING_TIMEOUT, SWEEP_INTERVAL, WORKER_TTL = 4.0, 0.5, 3
DISPATCH_DELAY = 3.0  # seconds the slow dispatcher holds the head it read

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def slow_stack(tmp_path_factory):
    """One worker whose every job sleeps 1.5 s first, and a sweeper quick to re-queue and unregister."""
    running = Stack(tmp_path_factory.mktemp("crash"), workers=1, job_delay=1.5, env={
        "SCOUNDREL_JOB_TIMEOUT": "3", "SCOUNDREL_PENDING_TIMEOUT": str(PENDING_TIMEOUT),
        "SCOUNDREL_SWEEP_INTERVAL": str(SWEEP_INTERVAL), "SCOUNDREL_WORKER_TTL": str(WORKER_TTL),
    }).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def slow_db(slow_stack):
    database = slow_stack.database()
    yield database
    database.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """The service's own settings, and no worker until a test starts one (``db``: its store)."""
    running = Stack(tmp_path_factory.mktemp("intake"), workers=0).start()
    yield running
    running.stop()


def _queued_at(db, run_id: str) -> float | None:
    """When the pending run was last queued (its score in the pending index)."""
    return db.redis.zscore(keys.pending_runs(), run_id)


def _metric(stack, name: str) -> float:
    return next(sample.value for family in text_string_to_metric_families(stack.get("/metrics").text)
                for sample in family.samples if sample.name == name and not sample.labels)


def _verdicts(stack) -> float:
    return sum(sample.value for family in text_string_to_metric_families(stack.get("/metrics").text)
               for sample in family.samples if sample.name == "scoundrel_verdicts_total")


def _only_worker(stack):
    alive = [worker for worker in stack.workers if worker.poll() is None]
    assert len(alive) == 1
    return alive[0]


def _registered(db) -> dict[int, str]:
    """pid → name of each worker RQ lists on the queue."""
    return {worker.pid: worker.name for worker in Worker.all(queue=verify_queue(db))}


def _wait_registered(db, worker) -> None:
    until(lambda: worker.pid in _registered(db), "the worker registered", 30)


def _stranded(stack, db, token, games) -> tuple[str, str]:
    """SIGSTOP the only worker while it waits and submit: ``(run id, job id)`` of a run whose job the
    stopped worker took into RQ's intermediate list (tried again if it was between two waits)."""
    worker = _only_worker(stack)
    for game in games:
        worker.send_signal(signal.SIGSTOP)
        run_id = stack.submit(token, game).json()["id"]
        drain(db)  # the stopped worker's dispatcher cannot: this test is one
        [job_id] = jobs_of(db, [run_id])
        time.sleep(0.2)
        if job_id in verify_queue(db).intermediate_queue.get_job_ids():
            return run_id, job_id
        worker.send_signal(signal.SIGCONT)
        stack.wait_final(run_id)
    raise AssertionError("the stopped worker never took a job")


def _verdict_entries(stack, run_id: str) -> int:
    log = stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
    return sum(entry["event"] in ("verified", "rejected", "error") for entry in log)


def _started_job(db, run_ids: list[str], timeout: float = 10.0) -> str:
    """The one job the runs name, once a worker has started it."""

    def started() -> str | None:
        named = jobs_of(db, run_ids)
        job_ids = set(named) - {None}  # a dispatcher takes the intake's head, then queues its job
        assert len(job_ids) <= 1, f"the runs went in {len(job_ids)} jobs"
        if None in named or not job_ids:
            return None
        [job_id] = job_ids
        if Job.exists(job_id, connection=db.queue_redis) and (  # named by the runs before it is queued
                Job.fetch(job_id, connection=db.queue_redis).get_status() == "started"):
            return job_id
        return None

    return until(started, "a worker started the runs' job", timeout)


def test_a_worker_killed_mid_batch_loses_no_run_and_verifies_each_once(slow_stack, slow_db):
    """Single submissions waiting in the intake together share a job; the worker is killed inside it:
    each run is re-queued alone and verified once, one verdict in its audit log, one board place.
    The only worker (and so the only dispatcher) is stopped while they are sent, so that however
    slowly they arrive, one pass of the dispatcher takes them all."""
    player, token = slow_stack.register()
    worker = _only_worker(slow_stack)
    worker.send_signal(signal.SIGSTOP)
    try:
        run_ids = [slow_stack.submit(token, game).json()["id"] for game in legal_games(3)]
    finally:
        worker.send_signal(signal.SIGCONT)
    _started_job(slow_db, run_ids)  # the worker is inside the shared job's delay now
    assert {slow_stack.get(f"/v1/runs/{run_id}").json()["status"] for run_id in run_ids} == {"pending"}
    slow_stack.kill_worker(0)
    restarted = time.monotonic()
    slow_stack.start_worker()
    runs = [slow_stack.wait_final(run_id) for run_id in run_ids]
    assert time.monotonic() - restarted < 30
    assert {run["status"] for run in runs} <= {"verified", "rejected"}
    assert all(run["status"] == "verified" for run in runs)
    time.sleep(1.6)  # any second run of a job would have landed
    assert [_verdict_entries(slow_stack, run_id) for run_id in run_ids] == [1, 1, 1]
    board = slow_stack.get("/v1/leaderboards/classic", params={"limit": 100}).json()["entries"]
    [place] = [entry["run_id"] for entry in board if entry["player"] == player]
    assert place in run_ids
    result = scoundrel_check(slow_stack, "--pending-limit", "60")
    assert result.returncode == 0, result.stderr


def test_the_sweeper_counts_its_requeues(slow_stack):
    assert _metric(slow_stack, "scoundrel_requeues_total") >= 1


def test_a_worker_killed_just_after_taking_a_job_strands_no_run(slow_stack, slow_db):
    """SIGSTOP the only worker, submit, SIGKILL it, start another: verified within the sweeper's
    interval (not RQ's ten minutes), its age shown honestly meanwhile, verified and placed once."""
    player, token = slow_stack.register()
    run_id, job_id = _stranded(slow_stack, slow_db, token, legal_games(8)[3:])
    verdicts = _verdicts(slow_stack)  # after any try of _stranded's that the worker did verify
    submitted = time.monotonic()
    assert Job.fetch(job_id, connection=slow_db.queue_redis).get_status() == "queued"  # the status that lies
    slow_stack.kill_worker(slow_stack.workers.index(_only_worker(slow_stack)))
    new_worker = slow_stack.start_worker()
    _wait_registered(slow_db, new_worker)  # the promise counts from a worker running
    running = time.monotonic()

    time.sleep(max(0.0, PENDING_TIMEOUT - 1 - (time.monotonic() - submitted)))
    assert slow_stack.get(f"/v1/runs/{run_id}").json()["status"] == "pending"
    assert _metric(slow_stack, "scoundrel_oldest_pending_seconds") >= time.monotonic() - submitted - 0.5

    run = slow_stack.wait_final(run_id)
    assert run["status"] == "verified"
    # pending_timeout after its submission, or a sweep interval after a worker runs, whichever is later;
    # then its transit, the job's delay, and slack
    promised = max(submitted + PENDING_TIMEOUT, running) + 2 * SWEEP_INTERVAL + TRANSIT_SECONDS + 1.5 + 2
    assert time.monotonic() < promised
    assert job_id not in verify_queue(slow_db).intermediate_queue.get_job_ids()
    time.sleep(2)  # any second run of the job would have landed
    log = slow_stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
    assert [entry["event"] for entry in log].count("verified") == 1
    assert _verdicts(slow_stack) == verdicts + 1
    board = slow_stack.get("/v1/leaderboards/classic", params={"limit": 100}).json()["entries"]
    assert [entry["run_id"] for entry in board if entry["player"] == player] == [run_id]


def test_a_backlog_keeps_its_age_and_a_taken_job_is_requeued_after_its_transit(slow_stack, slow_db):
    """The sweeper itself, run by hand while the only worker is stopped: a job waiting in the queue is
    left alone with its time unchanged; one the stopped worker took is re-queued, once."""
    _, token = slow_stack.register()
    taken_run, taken_job = _stranded(slow_stack, slow_db, token, legal_games(14)[8:])
    waiting_run = slow_stack.submit(token, legal_games(15)[14]).json()["id"]
    queued_at = {run_id: _queued_at(slow_db, run_id) for run_id in (taken_run, waiting_run)}
    until(lambda: not slow_db.redis.exists(keys.sweep_lock()), "the lock of a sweep stopped midway lapsing", 15)
    try:
        assert sweep(slow_db, 0, WORKER_TTL) == 0  # the taken job was seen in transit just now
        assert sweep(slow_db, 0, WORKER_TTL) == 0
        assert {run_id: _queued_at(slow_db, run_id) for run_id in queued_at} == queued_at
        assert oldest_pending(slow_db) == (taken_run, int(queued_at[taken_run]))
        time.sleep(TRANSIT_SECONDS + 0.1)
        assert sweep(slow_db, 0, WORKER_TTL) == 1
        assert slow_db.redis.zscore(keys.pending_runs(), waiting_run) == queued_at[waiting_run]
        assert jobs_of(slow_db, [taken_run]) != [taken_job]
        assert not Job.exists(taken_job, connection=slow_db.queue_redis)
        assert sweep(slow_db, 0, WORKER_TTL) == 0  # in the queue now: a backlog
    finally:
        slow_stack.kill_worker(slow_stack.workers.index(_only_worker(slow_stack)))
        slow_stack.start_worker()
    assert slow_stack.wait_final(taken_run)["status"] == "verified"
    assert slow_stack.wait_final(waiting_run)["status"] == "verified"


def test_a_killed_worker_leaves_rqs_registry(slow_stack, slow_db):
    """RQ alone keeps a SIGKILLed worker listed until its key expires, minutes later; the sweeper
    unregisters it once it has been silent for SCOUNDREL_WORKER_TTL seconds."""
    doomed = slow_stack.start_worker()
    _wait_registered(slow_db, doomed)
    name = _registered(slow_db)[doomed.pid]
    survivor = next(pid for pid in _registered(slow_db) if pid != doomed.pid)
    slow_stack.kill_worker(slow_stack.workers.index(doomed))
    killed = time.monotonic()
    assert name in _registered(slow_db).values()  # nothing has judged it yet
    until(lambda: name not in _registered(slow_db).values(), "the dead worker unregistered",
          WORKER_TTL + 2 * SWEEP_INTERVAL + 2 - (time.monotonic() - killed))
    assert name not in {worker.name for worker in Worker.all(connection=slow_db.queue_redis)}  # rq:workers, all queues
    assert survivor in _registered(slow_db)
    assert _metric(slow_stack, "scoundrel_workers") == 1


def test_reading_the_worker_registry_keeps_the_stores_timeouts(slow_stack):
    """RQ's Worker lengthens its connection's socket timeout to minutes; the sweeper and /metrics read
    the registry over the store's own connection, whose requests must still give up in seconds."""
    db = slow_stack.database()
    try:
        assert live_workers(db, WORKER_TTL) == 1 and len(roll_call(db, WORKER_TTL)) == 1
        # RQ reads the registry on the queues' Redis; on one Redis that is the data's connection too
        for client in (db.queue_redis, db.raw, db.redis):
            assert client.connection_pool.connection_kwargs["socket_timeout"] == 0.75
    finally:
        db.close()


def _waiting(db) -> list[str]:
    return [entry_parts(entry)[0] for entry in db.redis.lrange(keys.intake(), 0, -1)]


def _only_worker_killed(stack) -> None:
    for index, worker in enumerate(stack.workers):
        if worker.poll() is None:
            stack.kill_worker(index)


def _verified_once(stack, db, player: str, run_ids: list[str]) -> None:
    """Every run verified, one verdict in its audit log, one board place each (one seed board a run)."""
    until(lambda: all(run.status != "pending" for run in load_runs(db, run_ids)), "the runs verified", 20)
    time.sleep(0.3)  # any second verification would have landed
    assert_verified_once(db, run_ids)
    board = stack.get("/v1/leaderboards/classic", params={"limit": 100}).json()["entries"]
    assert [entry["run_id"] for entry in board if entry["player"] == player] in ([run_id] for run_id in run_ids)
    assert not _waiting(db) and not verify_queue(db).count


def test_runs_acknowledged_by_an_api_killed_before_their_job_are_verified(stack, db):
    player, token = stack.register()
    responses = [stack.submit(token, game) for game in legal_games(4)]
    assert [response.status_code for response in responses] == [202] * 4
    run_ids = [response.json()["id"] for response in responses]
    assert _waiting(db)[-4:] == run_ids  # stored and acknowledged; no job yet
    assert jobs_of(db, run_ids) == [None] * len(run_ids)
    stack.kill_api()
    stack.start_worker()
    stack.start_api()
    stack.wait_healthy()
    _verified_once(stack, db, player, run_ids)


def test_a_dispatcher_killed_between_reading_and_taking_loses_nothing(stack, db):
    _only_worker_killed(stack)
    slow = stack.start_worker(dispatch_delay=DISPATCH_DELAY)
    _wait_registered(db, slow)
    player, token = stack.register()
    run_ids = [stack.submit(token, game).json()["id"] for game in legal_games(9)[4:]]
    time.sleep(0.5)  # past the window: the slow dispatcher holds the head it read
    assert _waiting(db)[-5:] == run_ids
    stack.kill_worker(stack.workers.index(slow))
    assert _waiting(db)[-5:] == run_ids and jobs_of(db, run_ids) == [None] * len(run_ids)
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
