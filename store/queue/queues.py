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

from datetime import timedelta

from rq import Callback, Queue
from rq import Retry as JobRetry
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.utils import current_timestamp

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
                         job_id: str | None = None):
    """Queue one job verifying ``run_ids``, carrying the id of the request that submitted each
    (``request_ids``, in their order; none given: ""), which the worker's log lines name (``requests_of``).

    A job that raises is retried at once ``JOB_RETRIES`` times, then
    ``jobs.verification_failed`` marks its runs still pending ``error``; a worker
    that dies mid-job is the sweeper's business (``store.queue.pending``).
    """
    return verify_queue(db).enqueue_call(
        db.jobs.verify_runs, args=tuple(run_ids), job_id=job_id, result_ttl=0, failure_ttl=FAILED_KEPT,
        retry=JobRetry(max=JOB_RETRIES), on_failure=Callback(db.jobs.verification_failed),
        meta={"request_ids": request_ids or [""] * len(run_ids)},
    )


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
