"""The real service as separate processes: a throwaway Redis, the API under
gunicorn and RQ workers, driven over HTTP as a client would.

Never the shared Redis on 6379: every stack starts its own on a free port
(or a Sentinel setup's, ``tests.support.sentinel``), and its archive is a
SQLite file of its own (or the URL a test passes as
``SCOUNDREL_ARCHIVE_URL``: ``throwaway.postgres`` starts a PostgreSQL).
A test process keeps its stacks in a ``StackPool``: a module gets one as
empty as a new one, most often the one the module before used.
"""

import itertools
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol, TypeVar

import psutil
import requests

from cli.redis_server import RedisServer, free_port
from store.archive.tables import metadata as archive_tables
from store.base.service_mark import mark_service
from store.queue.pending import pending_count
from store.queue.queues import verify_queue
from store.runs.archived_filter import make_whole
from tests.support import preloaded, waiting
from tests.support.sentinel import SentinelSetup
from tests.support.service_http import TEST_SETTINGS, ServiceHttp, with_more_time
from tests.support.stores import NO_REDIS_URL

StackProcess = subprocess.Popen | preloaded.Preloaded  # a store started anew, or the service's processes forked
Moment = TypeVar("Moment")  # what a stack's clock crosses (``started_before``)
Done = TypeVar("Done")  # what a test did before a moment (``started_before``), or found in time (``until``)


class Killable(Protocol):
    """What can be killed at once: a stack, or the stacks of a ``MovedClock``."""

    def kill(self) -> None: ...


Running = TypeVar("Running", bound=Killable)  # what ``started_before`` starts: a stack, or stacks on one clock


