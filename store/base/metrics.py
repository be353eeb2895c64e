"""Service counters kept in Redis, so that every process adds to the same ones.

The API runs as several gunicorn processes and the workers as several more,
possibly on other machines; counters in Redis need no shared directory
(prometheus_client's multiprocess mode) and survive restarts. ``/metrics``
reads them back (``service.metrics``). A count is added after the change it
counts, so a process killed in between loses that one increment: counters
are for watching trends, ``scoundrel check`` is for correctness.
"""

from dataclasses import dataclass

from store.base import keys
from store.base.database import Database

# Upper bounds (seconds) of the verification latency buckets: submission to verdict.
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
# Upper bounds (seconds) of the move latency buckets: a move request's arrival to its moves stored.
MOVE_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def latency_bucket(latency_seconds: float, bounds: tuple[float, ...] = LATENCY_BUCKETS) -> str:
    """The histogram bucket a latency falls in (``record_verdicts`` and ``play_moves`` count it)."""
    return next((f"{bound:g}" for bound in bounds if latency_seconds <= bound), "+Inf")


@dataclass(frozen=True)
class Tallies:
    """What ``/metrics`` reports, read in one round trip: the counters, both latency
    histograms (bucket bound → count, plus ``sum`` and ``count``) and the games in play."""

    counters: dict[str, int]
    verification_latency: dict[str, float]
    move_latency: dict[str, float]
    games_in_play: int


def count_job_failure(db: Database) -> None:
    """A verification job raised (each attempt counts, retried or not)."""
    db.redis.hincrby(keys.metrics(), "job_failures", 1)


def read_tallies(db: Database) -> Tallies:
    """The counters and histograms as numbers, and the games in play now (Redis' own count,
    right whichever process asks)."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.metrics())
        pipe.hgetall(keys.latency())
        pipe.hgetall(keys.move_latency())
        pipe.zcard(keys.games_playing())
        counters, latency, move_latency, in_play = pipe.execute()
    return Tallies({name: int(value) for name, value in counters.items()},
                   {name: float(value) for name, value in latency.items()},
                   {name: float(value) for name, value in move_latency.items()}, int(in_play))
