"""RQ's queues of the service, on the queues' Redis (``Database.queue_redis``): the one module of the store
that queues a job (the rest of RQ the store uses is the sweeper's, ``store.queue.pending`` and
``store.queue.workers``).

Three queues: verification (``SCOUNDREL_QUEUE``, default ``verify``), whose
jobs verify runs; ``<name>-webhooks``, the webhook deliveries', which
workers take from after it; and ``<name>-par``, the par searches
(``store.par``), taken last and only while no run waits for its verdict
(``worker.par``: a search in progress gives way as soon as one does).
Building one makes no Redis call, so each use builds its own. What a job
runs is the worker's (``Database.jobs``): the store names it by reference.
"""

import zlib
from datetime import timedelta

from rq import Callback, Queue
from rq import Retry as JobRetry
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.utils import current_timestamp, get_call_string

from store.base.database import Database

JOB_RETRIES = 2  # a job that raises runs up to 3 times before its run is marked ``error``
FAILED_KEPT = 7 * 24 * 3600  # seconds a failed job stays in RQ's failed registry, for the operator


def verify_queue(db: Database) -> Queue:
    """The verification queue."""
    return Queue(db.queue_name, connection=db.queue_redis, default_timeout=db.job_timeout)


def webhook_queue(db: Database) -> Queue:
    """The webhook deliveries' queue."""
    return Queue(f"{db.queue_name}-webhooks", connection=db.queue_redis)


def par_queue(db: Database) -> Queue:
    """The par searches' queue."""
    return Queue(f"{db.queue_name}-par", connection=db.queue_redis)


def enqueue_par_search(db: Database, seed: str, variant: str, seconds: float, *, resumed: bool = False) -> None:
    """Queue the search of a deal's par, ``seconds`` of it (its job may run a little longer, to keep what it
    found); a search ``resumed`` after giving way to runs goes first. Not retried: a search that failed is
    queued again by the next request for that par."""
    par_queue(db).enqueue_call(db.jobs.search_par, args=(seed, variant, seconds), timeout=int(seconds) + 30,
                               result_ttl=0, failure_ttl=FAILED_KEPT, at_front=resumed)


def par_searches_queued(db: Database) -> int:
    """How many par searches wait in their queue."""
    return par_queue(db).count


def enqueue_verification(db: Database, run_ids: list[str], request_ids: list[str] | None = None,
                         job_id: str | None = None, carried: dict[str, dict[str, str]] | None = None):
    """Queue one job verifying ``run_ids``, carrying the id of the request that submitted each
    (``request_ids``, in their order; none given: ""), which the worker's log lines name (``requests_of``),
    and the hash of each run in ``carried`` (run id → its fields as stored, from its intake entry), which the
    worker judges unread; it reads the others (the sweeper's, a moderator's and a batch's queue ids alone).
    A job's description names its runs' ids alone (RQ's default would spell the start of ``carried``, a
    player's name among it): the fields carried are a copy of personal data that ``forget_carried`` drops.

    A job that raises is retried at once ``JOB_RETRIES`` times, then
    ``jobs.verification_failed`` marks its runs still pending ``error``; a worker
    that dies mid-job is the sweeper's business (``store.queue.pending``).
    """
    return verify_queue(db).enqueue_call(
        db.jobs.verify_runs, args=tuple(run_ids), kwargs={"carried": carried} if carried else None, job_id=job_id,
        description=get_call_string(db.jobs.verify_runs, run_ids, {}, max_length=75), result_ttl=0,
        failure_ttl=FAILED_KEPT,
        retry=JobRetry(max=JOB_RETRIES), on_failure=Callback(db.jobs.verification_failed),
        meta={"request_ids": request_ids or [""] * len(run_ids)},
    )


def forget_carried(db: Database, job: Job, run_ids: set[str] | None = None) -> None:
    """Drop from verification ``job`` the fields it carries of ``run_ids`` (all of them: None), so that it
    keeps no copy of a run's personal data once the run is erased, or once the job is kept failed (its runs
    are read, then, by their ids). Only the job's data is written (RQ keeps it compressed in its hash's
    ``data``): a worker running the job meanwhile keeps its own copy, and the verdicts' script guards it."""
    carried = job.kwargs.get("carried") or {}
    kept = {} if run_ids is None else {run_id: fields for run_id, fields in carried.items() if run_id not in run_ids}
    if kept == carried:
        return
    job.kwargs = {"carried": kept} if kept else {}
    db.queue_redis.hset(job.key, "data", zlib.compress(job.data))