class Stack(ServiceHttp):
    def __init__(self, root: Path, workers: int = 1, env: dict | None = None, job_delay: float = 0.0,
                 clock_offset: int = 0, queues_apart: bool = False, sentinel: SentinelSetup | None = None,
                 forks: preloaded.ForkServer | None = None):
        """``job_delay``: seconds each job of the workers sleeps first (``slow_worker``), so a
        fault test can kill a worker mid-job. ``clock_offset``: seconds the API's and the
        workers' clock runs ahead (behind, if negative) of the real one, under Debian's
        ``faketime`` (Redis keeps the real clock), so a test can cross midnight. One Redis holds
        the data and the queues, as ``scoundrel up`` runs it; with ``queues_apart`` the queues have a
        Redis of their own (``queues``, ``SCOUNDREL_QUEUE_URL``), which a test may lose on its own. With
        ``sentinel``, the data's Redis is that setup's master, which every process finds through its
        sentinels (``SCOUNDREL_SENTINELS``), as a deployment with failover does; the stack starts and
        stops the setup, and has no ``redis`` of its own. ``forks``: under ``faketime``, a fork server
        started under the same clock (``MovedClock``'s) that the stack forks its processes from and leaves
        running when it stops, rather than one of its own."""
        self.root = Path(root)
        self.sentinel = sentinel
        self.redis = None if sentinel else RedisServer(self.root / "redis", persistent=True)
        self.queues = RedisServer(self.root / "queues", persistent=True) if queues_apart else None
        self.port = 0  # the API's, picked once the stores are up: a port picked long before it is bound is
        # more likely to be taken meanwhile by one of the other test processes
        self.extra_env = env or {}
        self.api: StackProcess | None = None
        self.workers: list[StackProcess] = []
        self.worker_count = workers
        self.job_delay = job_delay
        self.clock_offset = clock_offset
        self.http = requests.Session()
        self._started: list[StackProcess] = []  # the processes start() made (see ``as_started``)
        self._forks = forks  # under ``faketime``, the fork server of the stack's processes
        self._own_forks = forks is None  # whether the stack started it (and stops it)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def archive_url(self) -> str:
        from settings import sqlite_archive_url

        return self.extra_env.get("SCOUNDREL_ARCHIVE_URL") or sqlite_archive_url(self.root)

    # processes

    def _queue_env(self) -> dict:
        return {"SCOUNDREL_QUEUE_URL": self.queues.url} if self.queues else {}

    def _data_env(self) -> dict:
        if self.sentinel:  # the sentinels name the data's Redis: a process reaching past them fails, finding none
            return {"REDIS_URL": NO_REDIS_URL, **self.sentinel.env()}
        return {"REDIS_URL": self.redis.url}

    def env(self) -> dict:
        return {**os.environ, **self._data_env(), **self._queue_env(), **TEST_SETTINGS,
                "SCOUNDREL_ARCHIVE_URL": self.archive_url, "SCOUNDREL_API_WORKERS": "1", **self.extra_env}

    def _clock(self) -> dict:
        """The environment that runs a process under ``faketime``'s library, ``clock_offset`` seconds off
        (``faketime_env``)."""
        return faketime_env(self.clock_offset) if self.clock_offset else {}

    def now(self) -> float:
        """The service's time (seconds since 1970): the real clock plus ``clock_offset``."""
        return time.time() + self.clock_offset

    def _spawn(self, *args: str, log: str, module: str = "cli.main") -> StackProcess:
        """``python -m module args``, its output appended to ``log``: forked from the interpreter that has
        imported the service (``tests.support.preloaded``); under ``faketime``, from a fork server of the
        stack's own started under it, or the one it was given (its library is loaded when a process starts, and
        a forked one keeps it): a stack so costs about 0.5 s of CPU less than with its API and worker started
        anew."""
        if not self.clock_offset:
            return preloaded.start(module, list(args), self.env(), self.root / log)
        if self._own_forks and (self._forks is None or self._forks.process.poll() is not None):
            self._forks = preloaded.ForkServer({**os.environ, **self._clock()})
        log_path = self.root / log
        return self._forks.start(module, list(args), {**self.env(), **self._clock()}, log_path, log_path)

    def start(self, fill: Callable[[], object] | None = None) -> "Stack":
        """Start the stores, then (after ``fill``, if given: a test filling the stores first) the processes."""
        self.root.mkdir(parents=True, exist_ok=True)
        (self.sentinel or self.redis).start()
        if self.queues:
            self.queues.start()
        if fill is not None:
            fill()
        self.port = self.port or free_port()
        self.start_api()
        for _ in range(self.worker_count):
            self.start_worker()
        try:
            self.wait_healthy()
        except RuntimeError:
            self.stop()  # no fixture teardown follows a failed setup: leave no process behind
            raise
        self._started = self._processes()
        return self

    def _processes(self) -> list:
        data = self.sentinel.processes() if self.sentinel else [self.redis.process]
        return [*data, *([self.queues.process] if self.queues else []), self.api, *self.workers]

    def start_api(self) -> None:
        self.api = self._spawn("api", "--port", str(self.port), log="api.log")

    def kill_api(self) -> None:
        """SIGKILL the API's gunicorn arbiter; its worker process, orphaned, leaves within a second or
        two (gunicorn's workers watch their parent): back once the port refuses connections."""
        self.api.kill()
        self.api.wait()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
            except OSError:
                return
            time.sleep(0.1)
        raise RuntimeError("the API's port still answers after its arbiter was killed")

    def start_worker(self, dispatch_delay: float = 0.0) -> StackProcess:
        """One more worker; ``dispatch_delay``: seconds its dispatcher sleeps between reading the
        intake's head and taking it (``slow_worker``), so a fault test can kill it there."""
        log = f"worker-{len(self.workers)}.log"
        if self.job_delay or dispatch_delay:
            worker = self._spawn(str(self.job_delay), str(dispatch_delay), log=log,
                                 module="tests.support.slow_worker")
        else:
            worker = self._spawn("worker", log=log)
        self.workers.append(worker)
        return worker

    def kill_worker(self, index: int = 0) -> None:
        """SIGKILL one worker: no chance to finish or hand back its job."""
        self.workers[index].kill()
        self.workers[index].wait()

    def kill_redis(self) -> None:
        self.redis.kill()

    def start_redis(self) -> None:
        """Redis again on the same port, from its append-only file."""
        self.redis.start()

    def wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.api.poll() is not None:
                raise RuntimeError(f"API exited: {(self.root / 'api.log').read_text()[-2000:]}")
            try:
                if self.http.get(self.url("/v1/health"), timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError("API not healthy in time")

    def stop(self) -> None:
        """A quick shutdown: nothing of a throwaway stack is kept, so no one waits.

        SIGQUIT is gunicorn's quick shutdown and SIGINT an RQ worker's; the
        graceful SIGTERM took about 3 s each, over a minute of a serial run.
        """
        for process, quick in [(self.api, signal.SIGQUIT), *((worker, signal.SIGINT) for worker in self.workers)]:
            if process and process.poll() is None:
                process.send_signal(quick)
        for process in [self.api, *self.workers]:
            if process:
                try:
                    process.wait(3)
                except subprocess.TimeoutExpired:
                    process.kill()
        if self._forks is not None and self._own_forks:
            self._forks.close()
        (self.sentinel or self.redis).stop()
        if self.queues:
            self.queues.stop()
        self.http.close()

    def kill(self) -> None:
        """SIGKILL the API (its gunicorn workers first) and the workers, then stop Redis: for a stack
        under ``faketime``, where the quick shutdowns of ``stop`` go through timed waits that never
        return, so that it waits 5 s for the API and 10 s for each worker before killing them."""
        for process in [self.api, *self.workers]:
            if process and process.poll() is None:
                for child in psutil.Process(process.pid).children(recursive=True):
                    child.kill()
                process.kill()
                process.wait()
        self.stop()

    def as_started(self) -> bool:
        """Whether exactly the processes ``start`` made are running: none killed, restarted or added."""
        running = self._processes()
        return running == self._started and all(process.poll() is None for process in running)

    def empty(self, timeout: float = 5.0) -> bool:
        """Back to what ``start`` left, for the next module to use: the queue worked off, then Redis
        (but for what the running processes keep there), the archive and the logs emptied. False
        (and nothing emptied) if the processes are not the ones started, or the workers still have
        work after ``timeout`` seconds."""
        if not self.as_started():
            return False
        db = self.database()
        try:
            deadline = time.monotonic() + timeout
            while self.workers and not idle(db):  # with no worker, nothing is left to finish
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.05)
            _forget_all_but_the_workers(db)
            mark_service(db)  # as the API and every worker do when they start
            with db.archive.engine.begin() as connection:
                for table in reversed(archive_tables.sorted_tables):
                    connection.execute(table.delete())
            make_whole(db)  # of the empty archive, as the API and every worker do when they start
        finally:
            db.close()
        for log in self.root.glob("*.log"):
            log.write_bytes(b"")  # the processes append (O_APPEND): they write on from the start
        self.http.cookies.clear()
        return True

    def database(self):
        """A connection to this stack's Redis, made the way every process makes one."""
        from settings import Settings
        from store import Database
        from worker.registry import JOBS

        data = (dict(redis_url=NO_REDIS_URL, sentinels=self.sentinel.endpoints,
                     sentinel_master=self.sentinel.master_name) if self.sentinel else dict(redis_url=self.redis.url))
        return Database.from_settings(Settings(**data, archive_url=self.archive_url,
                                               queue_url=self.queues.url if self.queues else ""), JOBS)

    def work(self) -> bool:
        """Nothing: the stack's workers work on their own (``InProcessStack.work`` runs a burst)."""
        return False

    def until(self, found: Callable[[], Done], what: str, timeout: float = 120.0) -> Done:
        """What ``found()`` returns once it is truthy (as ``InProcessStack.until``: the workers meanwhile
        at work in their processes, looked at less often as the wait goes on: ``tests.support.waiting``);
        ``timeout`` only ends a wait that has failed."""
        return waiting.until(found, what, timeout)


