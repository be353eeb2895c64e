"""The service in the test's own process: the API through Flask's WSGI app, the worker's steps run on demand.

Most tests check HTTP contracts and what a verdict does to the boards: no
gunicorn, no RQ worker process is needed for that. ``InProcessStack`` has
the HTTP side of ``tests.support.stack.Stack`` (``ServiceHttp``: ``get``,
``post``, ``register``, ``submit``, ``wait_final``; and ``until``,
``database``), so a test module is written once and runs on either. Its requests go through a
``requests`` session whose transport hands them to the app (``WsgiTransport``):
the same ``requests.Response`` a test reads from a real server, cookies
and redirects included. Its worker is RQ's burst worker run in the test's
own thread (``work``), as RQ's own tests do: ``wait_final`` runs it until the
run has its verdict; a test that waits on other work of the workers
(webhook deliveries and their retries, a season's close) calls ``work`` or
``until``: a worker's periodic pass is part of ``work``. What the
service logs goes to ``service.log`` in its ``root``, as the processes' logs
go to files there.

A test process's stacks (``InProcessPool``) share one throwaway Redis, a
numbered database each of the stacks in use at once, and the API's apps:
one made for each settings, handed to the next stack with the same
settings with a ``Referee`` of its own.

What needs processes stays on ``Stack``: a killed API or worker, Redis
lost, failover, gunicorn's handling of slow or malformed clients, a clock
moved under ``faketime``, the timers of a running worker (the sweeper,
the dispatcher's window).
"""

import functools
import logging
import os
import signal
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple, TypeVar
from urllib.parse import urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict
from urllib3 import HTTPHeaderDict
from werkzeug.test import Client

import log_lines
import worker.flags
from cli.redis_server import RedisServer
from store.archive.tables import metadata as archive_tables
from tests.support import waiting
from tests.support.service_http import TEST_SETTINGS, ServiceHttp
from tests.support.stores import forget_process_memory
from verification.clairvoyance import SAMPLES, Tally, game_tally

Found = TypeVar("Found")

IDLE_PAUSE = 0.02  # seconds between the first looks of ``InProcessStack.until`` while its worker is idle

# No rate limits in the in-process stacks unless a module sets some (``test_security.py``, which checks the limits,
# their headers and refusals; ``test_flags.py``, where their counters are the one place an address is kept):
# ``TEST_LIMITS`` are far above what a test sends, so engaged they could change no answer a test checks, while
# counting each request against them (a script a limit in Redis, then their windows read for the headers) cost
# a fifth to a half more of the app's CPU a request (2.4 to 2.7 ms of the test's thread against 1.6 to 2.1 ms, in
# four runs of a thousand requests, and a third more of Redis' CPU). The served stacks keep them: there the
# limiter also meets Redis lost (``test_redis_faults.py``).
UNLIMITED = {f"SCOUNDREL_RATE_LIMIT_{scope}": "" for scope in ("ADDRESS", "TOKEN", "PAR", "SERVER_KEY")}

# Where the in-process API answers: no server listens there, so a request that bypasses the stack's session
# (a plain ``requests.get``) fails at once instead of reaching some other service.
BASE = "http://referee.invalid"


@functools.cache
def _kept_tally(seed: str, moves: tuple[str, ...], variant: str, samples: int) -> Tally:
    return game_tally(seed, moves, variant, samples)


def kept_tally(seed: str, moves, variant: str, samples: int = SAMPLES) -> Tally:
    """``verification.clairvoyance.game_tally``, each game's worked out once a test process. A tally is a function
    of the game alone (its orderings drawn from the seed), a tenth of a second of CPU, and the tests deal the same
    few games (``tests.support.games``) to many players, hundreds of times a module: the workers' judging of
    each verified dealt game (``worker.flags``) is no less checked, the first time its game is met."""
    return _kept_tally(seed, tuple(moves), variant, samples)


worker.flags.game_tally = kept_tally


