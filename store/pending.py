"""No run stays ``pending``: the index of pending runs and the sweeper over it.

Every accepted run enters ``keys.pending_runs`` in the MULTI that stores
it and leaves it in the step that records its verdict (``record_verdict``; a worker
dying in between only leaves work for the sweeper). A run still there after
``stale_after`` seconds lost its job somewhere — a worker killed mid-job, a
job whose failure could not be written while Redis was away — and the
sweeper queues it again, up to ``MAX_REQUEUES`` times; after that it is
marked ``error`` for a moderator to look at (``requeue_run``).

Several workers sweep safely: one sweep at a time holds ``keys.sweep_lock``,
and each re-queue is claimed by a script that moves the run's time to now.
"""

import json
import logging

from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from . import keys, scripts
from .database import Database
from .errors import NoSuchRun, NotInError
from .history import find_run
from .runs import now_ms

MAX_REQUEUES = 3
SWEEP_BATCH = 500  # stale runs looked at per sweep

log = logging.getLogger(__name__)


def queue_alone(db: Database, run_id: str, request_id: str | None = None):
    """Queue a job for ``run_id`` alone and point the run at it, in one transaction."""
    if request_id is None:
        request_id = db.redis.hget(keys.run(run_id), "request_id") or ""
    with db.raw.pipeline(transaction=True) as pipe:
        pipe.multi()
        job = db.enqueue_verification([run_id], request_id, pipeline=pipe)
        pipe.hset(keys.run(run_id), "job", job.id)
        pipe.execute()
    return job


def split_pending(db: Database, run_ids: list[str], request_id: str) -> list[str]:
    """Give each of ``run_ids`` still pending a job of its own; returns those ids."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hget(keys.run(run_id), "status")
        pending = [run_id for run_id, status in zip(run_ids, pipe.execute(), strict=True) if status == "pending"]
    for run_id in pending:
        queue_alone(db, run_id, request_id)
    return pending


def mark_error(db: Database, run_id: str, code: str, message: str, actor: str = "worker") -> bool:
    """Give a pending run the status ``error`` with a reason; False if it already had a verdict.

    ``actor`` is the worker (or sweeper) the audit log names.
    """
    reason = json.dumps({"code": code, "message": message})
    return scripts.mark_error(db.redis, run_id=run_id, reason=reason, at_ms=now_ms(), actor=actor)


def requeue_run(db: Database, run_id: str, moderator: str) -> None:
    """Queue an ``error`` run's verification again (a moderator's call).

    Raises ``NoSuchRun``, or ``NotInError`` for a run not in ``error``.
    """
    if not scripts.requeue_run(db.redis, run_id=run_id, at_ms=now_ms(), moderator=moderator):
        if find_run(db, run_id) is None:
            raise NoSuchRun(run_id)
        raise NotInError()
    queue_alone(db, run_id)


def oldest_pending(db: Database) -> tuple[str, int] | None:
    """``(run id, queued ms)`` of the run pending longest, or None."""
    oldest = db.redis.zrange(keys.pending_runs(), 0, 0, withscores=True)
    return (oldest[0][0], int(oldest[0][1])) if oldest else None


def _waiting_in_queue(db: Database, job_id: str | None) -> bool:
    """Whether the run's last job is still queued (a backlog, not a loss)."""
    if not job_id:
        return False
    try:
        return Job.fetch(job_id, connection=db.raw).get_status() in (JobStatus.QUEUED, JobStatus.DEFERRED,
                                                                    JobStatus.SCHEDULED)
    except NoSuchJobError:
        return False


def sweep(db: Database, stale_after: float, lock_seconds: float = 10.0) -> int:
    """Re-queue the runs pending longer than ``stale_after`` seconds; returns how many.

    Does nothing (0) while another process holds the sweep lock.
    """
    if not db.redis.set(keys.sweep_lock(), "1", nx=True, px=int(lock_seconds * 1000)):
        return 0
    try:
        now = now_ms()
        cutoff = now - int(stale_after * 1000)
        stale = db.redis.zrangebyscore(keys.pending_runs(), "-inf", cutoff, start=0, num=SWEEP_BATCH)
        requeued = 0
        for run_id in stale:
            requeued += _sweep_one(db, run_id, cutoff, now)
        return requeued
    finally:
        db.redis.delete(keys.sweep_lock())


def _sweep_one(db: Database, run_id: str, cutoff: int, now: int) -> int:
    if _waiting_in_queue(db, db.redis.hget(keys.run(run_id), "job")):
        db.redis.zadd(keys.pending_runs(), {run_id: now}, xx=True)  # look again later
        return 0
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
    job = queue_alone(db, run_id)
    db.redis.hincrby(keys.metrics(), "requeues", 1)
    log.warning("re-queued a run left pending", extra={"run_id": run_id, "job_id": job.id, "requeue": claimed})
    return 1
