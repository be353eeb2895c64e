"""The connection to Redis (and to the archive) that every store function takes.

The data is on one Redis or on a Redis Cluster (``cluster``: redis-py's
``RedisCluster``, keys tagged by shard, ``store.shards``). ``redis``
decodes replies to ``str`` for our own keys, ``raw`` leaves them as bytes.
RQ's queues are on ``queue_redis``, a plain Redis (RQ does not run on a
cluster): the data's own server unless another is named, always another
beside a cluster. Nothing lost between the two is lost for good: the
pending runs are indexed on the data side, and the sweeper queues a job
again for any run that waits too long (``store.pending``). ``seasons`` is the season calendar the runs of
dealt games are counted by (``SCOUNDREL_SEASON``). ``archive`` is the SQL archive of the runs that
left Redis (``store.archive``): a read that misses in Redis looks there.

The queues' jobs are functions of the worker's (``worker.jobs.JOBS``), which
the process that connects hands in: the store names them by reference, so
it imports no worker code and RQ records each by its module and name.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry
from rq import Callback, Queue
from rq import Retry as JobRetry

from domain.seasons import Schedule
from settings import Settings

from . import keys
from .archive import Archive
from .errors import refuses_writes
from .shards import Layout

# Seconds a Redis call may take in a command that reads every run or board
# in large replies (``scoundrel check``, ``scoundrel reverify``): an operator
# waits for those, and a 0.75 s request budget would fail them on a big store.
BULK_TIMEOUT = 30.0
JOB_RETRIES = 2  # a job that raises runs up to 3 times before its run is marked ``error``
WRITE_PROBE_MS = 10_000  # the write probe's expiry: it never outlives its purpose


@dataclass(frozen=True)
class Jobs:
    """The functions the queue runs: the store queues them, a worker runs them."""

    verify_runs: Callable[..., Any]  # verifies the runs whose ids it is given
    verification_failed: Callable[..., Any]  # RQ's failure callback of ``verify_runs``
    note_sealed_start: Callable[..., Any]  # notes a sealed daily's start for the flags (``store.flags``)
    deliver_webhook: Callable[..., Any]  # one delivery attempt of an event to a webhook (``store.webhooks``)
    drain_webhooks: Callable[..., Any]  # queues the deliveries of the events in the outbox (``store.webhooks``)


class Database:
    """Redis clients and the verification queue (the Lua scripts: ``store.scripts``)."""

    def __init__(self, url: str, jobs: Jobs, queue_name: str = "verify", job_timeout: int = 30,
                 socket_timeout: float = 2.0, archive_url: str = "sqlite://",
                 seasons: Schedule = Schedule.MONTHLY, *, cluster: bool = False, queue_url: str = "",
                 wait_replicas: int = 0):
        # One immediate retry on a broken connection: after a Redis restart a
        # pooled connection fails once and its replacement works. None on a
        # timeout (a hung Redis would only hang again), and not redis-py's
        # default (3 retries with backoff), which keeps a request waiting for
        # seconds while Redis is down.
        once = Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,))
        options = dict(socket_connect_timeout=socket_timeout, socket_timeout=socket_timeout,
                       health_check_interval=10, retry_on_timeout=False, retry=once)
        self.url = url
        self.cluster = cluster
        self.socket_timeout = socket_timeout
        # replicas that must hold a new run before it is acknowledged (``store.replication``)
        self.wait_replicas = wait_replicas
        keys.use_layout(Layout.CLUSTER if cluster else Layout.SINGLE)
        # Any: redis-py types every reply ``bytes | str`` and cannot see that
        # decode_responses=True makes this client's replies ``str``.
        self.redis: Any
        if cluster:
            self.redis = _cluster_client(url, socket_timeout, decode_responses=True)
            self.raw: Any = _cluster_client(url, socket_timeout)
        else:
            self.redis = redis.Redis.from_url(url, decode_responses=True, **options)
            self.raw = redis.Redis.from_url(url, **options)
        self.queue_url = queue_url or url
        if cluster and not queue_url:
            raise ValueError("a cluster's data needs a queue_url: RQ does not run on a cluster")
        self.queue_redis = self.raw if self.queue_url == url else redis.Redis.from_url(self.queue_url, **options)
        self.queue = Queue(queue_name, connection=self.queue_redis, default_timeout=job_timeout)
        # the webhook deliveries' own queue, which workers take from after the verification queue
        self.webhook_queue = Queue(f"{queue_name}-webhooks", connection=self.queue_redis)
        self.jobs = jobs
        self.archive = Archive(archive_url)
        self.seasons = seasons  # the season calendar: a dealt run counts on the season its game ended in

    @classmethod
    def from_settings(cls, settings: Settings, jobs: Jobs, *, timeout: float | None = None) -> "Database":
        """The one way a process connects: the Redis, queue and timeouts ``settings`` name, queueing ``jobs``.

        Every Redis call gives up after ``settings.redis_timeout`` seconds
        (the API then answers 503, a job is retried), unless ``timeout``
        overrides it: only for a command that reads the whole store in a
        few large replies (``BULK_TIMEOUT``), where the request budget
        would cut it off.
        """
        return cls(settings.redis_url, jobs, settings.queue, settings.job_timeout,
                   settings.redis_timeout if timeout is None else timeout, settings.resolved_archive_url(),
                   Schedule(settings.season), cluster=settings.redis_cluster, queue_url=settings.queue_url,
                   wait_replicas=settings.wait_replicas)

    def enqueue_verification(self, run_ids: list[str], request_id: str = "", pipeline=None, job_id=None):
        """Queue one job verifying ``run_ids`` (in ``pipeline``'s transaction, if given).

        A job that raises is retried at once ``JOB_RETRIES`` times, then
        ``jobs.verification_failed`` marks its runs still pending ``error``; a worker
        that dies mid-job is the sweeper's business (``store.pending``).
        """
        return self.queue.enqueue_call(
            self.jobs.verify_runs, args=tuple(run_ids), pipeline=pipeline, job_id=job_id, result_ttl=0,
            failure_ttl=7 * 24 * 3600, retry=JobRetry(max=JOB_RETRIES),
            on_failure=Callback(self.jobs.verification_failed), meta={"request_id": request_id},
        )

    def accepts_writes(self) -> bool:
        """Whether Redis takes a write now (False: full, read-only, or refusing after a failed save):
        on a cluster, whether every master does.

        A real write, since only a write is refused: a one-byte key with an
        expiry, one on each master. Raises ``redis.ConnectionError`` or
        ``TimeoutError`` when Redis (a master) does not answer at all, and a
        cluster's ``store.errors.FAILING_OVER`` while it has a master lost.
        """
        try:
            with self.redis.pipeline(transaction=False) as pipe:
                for probe in self._write_probes():
                    pipe.set(probe, "1", px=WRITE_PROBE_MS)
                pipe.execute()
        except redis.exceptions.ResponseError as error:
            if refuses_writes(error):
                return False
            raise
        return True

    def _write_probes(self) -> list[str]:
        """A write probe's key for each master: the first shard's of each (one key on one Redis)."""
        if not self.cluster:
            return [keys.write_probe(0)]
        by_node: dict[str, str] = {}
        for probe in keys.every(keys.write_probe):
            by_node.setdefault(self.redis.get_node_from_key(probe).name, probe)
        return list(by_node.values())

    def close(self) -> None:
        self.redis.close()
        self.raw.close()
        if self.queue_redis is not self.raw:
            self.queue_redis.close()
        self.archive.dispose()


def _cluster_client(url: str, socket_timeout: float, **options) -> RedisCluster:
    """A client of the cluster one of whose nodes ``url`` names. On a connection error or a moved
    slot it asks the cluster for its slots again and retries, with a short backoff, so a failover's
    few seconds cost a retry, then a 503 (``store.errors``), never a wrong node's answer."""
    return RedisCluster.from_url(url, socket_connect_timeout=socket_timeout, socket_timeout=socket_timeout,
                                 retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 3), **options)