class _Raw:
    """What ``requests`` and its users read off a response's connection as urllib3 has it: the headers (for
    the cookie jar; ``getlist`` for schemathesis), HTTP/1.1; nothing to release."""

    version = 11

    def __init__(self, headers: list[tuple[str, str]]):
        self.headers = HTTPHeaderDict(headers)
        # the cookie jar reads Set-Cookie off http.client's message (``msg.get_all``), which urllib3's dict answers
        self._original_response = SimpleNamespace(msg=self.headers)

    def close(self) -> None:
        pass

    def release_conn(self) -> None:
        pass


def _decoded(body: bytes, encoding: str) -> bytes:
    """The body as ``requests`` hands it over from a server: gzip undone (urllib3 undoes it there)."""
    return zlib.decompress(body, 16 + zlib.MAX_WBITS) if encoding.strip().lower() == "gzip" else body


class WsgiTransport(BaseAdapter):
    """A ``requests`` transport that answers from a WSGI app, as if over HTTP from 127.0.0.1."""

    def __init__(self, app, before: Callable[[], None] = lambda: None):
        """``before``: called before each request (its stack made the one in use)."""
        super().__init__()
        self.client = Client(app, use_cookies=False)  # the session's jar keeps the cookies, as over HTTP
        self.before = before

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        self.before()
        url = urlsplit(request.url)
        body = request.body.encode() if isinstance(request.body, str) else request.body
        answer = self.client.open(url.path, method=request.method, query_string=url.query,
                                  headers=list(request.headers.items()), data=body or b"",
                                  base_url=f"{url.scheme}://{url.netloc}",
                                  environ_base={"REMOTE_ADDR": "127.0.0.1"})
        response = requests.Response()
        response.status_code = answer.status_code
        response.reason = answer.status.partition(" ")[2]
        pairs = list(answer.headers.items())
        merged: dict[str, str] = {}
        for name, value in pairs:
            merged[name] = f"{merged[name]}, {value}" if name in merged else value
        response.headers = CaseInsensitiveDict(merged)
        response._content = _decoded(answer.get_data(), response.headers.get("Content-Encoding", ""))
        answer.close()
        response.raw = _Raw(pairs)
        response.url = request.url
        response.request = request
        response.encoding = requests.utils.get_encoding_from_headers(response.headers)
        return response

    def close(self) -> None:
        pass


def in_process_session() -> requests.Session:
    """A session for the in-process API: no proxy, ``.netrc`` or CA bundle reaches an app answering in this
    process, so none is looked up in the environment (``trust_env``), a sixth of a request's CPU otherwise."""
    session = requests.Session()
    session.trust_env = False
    return session


