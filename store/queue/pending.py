"""No run stays ``pending``: the index of pending runs and the sweeper over it.

Every accepted run enters ``keys.pending_runs``, scored by when it was
queued, in the script that gives it a job (a batch's, which stores it,
``store.runs.accepting``; a single submission's, which takes it from the intake,
``store.queue.intake``), and leaves it in the script that records its verdict
(``record_verdicts``). Until its job a single submission waits in the intake
(a backlog, which every worker's dispatcher drains): the runs pending are
the intake's and the index's. The sweeper looks at the runs queued more
than ``stale_after`` seconds ago and asks whether anything will still
verify each one (``_in_hand``): its job waits in the queue (a backlog too), or
a live worker (``store.queue.workers``) runs it within its timeout, or a worker
took it from the queue a moment ago (RQ's intermediate list, where a live
worker leaves a job for milliseconds). A job's status alone cannot say: a
worker killed just after taking a job leaves it ``queued`` in the
intermediate list, which RQ itself clears only every ten minutes.

Anything else is a lost job — its worker killed or stopped, its failure
not written while Redis refused writes, or a job the queue's Redis lacks
(never queued: the process that would have queued it killed, or that Redis
away; or lost with that Redis's data) — and the run is queued again with a
job of its own, the lost job deleted once its runs are (so RQ's own
clean-up does not run it too), up to ``MAX_REQUEUES`` times; after that the run is marked ``error``
for a moderator (``requeue_run``). A run in hand keeps its time in the
index, and the intake's head its submission's, so ``scoundrel_oldest_pending_seconds``
shows a backlog's real age.

Several workers sweep safely: one sweep at a time holds ``keys.sweep_lock``,
and each re-queue is claimed by a script that moves the run's time to now.
The job is queued after that, on the queue's Redis (``queue_alone``): never
in a transaction with the data, which may live elsewhere.
"""

import json
import logging
import secrets
from datetime import timedelta
from typing import Any

from rq.job import Job, JobStatus
from rq.utils import now as rq_now

from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.queue import scripts
from store.queue.intake import entry_parts
from store.queue.queues import enqueue_verification, verify_queue
from store.queue.workers import roll_call

MAX_REQUEUES = 3


SWEEP_BATCH = 500  # stale runs looked at per sweep


TRANSIT_SECONDS = 2.0  # a job a live worker took from the queue is started long before this


log = logging.getLogger(__name__)


def queue_alone(db: Database, run_id: str, request_id: str = "") -> str:
    """Point the run at a job of its own, then queue that job on the queue's Redis; the job's id.

    Two steps on two servers, in this order: a process killed between them
    leaves the run naming a job the queue lacks, which the next sweep queues again
    (the run's hash names the job and ``request_id``, which a run from the intake
    had only in its entry and its job, for the next sweep to carry on).
    """
    job_id = secrets.token_hex(12)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hset(keys.run(run_id), mapping={"job": job_id, **({"request_id": request_id} if request_id else {})})
        pipe.hdel(keys.pending_jobs(), run_id)  # the job of the intake that took it, if one did: lost
        pipe.execute()
    enqueue_verification(db, [run_id], [request_id], job_id=job_id)
    return job_id


def jobs_of(db: Database, run_ids: list[str]) -> list[str | None]:
    """The job each of ``run_ids`` waits on: the one a dispatcher took it for from the intake
    (``keys.pending_jobs``), else the one its hash names (a batch's, or one queued alone; None for a
    run with none, as one waiting in the intake)."""
    if not run_ids:
        return []
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hmget(keys.pending_jobs(), run_ids)
        for run_id in run_ids:
            pipe.hget(keys.run(run_id), "job")
        taken, *own = pipe.execute()
    return [entry_parts(job)[0] if job else named for job, named in zip(taken, own, strict=True)]


def request_of(db: Database, run_id: str) -> str:
    """The id of the request that submitted pending ``run_id``: noted with its job if a dispatcher took it
    from the intake (``take_intake``), else its hash's (a batch's run, or one queued alone)."""
    noted = db.redis.hget(keys.pending_jobs(), run_id)
    return entry_parts(noted)[1] if noted else db.redis.hget(keys.run(run_id), "request_id") or ""


def split_pending(db: Database, request_ids: dict[str, str]) -> list[str]:
    """Give each run of ``request_ids`` (run id → the request that submitted it: ``queues.requests_of``) still
    pending a job of its own; returns those ids."""
    run_ids = list(request_ids)
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hget(keys.run(run_id), "status")
        pending = [run_id for run_id, status in zip(run_ids, pipe.execute(), strict=True) if status == "pending"]
    for run_id in pending:
        queue_alone(db, run_id, request_ids[run_id])
    return pending


def mark_error(db: Database, run_id: str, code: str, message: str, actor: str = "worker") -> bool:
    """Give a pending run the status ``error`` with a reason; False if it already had a verdict.

    ``actor`` is the worker (or sweeper) the audit log names.
    """
    reason = json.dumps({"code": code, "message": message})
    return scripts.mark_error(db.redis, run_id=run_id, reason=reason, at_ms=now_ms(), actor=actor)


def pending_count(client: Any) -> int:
    """How many runs are pending, on ``client`` (a Redis client of the data, or ``Database.redis``): those
    waiting in the intake and those in the index."""
    with client.pipeline(transaction=False) as pipe:
        pipe.llen(keys.intake())
        pipe.zcard(keys.pending_runs())
        return sum(pipe.execute())


