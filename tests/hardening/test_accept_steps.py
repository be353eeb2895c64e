"""Accepting a submission is three steps in two shards, and its jobs are queued on another Redis
(``store.runs``, ``store.intake``): stopped between any two, nothing acknowledged is lost.

Each test runs the store's steps itself, stopping where a killed process
would have stopped, then lets what comes after (the same submission again,
the verification job, the sweeper) finish the work. No worker runs here:
the queue keeps what was queued, to be looked at.
"""

import hashlib
import threading
import time

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.suspension import resume, suspend

import worker.jobs
from domain.errors import IdempotencyConflict
from store import Submission, accept_runs, intake, keys, load_run, load_runs, pending, shards
from store.errors import TokenRevoked
from store.intake import IN_INTAKE, dispatch, dispatch_forever, drain, intake_depth, wait_for_runs
from store.pending import sweep
from store.runs import _claim, _create, _prepare, now_ms

pytestmark = pytest.mark.cluster_too

WORKER_TTL = 30


@pytest.fixture(scope="module")
def stack(stack_pool, data_store):
    running = stack_pool.take(workers=0, cluster=data_store)
    yield running
    stack_pool.give_back(running)


def a_player(db, name: str) -> str:
    """A player as ``store.tokens`` keeps one (the token's hash in their own hash); the token's hash."""
    token_hash = hashlib.sha256(name.encode()).hexdigest()
    db.redis.hset(keys.player(name), mapping={"name": name, "token_hash": token_hash, "created_ms": 1})
    return token_hash


def a_game(label: str, idempotency_key: str = "") -> Submission:
    return Submission(f"steps-{label}", "classic", ["flee"], idempotency_key=idempotency_key)


def queued_run_ids(db) -> list[str]:
    return [run_id for job in Queue("verify", connection=db.queue_redis).get_jobs() for run_id in job.args]


def indexed(db, player: str, run_id: str) -> bool:
    return db.redis.zscore(keys.player_runs(player), run_id) is not None


def queued_alone_or_shared(db, run_ids: list[str]) -> None:
    """Each run names a job the queue holds, and that job carries it."""
    for run in load_runs(db, run_ids):
        job = Job.fetch(run.job, connection=db.queue_redis)
        assert run.id in job.args and job.get_status() == "queued"


def all_queued(db, run_ids: list[str]) -> bool:
    """Whether every run names a job and the queue holds each of those jobs."""
    jobs = {run.job for run in load_runs(db, run_ids)}
    return IN_INTAKE not in jobs and all(Job.exists(job, connection=db.queue_redis) for job in jobs)


def queue_away(*args, **kwargs):
    """``enqueue_verification`` while the queue's Redis is away."""
    raise redis.ConnectionError("the queue's Redis is away")


def accepted_without_jobs(db, monkeypatch, player: str, label: str, count: int) -> list[str]:
    """The ids of ``count`` new games accepted as a batch (two runs a job) whose jobs never reached the queue."""
    monkeypatch.setattr(db, "enqueue_verification", queue_away)
    outcomes = accept_runs(db, player, [a_game(f"{label}{n}") for n in range(count)], runs_per_job=2)
    monkeypatch.undo()
    return [run.id for run, created in outcomes if created]


def test_a_submission_is_stored_in_its_runs_shard_and_indexed_in_its_players(db):
    token_hash = a_player(db, "steps_ada")
    db.redis.delete(keys.intake_doorbell())
    drain(db)
    [(run, created)] = accept_runs(db, "steps_ada", [a_game("a1")], token_hash=token_hash)
    shard = shards.of_id(run.id)
    assert created and load_run(db, run.id).job == IN_INTAKE
    assert db.redis.zscore(keys.pending_runs(shard), run.id) is not None
    assert db.redis.lrange(keys.intake(shard), 0, -1) == [run.id]
    assert indexed(db, "steps_ada", run.id)
    assert db.redis.zscore(keys.run_players(shards.of_name("steps_ada")), "steps_ada") == run.submitted_ms
    assert db.redis.llen(keys.intake_doorbell()) == 1  # the first in its shard's intake rings
    assert accept_runs(db, "steps_ada", [a_game("a1")], token_hash=token_hash) == [(load_run(db, run.id), False)]
    assert db.redis.lrange(keys.intake(shard), 0, -1) == [run.id]


def test_a_revoked_token_or_an_idempotency_conflict_stores_nothing(db):
    a_player(db, "steps_bea")
    game = a_game("b1", idempotency_key="bea-key")
    run_id = _prepare("steps_bea", game, 0, IN_INTAKE, "").run.id
    with pytest.raises(TokenRevoked):
        accept_runs(db, "steps_bea", [game], token_hash="not-her-token")
    assert not db.redis.exists(keys.run(run_id), keys.idempotency("steps_bea", "bea-key"))
    accept_runs(db, "steps_bea", [game])
    other = a_game("b2", idempotency_key="bea-key")
    with pytest.raises(IdempotencyConflict):
        accept_runs(db, "steps_bea", [other])
    assert not db.redis.exists(keys.run(_prepare("steps_bea", other, 0, IN_INTAKE, "").run.id))