def forget_carried_runs(db: Database, job_ids: set[str], run_ids: set[str]) -> None:
    """Drop the fields of ``run_ids`` from each of the verification jobs ``job_ids`` that carries them (a job
    gone, run and deleted, has none to drop)."""
    for job in Job.fetch_many(sorted(job_ids), connection=db.queue_redis):
        if job is not None:
            forget_carried(db, job, run_ids)


def requests_of(job: Job | None) -> dict[str, str]:
    """Each run of verification ``job`` → the id of the request that submitted it, as the job carries it
    (a job an older release queued carries one, ``request_id``, for all its runs; their hashes name theirs too)."""
    if job is None:
        return {}
    meta, run_ids = job.meta or {}, [str(run_id) for run_id in job.args]
    request_ids = meta.get("request_ids") or [meta.get("request_id", "")] * len(run_ids)
    return dict(zip(run_ids, request_ids, strict=True))


def enqueue_sealed_start(db: Database, args: tuple) -> None:
    """Queue the worker's note of a sealed daily's start (``store.moderation.flags``), retried like a
    verification."""
    verify_queue(db).enqueue_call(db.jobs.note_sealed_start, args=args, result_ttl=0, failure_ttl=FAILED_KEPT,
                                  retry=JobRetry(max=JOB_RETRIES))


# Webhook deliveries (``store.webhooks.hooks``): each retried at once if it raises (a Redis error, a worker
# killed mid-attempt, found by RQ's clean-up), never kept once done; ``seconds`` is how long one may run.

def _delivery_options() -> dict:
    return {"result_ttl": 0, "failure_ttl": FAILED_KEPT, "retry": JobRetry(max=JOB_RETRIES)}


def enqueue_deliveries(db: Database, deliveries: list[tuple[tuple, str]], seconds: int) -> None:
    """Queue a delivery job for each ``(args, description)``, in one MULTI of the queues' Redis."""
    queue = webhook_queue(db)
    with db.queue_redis.pipeline() as pipe:
        pipe.multi()
        for args, description in deliveries:
            queue.enqueue_call(db.jobs.deliver_webhook, args=args, pipeline=pipe, description=description,
                               timeout=seconds, **_delivery_options())
        pipe.execute()


def schedule_delivery(db: Database, args: tuple, description: str, seconds: int, retry_in: float) -> None:
    """Queue a delivery job to run in ``retry_in`` seconds (RQ's scheduled registry; ``release_due``)."""
    webhook_queue(db).enqueue_in(timedelta(seconds=retry_in), db.jobs.deliver_webhook, args=args,
                                 description=description, job_timeout=seconds, **_delivery_options())


def enqueue_drain(db: Database) -> None:
    """Queue a job draining the webhooks' outbox."""
    webhook_queue(db).enqueue_call(db.jobs.drain_webhooks, result_ttl=0, failure_ttl=24 * 3600)


def scheduled_deliveries(db: Database) -> int:
    """How many delivery retries wait for their time."""
    return ScheduledJobRegistry(queue=webhook_queue(db)).count


def deliveries_queued(db: Database) -> int:
    """How many delivery jobs are queued."""
    return webhook_queue(db).count


def any_delivery_due(db: Database) -> bool:
    """Whether a scheduled delivery's time has come."""
    return bool(ScheduledJobRegistry(queue=webhook_queue(db)).get_jobs_to_schedule(current_timestamp(),
                                                                                  chunk_size=1))


def release_due_deliveries(db: Database) -> int:
    """Queue the scheduled deliveries whose time has come, as RQ's scheduler would (the workers run
    none): how many."""
    queue = webhook_queue(db)
    registry = ScheduledJobRegistry(queue=queue)
    due = registry.get_jobs_to_schedule(current_timestamp())
    jobs = Job.fetch_many(due, connection=db.queue_redis)
    with db.queue_redis.pipeline() as pipe:
        pipe.multi()
        for job_id, job in zip(due, jobs, strict=True):
            if job is not None:
                queue.enqueue_job(job, pipeline=pipe)
            registry.remove(job_id, pipeline=pipe)
        pipe.execute()
    return len(due)
