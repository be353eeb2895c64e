"""``/metrics``: the service's counters in Prometheus' text format.

Nothing is counted in this process: the API processes and the workers all
add to counters in Redis (``store.metrics``), and a scrape reads them there,
with the queue's depth and the failed jobs. So any API process answers for
the whole service, and no shared multiprocess directory is needed.
"""

from flask import Blueprint, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

from store.metrics import LATENCY_BUCKETS, read_counters
from store.pending import oldest_pending
from store.runs import now_ms

from .context import db

blp = Blueprint("metrics", __name__)


class RedisCollector:
    """Reads the service-wide counters from Redis at each scrape."""

    def __init__(self, database):
        self.db = database

    def collect(self):
        counters, latency = read_counters(self.db)
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

        cumulative: float = 0
        buckets: list[tuple[str, float]] = []
        for bound in LATENCY_BUCKETS:
            cumulative += latency.get(f"{bound:g}", 0)
            buckets.append((f"{bound:g}", cumulative))
        buckets.append(("+Inf", latency.get("count", 0)))
        histogram = HistogramMetricFamily("scoundrel_verification_latency_seconds",
                                          "Seconds from submission to verdict", unit="")
        histogram.add_metric([], buckets, sum_value=latency.get("sum", 0.0))
        yield histogram

        yield CounterMetricFamily("scoundrel_job_failures", "Verification jobs that raised (every attempt)",
                                  value=counters.get("job_failures", 0))
        yield CounterMetricFamily("scoundrel_runs_errored", "Runs given the status error",
                                  value=counters.get("errors", 0))
        yield CounterMetricFamily("scoundrel_requeues", "Runs re-queued by the sweeper",
                                  value=counters.get("requeues", 0))
        yield GaugeMetricFamily("scoundrel_queue_depth", "Jobs waiting in the verification queue",
                                value=self.db.queue.count)
        yield GaugeMetricFamily("scoundrel_failed_jobs", "Jobs in RQ's failed-job registry",
                                value=self.db.queue.failed_job_registry.count)
        oldest = oldest_pending(self.db)
        yield GaugeMetricFamily("scoundrel_oldest_pending_seconds",
                                "Seconds since the longest-pending run was (last) queued",
                                value=(now_ms() - oldest[1]) / 1000 if oldest else 0)


@blp.route("/metrics")
def metrics():
    registry = CollectorRegistry(auto_describe=False)
    registry.register(RedisCollector(db()))
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