def test_killed_after_claiming_the_idempotency_key_the_same_submission_again_stores_its_run(db):
    token_hash = a_player(db, "steps_cy")
    game = a_game("c1", idempotency_key="cy-key")
    [pending] = _claim(db, "steps_cy", [_prepare("steps_cy", game, now_ms(), IN_INTAKE, "")], token_hash)
    assert not db.redis.exists(keys.run(pending.run.id))  # killed here: nothing acknowledged
    [(run, created)] = accept_runs(db, "steps_cy", [game], token_hash=token_hash)
    assert created and run.id == pending.run.id and indexed(db, "steps_cy", run.id)


def test_killed_before_indexing_the_run_is_indexed_by_a_retry(db):
    token_hash = a_player(db, "steps_di")
    game = a_game("d1")
    batch = _claim(db, "steps_di", [_prepare("steps_di", game, now_ms(), IN_INTAKE, "")], token_hash)
    assert _create(db, batch, None, True)[0][0] == "new"
    run_id = batch[0].run.id
    assert not indexed(db, "steps_di", run_id)  # killed here: pending, in the intake, not the player's yet
    assert db.redis.zscore(keys.pending_runs(shards.of_id(run_id)), run_id) is not None
    [(run, created)] = accept_runs(db, "steps_di", [game], token_hash=token_hash)
    assert not created and run.id == run_id and indexed(db, "steps_di", run_id)


def test_killed_before_indexing_the_run_is_indexed_by_its_verification(db, monkeypatch):
    game = a_game("e1")
    batch = _claim(db, "steps_ed", [_prepare("steps_ed", game, now_ms(), IN_INTAKE, "")], "")
    _create(db, batch, None, True)
    run_id = batch[0].run.id

    class Recorded(Exception):
        pass

    def record_verdicts(*args, **kwargs):
        raise Recorded()  # the index is what this test looks at: written before the verdicts

    monkeypatch.setattr(worker.jobs, "database", lambda: db)
    monkeypatch.setattr(worker.jobs, "record_verdicts", record_verdicts)
    with pytest.raises(Recorded):
        worker.jobs.verify_runs(run_id)
    assert indexed(db, "steps_ed", run_id)


def test_a_batch_whose_jobs_were_never_queued_is_queued_by_the_sweeper(db, monkeypatch):
    run_ids = accepted_without_jobs(db, monkeypatch, "steps_fay", "f", 5)
    assert len(run_ids) == 5 and not set(run_ids) & set(queued_run_ids(db))  # accepted; no job on the queue
    assert sweep(db, 0, WORKER_TTL) >= 5
    queued_alone_or_shared(db, run_ids)


def test_a_sweeper_frozen_mid_sweep_holds_the_others_off_no_longer_than_it_counts_as_alive(db, monkeypatch):
    run_ids = accepted_without_jobs(db, monkeypatch, "steps_fro", "z", 2)
    frozen, thawed = threading.Event(), threading.Event()
    roll_call = pending.roll_call

    def freeze_the_first(db_, worker_ttl):
        if not frozen.is_set():  # this sweeper stops here, holding the lock (SIGSTOP, a pause)
            frozen.set()
            thawed.wait(30)
        return roll_call(db_, worker_ttl)

    monkeypatch.setattr(pending, "roll_call", freeze_the_first)
    first = threading.Thread(target=sweep, args=(db, 0, 1.0), daemon=True)
    first.start()
    try:
        assert frozen.wait(10)
        started = time.monotonic()
        assert sweep(db, 0, 1.0) == 0  # the lock is the frozen sweeper's
        while not sweep(db, 0, 1.0):
            assert time.monotonic() - started < 3, "the frozen sweeper's lock outlived its worker_ttl"
            time.sleep(0.1)
        queued_alone_or_shared(db, run_ids)
    finally:
        thawed.set()
        first.join(10)


def test_runs_taken_from_the_intake_whose_job_never_got_queued_are_queued_by_the_sweeper(db, monkeypatch):
    drain(db)
    run_ids = [run.id for game in (a_game(f"g{n}") for n in range(4))
               for run, _ in accept_runs(db, "steps_gus", [game])]
    monkeypatch.setattr(db, "enqueue_verification", queue_away)
    with pytest.raises(redis.ConnectionError):
        dispatch(db)
    monkeypatch.undo()
    assert intake_depth(db) == 0 and IN_INTAKE not in {run.job for run in load_runs(db, run_ids)}
    assert sweep(db, 0, WORKER_TTL) >= 4
    queued_alone_or_shared(db, run_ids)


def test_runs_of_several_shards_share_one_job(db):
    drain(db)
    run_ids = [run.id for game in (a_game(f"h{n}") for n in range(8))
               for run, _ in accept_runs(db, "steps_hal", [game])]
    assert drain(db) == 8
    [job] = [job for job in Queue("verify", connection=db.queue_redis).get_jobs() if run_ids[0] in job.args]
    assert sorted(job.args) == sorted(run_ids)
    assert {run.job for run in load_runs(db, run_ids)} == {job.id}


