"""A throwaway Redis without the service's processes, for the store's own tests: one server per test
process, emptied for each module, and a ``Database`` on it made as the processes make theirs."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cli.redis_server import RedisServer
from store import Database
from worker.registry import JOBS


@contextmanager
def throwaway_redis(root: Path) -> Iterator[str]:
    """The URL of a Redis started under ``root`` (nothing kept on disk), stopped on leaving."""
    server = RedisServer(root, persistent=False).start()
    try:
        yield server.url
    finally:
        server.stop()


@contextmanager
def emptied_database(url: str, **options) -> Iterator[Database]:
    """A connection to the Redis at ``url``, emptied first (``options``: ``Database``'s own)."""
    database = Database(url, JOBS, **options)
    try:
        database.redis.flushall()
        yield database
    finally:
        database.close()


def app_without_redis(root: Path, **settings):
    """The app on a Redis that is not there (a free port) with an archive under ``root``: for the answers
    that touch no store (the front door, the rules, static files, the OpenAPI document); ``settings``
    are ``Settings``' own."""
    from cli.redis_server import free_port
    from service.app import create_app
    from settings import Settings

    return create_app(Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0",
                               archive_url=f"sqlite:///{root}/archive.sqlite3", **settings))
