"""The verification job: replay one stored run and record its verdict.

A plain function of a run id, as RQ wants: it loads what it needs, replays,
and records the verdict in one atomic, idempotent step, so running it twice
changes nothing.
"""

import functools

from rq import get_current_job

import scoundrel
from service.config import Settings
from store import Database, load_run, record_verdict


@functools.cache
def _database() -> Database:
    """One connection pool per worker process, configured like the API."""
    settings = Settings.from_env()
    return Database(settings.redis_url, settings.queue, settings.job_timeout)


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
        return run["status"]
    verdict = scoundrel.replay(run["seed"], run["moves"].split(" ") if run["moves"] else [], run["variant"])
    record_verdict(db, run, verdict.to_dict(), worker=_worker_name())
    return verdict.status