def faketime_env(clock_offset: int) -> dict:
    """The environment that runs a process under ``faketime``'s library, ``clock_offset`` seconds off (what
    the ``faketime`` command sets, without its wrapper process in between, so a signal reaches the service's
    process itself).

    libfaketime 0.9.10 moves the monotonic clock too (without that, ``time.sleep``
    fails), and a thread's timed wait then never returns: a worker's sweeper timer
    does not fire in such a stack, so a test of it calls the sweep itself.
    """
    library = next(Path("/usr/lib").glob("*/faketime/libfaketimeMT.so.1"), None)
    if library is None:
        raise RuntimeError("faketime is not installed (Debian's package faketime)")
    return {"LD_PRELOAD": str(library), "FAKETIME": f"{clock_offset:+d}"}


class MovedClock:
    """Stacks whose clock runs ``clock_offset`` seconds off the real one, all forked from one fork server
    started under ``faketime`` (such a server imports the service: about 1.3 s of CPU, more than the rest of
    a stack's start, ``START_CPU``), so that they cross the same moment."""

    def __init__(self, root: Path, clock_offset: int):
        self.root = Path(root)
        self.clock_offset = clock_offset
        self.forks = preloaded.ForkServer({**os.environ, **faketime_env(clock_offset)})
        self.stacks: list[Stack] = []

    def start(self, name: str, **options) -> Stack:
        """A stack on this clock (``options``: ``Stack``'s own), started."""
        stack = Stack(self.root / name, clock_offset=self.clock_offset, forks=self.forks, **options)
        self.stacks.append(stack)
        return stack.start()

    def kill(self) -> None:
        """Every stack killed (``Stack.kill``), then the fork server stopped."""
        for stack in self.stacks:
            stack.kill()
        self.forks.close()


def started_before(start: Callable[[int], tuple[Running, Moment]], before: Callable[[Running, Moment], Done | None],
                   seconds: int, tries: int) -> tuple[Running, Done]:
    """A stack (or the stacks of a ``MovedClock``) whose clock crosses a moment (a midnight, a month's end) once
    a test has done what it must before it, and what that was.

    ``start(seconds)`` starts a stack whose clock is ``seconds`` before a moment, and returns both; ``before``
    does the test's part before the moment, and returns None where the moment came first: then another
    stack starts with twice the time (``with_more_time``). A stack given up is killed (under faketime a
    quick shutdown never ends).
    """
    def attempt(_: int, seconds: int) -> tuple[Running, Done] | None:
        stack, moment = start(seconds)
        try:
            done = before(stack, moment)
        except BaseException:
            stack.kill()
            raise
        if done is None:
            stack.kill()
            return None
        return stack, done

    return with_more_time(attempt, seconds, tries, "what comes before the moment")