class InProcessStack(ServiceHttp):
    """One store (a database of the pool's throwaway Redis, an archive in SQLite), the API app and a worker
    run on demand.

    ``env`` holds settings as the processes read them (``SCOUNDREL_*``): they are in ``os.environ`` while the
    stack is the one in use (``InProcessPool.activate``: before each of its requests and its worker's
    steps), since the jobs read their settings from there. A module may use two stacks at once (a second
    store with other settings): each request and each ``work`` makes its own stack the one in use.
    """

    def __init__(self, root: Path, redis: "RedisDatabase", env: dict | None = None,
                 activate: Callable[["InProcessStack"], None] = lambda stack: None, apps: dict | None = None):
        """``apps``: the API apps made before, by their settings, for this stack to take one of (``_app``)."""
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.redis = redis
        self.extra_env = env or {}
        self.base = BASE
        self.http = in_process_session()
        self.log_level: str | None = None  # the service's (SCOUNDREL_LOG_LEVEL), once entered
        self.app = None
        self._db = None
        self._activate = activate
        self._apps = {} if apps is None else apps
        self._last_cleaned: datetime | None = None  # when its worker last cleaned RQ's registries (``work``)

    @property
    def archive_url(self) -> str:
        from settings import sqlite_archive_url

        return self.extra_env.get("SCOUNDREL_ARCHIVE_URL") or sqlite_archive_url(self.root)

    def env(self) -> dict:
        """The settings the processes of ``Stack`` get (its ``env``), but for the servers' own and no rate limits."""
        return {"REDIS_URL": self.redis.url, "SCOUNDREL_ARCHIVE_URL": self.archive_url, **TEST_SETTINGS,
                **UNLIMITED, **self.extra_env}

    def enter(self) -> None:
        """The app and the worker's connection made from its settings (in ``os.environ`` meanwhile)."""
        from settings import Settings

        self._activate(self)
        settings = Settings.from_env()
        self._log = logging.FileHandler(self.root / "service.log", mode="w")
        self._log.setFormatter(log_lines.line_formatter(settings.log_format))
        self._log.addFilter(lambda record: self._in_use())
        self.log_level = settings.log_level.upper()
        logging.getLogger().setLevel(self.log_level)
        logging.getLogger().addHandler(self._log)
        self.app = self._app(settings)
        self.http.mount(BASE, WsgiTransport(self.app, lambda: self._activate(self)))
        self._db = self.database()
        self._db.archive.upgrade()
        self.empty()

    def _app(self, settings):
        """The API app for these settings: one made before for the same settings if there is one (making one
        costs some 30 ms of CPU), given a ``Referee`` of its own, as a new process's app has (what an app keeps
        of its store: the secrets it read, the players of tokens)."""
        from service.app import create_app
        from service.context import Referee
        from store import Database
        from worker.registry import JOBS

        key = tuple(sorted(self.env().items()))
        app = self._apps.get(key)
        if app is None:
            app = self._apps[key] = create_app(settings)
        else:
            app.extensions["referee"] = Referee(settings=settings, db=Database.from_settings(settings, JOBS))
        return app

    def _in_use(self) -> bool:
        """Whether this stack is the one in use, whose log what is logged now belongs to."""
        return os.environ.get("REDIS_URL") == self.redis.url

    def leave(self) -> None:
        """Its store emptied: an archive it shares (a PostgreSQL database) is left as empty as a served stack
        given back leaves it."""
        self._activate(self)
        self.empty()
        logging.getLogger().removeHandler(self._log)
        self._log.close()
        if self._db is not None:
            self._db.close()
            self._db = None
        self.app.extensions["referee"].db.close()
        self.http.close()
        self.http = in_process_session()

    @staticmethod
    def _forget_worker_connection() -> None:
        """The jobs' settings and connection (``worker.process``) are made once a process: made again for
        this stack's settings."""
        from worker import process

        if process.database.cache_info().currsize:
            process.database().close()
        process.database.cache_clear()
        process.settings.cache_clear()

    def empty(self) -> None:
        """As new: Redis flushed, the archive's tables emptied, the service's marks set as a process sets them."""
        from store.base.service_mark import mark_service
        from store.runs.archived_filter import make_whole

        db = self._db
        db.raw.flushdb()
        with db.archive.engine.begin() as connection:
            for table in reversed(archive_tables.sorted_tables):
                connection.execute(table.delete())
        mark_service(db)
        make_whole(db)
        self.http.cookies.clear()

    def now(self) -> float:
        return time.time()

    def database(self):
        """A connection to this stack's store, made the way every process makes one."""
        from settings import Settings
        from store import Database
        from worker.registry import JOBS

        return Database.from_settings(Settings(redis_url=self.redis.url, archive_url=self.archive_url), JOBS)

    # the worker

    def work(self) -> bool:
        """A worker's steps, in this thread: its periodic pass (``worker.runner.periodic_pass``: the sweeps,
        seasons and tournaments closed, webhook retries due), then one burst: the intake dispatched and every
        queued job run (the verdicts, webhook deliveries, par searches), as ``scoundrel worker --burst`` runs
        them. Whether it ran any job."""
        from settings import Settings
        from store.queue import drain
        from worker.runner import VerifyWorker, periodic_pass

        self._activate(self)
        db = self._db
        settings = Settings.from_env()
        periodic_pass(db, settings)
        drain(db)
        handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
        worker = VerifyWorker(db, settings.worker_ttl)
        # RQ's registries cleaned as one long-lived worker cleans them, once in RQ's maintenance interval, not at
        # every burst (a fifth of the CPU of a burst that verifies a run)
        worker.last_cleaned_at = self._last_cleaned
        try:
            return worker.work(burst=True, with_scheduler=False, logging_level="WARNING")
        finally:
            self._last_cleaned = worker.last_cleaned_at
            for number, handler in handlers.items():
                signal.signal(number, handler)

    def until(self, found: Callable[[], Found], what: str, timeout: float = 60.0) -> Found:
        """What ``found()`` returns once it is truthy, the worker run between looks; ``timeout`` only
        ends a wait that has failed (a webhook's receiver, a backoff of the deliveries run on real time).

        A look and an idle worker's steps cost some 8 ms of CPU: while the worker finds nothing to do (a wait
        on the clock: a tournament's start, a flag's cooling), the pauses between looks grow as
        ``tests.support.waiting``'s do, to a quarter of a second; a job run starts them short again."""
        deadline = time.monotonic() + timeout
        pause = IDLE_PAUSE
        while True:
            result = found()
            if result:
                return result
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not in {timeout} s")
            if self.work():
                pause = IDLE_PAUSE
            else:
                time.sleep(pause)
                pause = min(pause * waiting.GROWTH, waiting.LONGEST_PAUSE)