def test_the_dispatcher_wakes_on_the_doorbell_and_finds_a_ring_it_missed(db):
    drain(db)
    db.redis.delete(keys.intake_doorbell())
    assert not wait_for_runs(db, 0.1)
    accept_runs(db, "steps_ivy", [a_game("i1")])
    assert wait_for_runs(db, 0.1) and db.redis.llen(keys.intake_doorbell()) == 0
    assert wait_for_runs(db, 0.1)  # no ring left, but the intake holds a run
    drain(db)
    assert not wait_for_runs(db, 0.1)


def test_a_run_sent_while_a_dispatcher_takes_the_heads_goes_in_its_next_pass_not_after_a_wait(db, monkeypatch):
    drain(db)
    db.redis.delete(keys.intake_doorbell())
    first = accept_runs(db, "steps_liv", [a_game("l1")])[0][0].id
    late: list[str] = []
    take = intake.take

    def a_run_arrives_between_reading_and_taking(db_, shares):
        if not late:  # its intake holds the run read: this one rings no bell
            late.append(accept_runs(db, "steps_liv", [a_game("l2")])[0][0].id)
        return take(db_, shares)

    monkeypatch.setattr(intake, "take", a_run_arrives_between_reading_and_taking)
    stopped = threading.Event()
    dispatcher = threading.Thread(target=dispatch_forever, args=(db, 0.01, 5.0, stopped), daemon=True)
    try:
        dispatcher.start()
        deadline = time.monotonic() + 2  # well before the bell's wait of 5 s ends
        while not late or not all_queued(db, [first, *late]):
            assert time.monotonic() < deadline, "the run sent during the pass waited for the bell"
            time.sleep(0.02)
        queued_alone_or_shared(db, [first, *late])
    finally:
        stopped.set()
        dispatcher.join(10)


def test_an_idle_dispatcher_looks_at_every_intake_only_now_and_then_and_so_finds_a_lost_ring(db, monkeypatch):
    drain(db)
    db.redis.delete(keys.intake_doorbell())
    monkeypatch.setattr(intake, "LOOK_EVERY", 0.5)
    looks: list[float] = []
    depth = intake.intake_depth
    monkeypatch.setattr(intake, "intake_depth", lambda db_: looks.append(time.monotonic()) or depth(db_))
    stopped = threading.Event()
    dispatcher = threading.Thread(target=dispatch_forever, args=(db, 0.01, 0.05, stopped), daemon=True)
    try:
        dispatcher.start()
        time.sleep(1.2)  # about 20 waits on the bell: a look after each would be about 20 looks
        assert 2 <= len(looks) <= 4, looks
        [(run, _)] = accept_runs(db, "steps_kai", [a_game("k1")])
        db.redis.delete(keys.intake_doorbell())  # its ring lost, as with an API killed before ringing
        deadline = time.monotonic() + 3
        while not all_queued(db, [run.id]):
            assert time.monotonic() < deadline, "the run whose ring was lost was never queued"
            time.sleep(0.05)
    finally:
        stopped.set()
        dispatcher.join(5)


def test_jobs_lost_with_the_queues_redis_are_queued_again_by_the_sweeper(stack, db):
    if stack.cluster is None:
        pytest.skip("on one Redis the queue's data is the data")
    outcomes = accept_runs(db, "steps_jo", [a_game(f"j{n}") for n in range(3)], runs_per_job=2)
    run_ids = [run.id for run, _ in outcomes]
    single = accept_runs(db, "steps_jo", [a_game("j-single")])[0][0].id
    drain(db)
    db.queue_redis.flushall()  # the queue's Redis lost whole
    assert sweep(db, 0, WORKER_TTL) >= 4
    queued_alone_or_shared(db, [*run_ids, single])


def test_a_dispatcher_queues_nothing_while_the_workers_are_suspended_then_the_whole_intake(db):
    drain(db)
    suspend(db.queue_redis)
    stopped = threading.Event()
    dispatcher = threading.Thread(target=dispatch_forever, args=(db, 0.05, 0.2, stopped), daemon=True)
    try:
        dispatcher.start()
        run_ids = [run.id for game in (a_game(f"k{n}") for n in range(3))
                   for run, _ in accept_runs(db, "steps_kit", [game])]
        time.sleep(0.6)
        assert intake_depth(db) == 3 and {run.job for run in load_runs(db, run_ids)} == {IN_INTAKE}
        resume(db.queue_redis)
        deadline = time.monotonic() + 5
        while not all_queued(db, run_ids):  # taken from the intake, then queued: wait for both steps
            assert time.monotonic() < deadline, "the dispatcher never queued the intake"
            time.sleep(0.05)
        assert intake_depth(db) == 0
        queued_alone_or_shared(db, run_ids)
    finally:
        resume(db.queue_redis)
        stopped.set()
        dispatcher.join(5)