def oldest_pending(db: Database) -> tuple[str, int] | None:
    """``(run id, ms)`` of the run pending longest, or None: the intake's head since its submission, or
    the index's first since it was (last) queued, whichever is older."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.lindex(keys.intake(), 0)
        pipe.zrange(keys.pending_runs(), 0, 0, withscores=True)
        head, indexed = pipe.execute()
    found = [(run_id, int(queued)) for run_id, queued in indexed]
    head_id = entry_parts(head)[0] if head is not None else None
    if head_id is not None and (submitted := db.redis.hget(keys.run(head_id), "submitted_ms")) is not None:
        found.append((head_id, int(submitted)))
    return min(found, key=lambda entry: entry[1]) if found else None


def pending_run_ids(db: Database, most: int) -> list[str]:
    """Up to ``most`` ids of pending runs, from the intake's head and the index's oldest."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.lrange(keys.intake(), 0, most - 1)
        pipe.zrange(keys.pending_runs(), 0, most - 1)
        waiting, indexed = pipe.execute()
    return ([entry_parts(entry)[0] for entry in waiting] + indexed)[:most]


def sweep(db: Database, stale_after: float, worker_ttl: float, lock_seconds: float = 10.0) -> int:
    """Re-queue the runs pending longer than ``stale_after`` seconds that nothing will verify; returns how many.

    ``worker_ttl``: seconds of silence after which a worker is gone
    (``store.queue.workers.roll_call``, whose clean-up runs here too). Does
    nothing (0) while another process holds the sweep lock. The lock lasts
    ``lock_seconds``, or ``worker_ttl`` if shorter: a worker frozen mid-sweep
    (stopped, paused) holds it no longer than it counts as alive, so the
    others sweep again once it is gone. Sweeps side by side are safe all the
    same (each re-queue is claimed); the lock only spares the work.
    """
    held_ms = int(min(lock_seconds, worker_ttl) * 1000)
    if not db.redis.set(keys.sweep_lock(), "1", nx=True, px=held_ms):
        return 0
    try:
        live = roll_call(db, worker_ttl)
        now = now_ms()
        cutoff = now - int(stale_after * 1000)
        stale = db.redis.zrangebyscore(keys.pending_runs(), "-inf", cutoff, start=0, num=SWEEP_BATCH)
        if not stale:
            return 0
        job_ids = jobs_of(db, stale)
        jobs = Job.fetch_many([job_id or "" for job_id in job_ids], connection=db.queue_redis)
        taken = set(verify_queue(db).intermediate_queue.get_job_ids())
        requeued, in_hand, lost = 0, {}, {}
        for run_id, job in zip(stale, jobs, strict=True):
            if job is not None and job.id not in in_hand:  # asked once per job: the runs of one share it
                in_hand[job.id] = _in_hand(db, job, live, taken)
            if job is None or not in_hand[job.id]:
                requeued += _requeue_lost(db, run_id, job, cutoff, now)
                if job is not None:
                    lost[job.id] = job
        for job in lost.values():
            _forget_lost(db, job)
        return requeued
    finally:
        db.redis.delete(keys.sweep_lock())


def _in_hand(db: Database, job: Job, live: set[str], taken: set[str]) -> bool:
    """Whether something will still run ``job``: the queue, a live worker, or one that took it just now."""
    status = job.get_status(refresh=False)
    if status == JobStatus.QUEUED:
        if job.id not in taken:
            return verify_queue(db).get_job_position(job.id) is not None  # a backlog
        # Taken from the queue and not started: by a worker that died just after, unless only just.
        transit = verify_queue(db).intermediate_queue
        if transit.set_first_seen(job.id):
            return True
        first_seen = transit.get_first_seen(job.id)
        return first_seen is not None and rq_now() - first_seen < timedelta(seconds=TRANSIT_SECONDS)
    if status == JobStatus.STARTED:  # by a live worker, and not yet past the timeout that would end it
        if job.worker_name not in live or job.started_at is None:
            return False
        return rq_now() < job.started_at + timedelta(seconds=job.timeout or 0)
    return False  # finished, failed, stopped: no worker will run it again


def _forget_lost(db: Database, lost: Job) -> None:
    """Delete a lost job whose runs are queued again, so RQ's own clean-up does not run it too."""
    if lost.get_status(refresh=False) in (JobStatus.QUEUED, JobStatus.STARTED):
        verify_queue(db).intermediate_queue.remove(lost.id)
        lost.delete()


def _requeue_lost(db: Database, run_id: str, lost: Job | None, cutoff: int, now: int) -> int:
    claimed = scripts.claim_stale_run(db.redis, run_id=run_id, cutoff_ms=cutoff, now_ms=now,
                                      most_requeues=MAX_REQUEUES)
    if claimed == 0:
        return 0
    if claimed < 0:
        mark_error(db, run_id, "verification_lost",
                   f"Verification never finished after {MAX_REQUEUES} re-queues; a moderator can re-queue it.",
                   actor="sweeper")
        log.warning("run marked error after repeated re-queues", extra={"run_id": run_id})
        return 0
    job_id = queue_alone(db, run_id, request_of(db, run_id))
    db.redis.hincrby(keys.metrics(), "requeues", 1)
    log.warning("re-queued a run left pending", extra={"run_id": run_id, "job_id": job_id, "requeue": claimed,
                                                       "lost_job": lost.id if lost else ""})
    return 1
