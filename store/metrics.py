"""Service counters kept in Redis, so that every process adds to the same ones.

The API runs as several gunicorn processes and the workers as several more,
possibly on other machines; counters in Redis need no shared directory
(prometheus_client's multiprocess mode) and survive restarts. ``/metrics``
reads them back (``service.metrics``). A count is added after the change it
counts, so a process killed in between loses that one increment: counters
are for watching trends, ``scoundrel check`` is for correctness.
"""

from . import keys
from .database import Database

# Upper bounds (seconds) of the verification latency buckets: submission to verdict.
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


def latency_bucket(latency_seconds: float) -> str:
    """The histogram bucket a verification latency falls in (``record_verdict`` counts it)."""
    return next((f"{bound:g}" for bound in LATENCY_BUCKETS if latency_seconds <= bound), "+Inf")


def count_job_failure(db: Database) -> None:
    """A verification job raised (each attempt counts, retried or not)."""
    db.redis.hincrby(keys.metrics(), "job_failures", 1)


def read_counters(db: Database) -> tuple[dict[str, int], dict[str, float]]:
    """``(counters, latency)``: the two hashes as numbers."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.metrics())
        pipe.hgetall(keys.latency())
        counters, latency = pipe.execute()
    return ({name: int(value) for name, value in counters.items()},
            {name: float(value) for name, value in latency.items()})
