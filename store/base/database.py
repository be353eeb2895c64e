"""The connection to Redis (and to the archive) that every store function takes.

The data lives on one Redis: ``REDIS_URL``, or, with ``SCOUNDREL_SENTINELS``,
the master that Redis Sentinel names (redis-py's ``Sentinel``: each new
connection asks the sentinels where the master is now, so after a failover
the clients follow the promoted replica; ``docs/high-availability.md``).
Two clients share it: ``redis`` decodes replies to ``str`` for our own
keys, ``raw`` leaves them as bytes because RQ stores pickled jobs. RQ's
queues are on ``queue_redis``: the data's Redis unless
``SCOUNDREL_QUEUE_URL`` names another. Nothing lost between the two is lost
for good: the pending runs are indexed with the data, and the sweeper
queues a job again for any run that waits too long (``store.queue.pending``).
``seasons`` is the season calendar the runs of dealt games are counted by
(``SCOUNDREL_SEASON``). ``archive`` is the SQL archive of the runs that
left Redis (``store.archive``): a read that misses in Redis looks there.

The queues' jobs are functions of the worker's, each named by its dotted
path (``worker.registry.JOBS``), which the process that connects hands in:
the store imports no worker code, and RQ imports each job when a worker
runs it.
"""

from dataclasses import dataclass
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis.sentinel import Sentinel

from domain.seasons import Schedule
from settings import Settings
from store.archive import Archive
from store.base import keys
from store.base.errors import refuses_writes

# Seconds a Redis call may take in a command that reads every run or board
# in large replies (``scoundrel check``, ``scoundrel reverify``): an operator
# waits for those, and a 0.75 s request budget would fail them on a big store.
BULK_TIMEOUT = 30.0
WRITE_PROBE_MS = 10_000  # the write probe's expiry: it never outlives its purpose


@dataclass(frozen=True)
class Jobs:
    """The functions the queue runs, each by its dotted path (RQ imports it when a worker runs the job):
    the store queues them, a worker runs them (``worker.registry``)."""

    verify_runs: str  # verifies the runs whose ids it is given
    verification_failed: str  # RQ's failure callback of ``verify_runs``
    note_sealed_start: str  # notes a sealed daily's start for the flags (``store.moderation.flags``)
    deliver_webhook: str  # one delivery attempt of an event to a webhook (``store.webhooks.hooks``)
    drain_webhooks: str  # queues the deliveries of the events in the outbox (``store.webhooks.hooks``)
    search_par: str  # searches a deal's par with the whole budget and keeps it (``store.par``)


class Database:
    """The Redis clients of the data and of the queues, and the archive (the queues themselves, RQ's:
    ``store.queue.queues``; the Lua scripts: ``store.lua``)."""

    def __init__(self, url: str, jobs: Jobs, queue_name: str = "verify", job_timeout: int = 30,
                 socket_timeout: float = 2.0, archive_url: str = "sqlite://",
                 seasons: Schedule = Schedule.MONTHLY, *, queue_url: str = "", wait_replicas: int = 0,
                 sentinels: tuple[tuple[str, int], ...] = (), sentinel_master: str = "", sealed_secret: str = ""):
        # One immediate retry on a broken connection: after a Redis restart a
        # pooled connection fails once and its replacement works (behind
        # Sentinel, the replacement asks where the master is now). None on a
        # timeout (a hung Redis would only hang again), and not redis-py's
        # default (3 retries with backoff), which keeps a request waiting for
        # seconds while Redis is down.
        once = Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,))
        options: dict[str, Any] = dict(socket_connect_timeout=socket_timeout, socket_timeout=socket_timeout,
                                       health_check_interval=10, retry_on_timeout=False, retry=once)
        # replicas that must hold a change before it is acknowledged (``store.base.replicas``)
        self.wait_replicas = wait_replicas
        self.socket_timeout = socket_timeout
        # Any: redis-py types every reply ``bytes | str`` and cannot see that
        # decode_responses=True makes this client's replies ``str``.
        self.redis: Any
        self.raw: Any
        if sentinels:
            watch = Sentinel(list(sentinels), sentinel_kwargs=dict(socket_connect_timeout=socket_timeout,
                                                                   socket_timeout=socket_timeout))
            self.redis = watch.master_for(sentinel_master, decode_responses=True, **options)
            self.raw = watch.master_for(sentinel_master, **options)
        else:
            self.redis = redis.Redis.from_url(url, decode_responses=True, **options)
            self.raw = redis.Redis.from_url(url, **options)
        self.queue_redis = redis.Redis.from_url(queue_url, **options) if queue_url else self.raw
        # the queues on it: their names and what runs there (``store.queue.queues``)
        self.queue_name, self.job_timeout, self.jobs = queue_name, job_timeout, jobs
        self.archive = Archive(archive_url)
        self.seasons = seasons  # the season calendar: a dealt run counts on the season its game ended in
        # SCOUNDREL_SEALED_SECRET, or empty for the one kept in Redis (``store.games.day_secrets``): the store
        # reveals a sealed day's seed in the public log when it closes the day, whichever process does
        self.sealed_secret = sealed_secret

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
                   Schedule(settings.season), queue_url=settings.queue_url, wait_replicas=settings.wait_replicas,
                   sentinels=settings.sentinels, sentinel_master=settings.sentinel_master,
                   sealed_secret=settings.sealed_secret)

    def accepts_writes(self) -> bool:
        """Whether Redis takes a write now (False: full, read-only, or refusing after a failed save).

        A real write, since only a write is refused: a one-byte key with an
        expiry. Raises ``redis.ConnectionError`` or ``TimeoutError`` when
        Redis does not answer at all.
        """
        try:
            self.redis.set(keys.write_probe(), "1", px=WRITE_PROBE_MS)
        except redis.exceptions.ResponseError as error:
            if refuses_writes(error):
                return False
            raise
        return True

    def close(self) -> None:
        self.redis.close()
        self.raw.close()
        if self.queue_redis is not self.raw:
            self.queue_redis.close()
        self.archive.dispose()
