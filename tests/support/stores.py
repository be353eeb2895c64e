"""A throwaway Redis without the service's processes, for the store's own tests: one server per test
process, emptied for each module, and a ``Database`` on it made as the processes make theirs."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask.testing import FlaskClient

from cli.redis_server import RedisServer
from service.app import create_app
from settings import Settings
from store import Database
from worker.registry import JOBS

# Where no server answers: port 1, which no process of the suite's takes (binding it takes root, and a free port is
# never one below 1024), so connecting there is refused at once. A port merely free a moment ago is not such a place:
# another test process's Redis can start on it meanwhile.
REFUSED_PORT = 1
NO_REDIS_URL = f"redis://127.0.0.1:{REFUSED_PORT}/0"


@contextmanager
def throwaway_redis(root: Path) -> Iterator[str]:
    """The URL of a Redis started under ``root`` (nothing kept on disk), stopped on leaving."""
    server = RedisServer(root, persistent=False).start()
    try:
        yield server.url
    finally:
        server.stop()


def forget_process_memory() -> None:
    """What a process remembers of its store, forgotten as a new process has it, once the store it remembered
    was emptied: the tournaments and sealed days it closed (a tournament's id is used again in the emptied
    store, and one remembered closed was not closed again: its seeds were never revealed), the public log's
    secrets it read."""
    from store.games import dealt
    from store.log import leaves
    from store.tournaments import closing

    dealt._closed_days.clear()
    closing._closed.clear()
    leaves._kept.clear()


def empty(database: Database) -> Database:
    """``database``'s Redis emptied, and the process's memory of what it held forgotten (``forget_process_memory``)."""
    database.redis.flushall()
    forget_process_memory()
    return database


@contextmanager
def emptied_database(url: str, **options) -> Iterator[Database]:
    """A connection to the Redis at ``url``, emptied first (``empty``; ``options``: ``Database``'s own)."""
    database = Database(url, JOBS, **options)
    try:
        yield empty(database)
    finally:
        database.close()


def app_without_redis(root: Path, **settings):
    """The app on a Redis that is not there (``NO_REDIS_URL``) with an archive under ``root``: for the answers
    that touch no store (the front door, the rules, static files, the OpenAPI document); ``settings``
    are ``Settings``' own."""
    return create_app(Settings(redis_url=NO_REDIS_URL,
                               archive_url=f"sqlite:///{root}/archive.sqlite3", **settings))


@contextmanager
def app_client(url: str, root: Path) -> Iterator[tuple[FlaskClient, Database]]:
    """Flask's test client of the API on the Redis at ``url`` (emptied first), its archive under ``root``, no
    rate limits; and a ``Database`` on the same stores: for views' tests, with no processes."""
    settings = Settings(redis_url=url, archive_url=f"sqlite:///{root}/archive.sqlite3", rate_limit_token="",
                        rate_limit_address="")
    with emptied_database(url, archive_url=settings.archive_url) as database:
        database.archive.upgrade()
        yield create_app(settings).test_client(), database
