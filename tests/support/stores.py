"""A throwaway data store without the service's processes: one Redis, or a one-master Redis Cluster
with a Redis of its own for the queues (which refuses a script whose keys span slots as a bigger
cluster does). For store-level tests that run on both, and stop a step midway (``Stopping``)."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cli.redis_server import RedisServer
from store import Database
from throwaway.redis_cluster import RedisClusterServer
from worker.jobs import JOBS

KINDS = ("one-redis", "cluster")


@contextmanager
def throwaway_store(root: Path, kind: str) -> Iterator[tuple[str, str]]:
    """``(data URL, queue URL)`` of a store of ``kind`` (one of ``KINDS``) under ``root``; the queue
    URL is "" on one Redis (the queues are beside the data)."""
    queues = RedisServer(root / "queues", persistent=False).start()
    cluster = RedisClusterServer(root / "cluster", 1, 0).start() if kind == "cluster" else None
    try:
        yield (cluster.url, queues.url) if cluster else (queues.url, "")
    finally:
        if cluster:
            cluster.stop()
        queues.stop()


@contextmanager
def emptied_database(urls: tuple[str, str]) -> Iterator[Database]:
    """A connection, made as the processes make one, to the store ``throwaway_store`` gave ``urls`` of,
    its data and its queues emptied first."""
    data_url, queue_url = urls
    database = Database(data_url, JOBS, cluster=bool(queue_url), queue_url=queue_url)
    try:
        database.redis.flushall()
        database.queue_redis.flushall()
        yield database
    finally:
        database.close()


class Stopped(Exception):
    """The process died here."""


class Stopping:
    """A client that dies right after its ``after``-th call of ``command`` (1: the first) has been
    answered: the call's writes stay, the caller gets ``Stopped``. Scripts count as ``script``
    (EVALSHA, or EVAL after a NOSCRIPT)."""

    def __init__(self, client, command: str, after: int = 1):
        self.client, self.command, self.left = client, command, after

    def __getattr__(self, name: str):
        method = getattr(self.client, name)
        counted = "script" if name in ("evalsha", "eval") else name
        if counted != self.command:
            return method

        def stopping(*args, **kwargs):
            answer = method(*args, **kwargs)
            self.left -= 1
            if self.left == 0:
                raise Stopped(name)
            return answer

        return stopping
