"""The verification job: replay one stored run and record its verdict.

A plain function of a run id, as RQ wants: it loads what it needs, replays,
and records the verdict in one atomic, idempotent step, so running it twice
changes nothing. A job that raises is retried; when it keeps failing,
``verification_failed`` marks its run ``error`` with the reason, so no run
is silently dropped (and a worker killed mid-job is ``store.pending``'s
business).
"""

import functools
import logging
import time

from rq import get_current_job

import scoundrel
from service.config import Settings
from store import Database, load_run, record_verdict
from store.metrics import count_job_failure, count_verdict
from store.pending import mark_error, settle
from store.runs import now_ms

log = logging.getLogger("worker.jobs")


@functools.cache
def _settings() -> Settings:
    return Settings.from_env()


@functools.cache
def _database() -> Database:
    """One connection pool per worker process, configured like the API."""
    settings = _settings()
    return Database(settings.redis_url, settings.queue, settings.job_timeout)


def _worker_name() -> str:
    """The RQ worker running this job, as the run's audit log names it."""
    job = get_current_job()
    return (job.worker_name if job else None) or "worker"


def _worker_name() -> str:
    """The RQ worker running this job, as the run's audit log names it."""
    job = get_current_job()
    return (job.worker_name if job else None) or "worker"


def verify_run(run_id: str) -> str:
    """Replay run ``run_id`` with the current engine; returns its status afterwards."""
    db = _database()
    run = load_run(db, run_id)
    if run is None:
        return "missing"
    if run["status"] != "pending":
        settle(db, run_id)
        return run["status"]
    if _settings().test_job_delay:
        time.sleep(_settings().test_job_delay)  # SCOUNDREL_TEST_JOB_DELAY: fault tests kill a worker here
    verdict = scoundrel.replay(run["seed"], run["moves"].split(" ") if run["moves"] else [], run["variant"]).to_dict()
    written = record_verdict(db, run, verdict, worker=_worker_name())
    settle(db, run_id)
    if written:
        latency = max(0.0, (now_ms() - int(run["submitted_ms"])) / 1000)
        code = (verdict.get("error") or {}).get("code", "")
        count_verdict(db, verdict["status"], code, latency)
        log.info("verdict recorded", extra={"run_id": run_id, "request_id": run.get("request_id", ""),
                                             "status": verdict["status"], "code": code,
                                             "latency_ms": round(latency * 1000)})
    return verdict["status"]


def verification_failed(job, connection, exc_type, exc_value, traceback):
    """RQ's failure callback: count the failure; on the last attempt mark the run ``error``.

    The reason names the kind of failure, never its internals; the worker's
    log has the traceback under the run's request id.
    """
    db = _database()
    run_id = job.args[0]
    count_job_failure(db)
    request_id = (job.meta or {}).get("request_id", "")
    if job.retries_left:
        log.warning("verification failed; retrying", exc_info=(exc_type, exc_value, traceback),
                    extra={"run_id": run_id, "request_id": request_id, "retries_left": job.retries_left})
        return
    log.error("verification failed for good", exc_info=(exc_type, exc_value, traceback),
              extra={"run_id": run_id, "request_id": request_id})
    mark_error(db, run_id, "verification_failed",
               f"Verification failed ({exc_type.__name__}) on every attempt; a moderator can re-queue it.")