# RQ's registrations of the running workers: the workers', kept for as long as they run
WORKER_REGISTRATIONS = (b"rq:worker:", b"rq:workers")


def _forget_all_but_the_workers(db) -> None:
    """Every key of the data and the queues deleted but the workers' registrations."""
    for client in dict.fromkeys([db.raw, db.queue_redis]):
        doomed = [key for key in client.scan_iter(count=1000) if not key.startswith(WORKER_REGISTRATIONS)]
        for start in range(0, len(doomed), 1000):
            client.delete(*doomed[start:start + 1000])


def idle(db) -> bool:
    """No run pending, no job queued or running."""
    from rq.registry import StartedJobRegistry

    return (not pending_count(db.redis) and not verify_queue(db).count
            and not StartedJobRegistry(queue=verify_queue(db)).count)


# Seconds of CPU a stack takes to start (Redis, and the API's two processes and a worker forked from the fork
# server: 0.73 to 0.75 s, measured 2026-12-06, the fork server's own start once a test process aside); and what
# an idle one costs, in cores: its worker's sweeper (a sweep's CPU, every sweep interval) and everything else.
START_CPU = 0.75
SWEEP_CPU = 0.0015
OTHER_IDLE = 0.006


def _idle_cost(stack: Stack) -> float:
    """The share of a core an idle ``stack`` costs (measured on idle stacks, 2026-12)."""
    from settings import Settings

    sweep_interval = float(stack.extra_env.get("SCOUNDREL_SWEEP_INTERVAL", Settings.sweep_interval))
    return OTHER_IDLE + stack.worker_count * SWEEP_CPU / sweep_interval


class StackPool:
    """Stacks kept running from one test module to the next in a test process.

    Starting a stack costs about 2.5 s of CPU (Redis, gunicorn and its worker,
    an RQ worker, each importing the service and upgrading the archive), and
    most modules ask for the same one. A module takes a stack with the
    settings it needs and gives it back when it ends; given back, the stack
    is emptied (``Stack.empty``) and the next module asking for the same
    settings gets it, as empty as a new one. A stack whose processes a test
    killed or added to is stopped instead, and so is the least recently used
    one beyond ``keep``: a test process meets about eight settings (the
    archive's, the dealt games', no workers…). An idle stack costs well
    under 1 % of a core with the usual sweeps, more with the 0.3 s sweeps
    some modules ask for, so an idle stack is also stopped once it has cost
    idle what starting it again would (``_idle_cost``).
    """

    def __init__(self, root: Path, keep: int = 8):
        self.root = Path(root)
        self.keep = keep
        # each idle stack by its settings, oldest first, with when it will have cost idle what a new one would
        self.idle: dict[tuple, tuple[Stack, float]] = {}
        self._names = itertools.count()

    @staticmethod
    def _settings(workers: int, env: dict | None, job_delay: float, clock_offset: int) -> tuple:
        return workers, job_delay, clock_offset, tuple(sorted((env or {}).items()))

    def take(self, workers: int = 1, env: dict | None = None, job_delay: float = 0.0, clock_offset: int = 0) -> Stack:
        """A running, empty stack with these settings (``Stack``'s own arguments)."""
        settings = self._settings(workers, env, job_delay, clock_offset)
        kept = self.idle.pop(settings, None)
        self._stop_stale()
        if kept:
            return kept[0]
        return Stack(self.root / f"stack-{next(self._names)}", workers, env, job_delay, clock_offset).start()

    def give_back(self, stack: Stack) -> None:
        if not stack.empty():
            stack.stop()
            return
        settings = self._settings(stack.worker_count, stack.extra_env, stack.job_delay, stack.clock_offset)
        self.idle[settings] = stack, time.monotonic() + START_CPU / _idle_cost(stack)
        while len(self.idle) > self.keep:
            self._stop(next(iter(self.idle)))
        self._stop_stale()

    def _stop_stale(self) -> None:
        now = time.monotonic()
        for settings in [settings for settings, (_, stale_at) in self.idle.items() if stale_at <= now]:
            self._stop(settings)

    def _stop(self, settings: tuple) -> None:
        self.idle.pop(settings)[0].stop()

    def close(self) -> None:
        """Stops every stack kept, side by side: each stop is mostly waiting for processes to exit."""
        with ThreadPoolExecutor(len(self.idle) or 1) as stopping:
            list(stopping.map(Stack.stop, [stack for stack, _ in self.idle.values()]))
        self.idle.clear()