class RedisDatabase(NamedTuple):
    """One of the numbered databases of a Redis server (``url``): a stack's store, as the processes reach it."""

    server: RedisServer
    number: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.server.port}/{self.number}"


class InProcessPool:
    """A test process's in-process stacks: one throwaway Redis they share, a module's stack on its database 0
    (emptied at its start and its end), a second one a module uses meanwhile on database 1, and so on; an
    archive and an app each. The stack in use has its settings in ``os.environ`` (``activate``)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.redis = RedisServer(self.root / "redis", persistent=False)
        self._apps: dict = {}  # the API apps made, by their settings (``InProcessStack._app``)
        self._in_use: list[InProcessStack] = []
        self._active: InProcessStack | None = None
        self._saved_env: dict[str, str | None] = {}
        self._saved_level = logging.getLogger().level

    def activate(self, stack: InProcessStack) -> None:
        """``stack``'s settings in ``os.environ`` (another stack's taken out), and what the process
        remembers of a store forgotten, if another stack was in use: the jobs' connection and settings
        are made again from them."""
        if self._active is stack:
            return
        for name, value in self._saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        for name, value in stack.env().items():
            self._saved_env.setdefault(name, os.environ.get(name))
            os.environ[name] = value
        InProcessStack._forget_worker_connection()
        forget_process_memory()
        logging.getLogger().setLevel(stack.log_level or self._saved_level)
        self._active = stack

    def _restore(self) -> None:
        """``os.environ`` and the log's level as before any stack, the process's memory of them forgotten."""
        for name, value in self._saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self._saved_env.clear()
        logging.getLogger().setLevel(self._saved_level)
        InProcessStack._forget_worker_connection()
        self._active = None

    @contextmanager
    def using(self, env: dict | None = None) -> Iterator[InProcessStack]:
        """A stack with these settings for as long as the ``with`` lasts; stacks used at once have a database
        each."""
        if self.redis.process is None:
            self.redis.start()
        number = min(set(range(16)) - {stack.redis.number for stack in self._in_use})
        stack = InProcessStack(self.root / f"store-{number}", RedisDatabase(self.redis, number), env,
                               self.activate, self._apps)
        if not self._in_use:
            self._saved_level = logging.getLogger().level
        self._in_use.append(stack)
        try:
            stack.enter()
            yield stack
        finally:
            try:
                stack.leave()
            finally:
                self._in_use.remove(stack)
                self._active = None  # the next request or step of a stack still in use activates it again
                if not self._in_use:
                    self._restore()

    def close(self) -> None:
        if self.redis.process is not None:
            self.redis.stop()


def stack_of(request, env: dict | None = None) -> Iterator:
    """The module's stack with these settings: in this process (``InProcessStack``), or, for a module
    marked ``served``, the service's own processes (``Stack``), as empty as a new one either way."""
    if request.node.get_closest_marker("served") is None:
        with request.getfixturevalue("in_process_pool").using(env) as running:
            yield running
        return
    pool = request.getfixturevalue("stack_pool")
    running = pool.take(env=env)
    yield running
    pool.give_back(running)
