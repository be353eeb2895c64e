"""``/metrics``: the service's counters in Prometheus' text format.

Nothing is counted in this process: the API processes and the workers all
add to counters in Redis (``store.base.metrics``), and a scrape reads them there,
with what Redis itself knows at that moment (the queue's depth, the failed
jobs, the games in play, the live workers). So any API process answers for
the whole service, and no shared multiprocess directory is needed.
"""

from flask import Blueprint, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

from store.base import LATENCY_BUCKETS, MOVE_LATENCY_BUCKETS, now_ms, read_tallies
from store.games import FORFEITED_IDLE
from store.queue import intake_depth, live_workers, oldest_pending, verify_queue
from store.webhooks import ATTEMPTS_COUNTED, backlog

from .context import db, referee

blp = Blueprint("metrics", __name__)

GAME_OUTCOMES = ("won", "lost", "forfeit")


def _histogram(name: str, documentation: str, bounds: tuple[float, ...],
               counts: dict[str, float]) -> HistogramMetricFamily:
    """A histogram from its Redis hash: bucket bound → count, plus ``sum`` and ``count``."""
    cumulative: float = 0
    buckets: list[tuple[str, float]] = []
    for bound in bounds:
        cumulative += counts.get(f"{bound:g}", 0)
        buckets.append((f"{bound:g}", cumulative))
    buckets.append(("+Inf", counts.get("count", 0)))
    histogram = HistogramMetricFamily(name, documentation, unit="")
    histogram.add_metric([], buckets, sum_value=counts.get("sum", 0.0))
    return histogram


class RedisCollector:
    """Reads the service-wide counters from Redis at each scrape."""

    def __init__(self, database, worker_ttl: float):
        self.db = database
        self.worker_ttl = worker_ttl

    def collect(self):
        tallies = read_tallies(self.db)
        counters = tallies.counters
        submissions = CounterMetricFamily("scoundrel_submissions", "Submissions received", labels=["result"])
        for result in ("accepted", "duplicate"):
            submissions.add_metric([result], counters.get(f"submissions:{result}", 0))
        yield submissions

        verdicts = CounterMetricFamily("scoundrel_verdicts", "Verdicts recorded", labels=["status", "code"])
        for name, value in counters.items():
            if name.startswith("verdicts:"):
                _, status, code = name.split(":", 2)
                verdicts.add_metric([status, code], value)
        yield verdicts

        yield _histogram("scoundrel_verification_latency_seconds", "Seconds from submission to verdict",
                         LATENCY_BUCKETS, tallies.verification_latency)
        yield CounterMetricFamily("scoundrel_job_failures", "Verification jobs that raised (every attempt)",
                                  value=counters.get("job_failures", 0))
        yield CounterMetricFamily("scoundrel_runs_errored", "Runs given the status error",
                                  value=counters.get("errors", 0))
        yield CounterMetricFamily("scoundrel_requeues", "Runs re-queued by the sweeper",
                                  value=counters.get("requeues", 0))
        yield GaugeMetricFamily("scoundrel_queue_depth", "Jobs waiting in the verification queue",
                                value=verify_queue(self.db).count)
        yield GaugeMetricFamily("scoundrel_intake_depth", "Single submissions waiting in the intake for a job",
                                value=intake_depth(self.db))
        yield GaugeMetricFamily("scoundrel_failed_jobs", "Jobs in RQ's failed-job registry",
                                value=verify_queue(self.db).failed_job_registry.count)
        oldest = oldest_pending(self.db)
        yield GaugeMetricFamily("scoundrel_oldest_pending_seconds",
                                "Seconds since the longest-pending run was (last) queued",
                                value=(now_ms() - oldest[1]) / 1000 if oldest else 0)
        yield GaugeMetricFamily("scoundrel_workers", "Verification workers that beat within SCOUNDREL_WORKER_TTL",
                                value=live_workers(self.db, self.worker_ttl))
        yield from self._games(tallies)
        yield from self._webhooks(tallies)

    def _games(self, tallies):
        counters = tallies.counters
        yield CounterMetricFamily("scoundrel_games_started", "Dealt games started",
                                  value=counters.get("games:started", 0))
        yield GaugeMetricFamily("scoundrel_games_in_play", "Dealt games being played now",
                                value=tallies.games_in_play)
        ended = CounterMetricFamily("scoundrel_games_ended", "Dealt games ended, by outcome", labels=["outcome"])
        for outcome in GAME_OUTCOMES:
            ended.add_metric([outcome], counters.get(f"games:ended:{outcome}", 0))
        yield ended
        yield CounterMetricFamily("scoundrel_games_forfeited_idle",
                                  "Dealt games the sweeper forfeited after SCOUNDREL_GAME_IDLE without a move (R18)",
                                  value=counters.get(f"games:{FORFEITED_IDLE}", 0))
        yield _histogram("scoundrel_move_latency_seconds",
                         "Seconds from a move request's arrival to its moves stored",
                         MOVE_LATENCY_BUCKETS, tallies.move_latency)

    def _webhooks(self, tallies):
        attempts = CounterMetricFamily("scoundrel_webhook_attempts", "Webhook delivery attempts, by result",
                                       labels=["result"])
        for result in ("delivered", "failed"):
            attempts.add_metric([result], tallies.counters.get(f"{ATTEMPTS_COUNTED}:{result}", 0))
        yield attempts
        waiting = backlog(self.db)
        yield GaugeMetricFamily("scoundrel_webhook_outbox", "Webhook events recorded, their deliveries not yet queued",
                                value=waiting.outbox)
        yield GaugeMetricFamily("scoundrel_webhook_queue_depth", "Jobs waiting in the webhook queue",
                                value=waiting.queued)
        yield GaugeMetricFamily("scoundrel_webhook_retries_waiting", "Webhook delivery retries not yet due",
                                value=waiting.retries)


@blp.route("/metrics")
def metrics():
    registry = CollectorRegistry(auto_describe=False)
    registry.register(RedisCollector(db(), referee().settings.worker_ttl))
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
