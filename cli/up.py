"""``scoundrel up``: the whole service from one command.

A tiny supervisor, so that trying the service or running it on one machine
needs no Redis install, no process manager and no second terminal. It starts
a private Redis (unless ``REDIS_URL`` names one), the API (``scoundrel api``)
and N workers (``scoundrel worker``) as child processes, and promises:

- Ctrl-C or SIGTERM stops everything in order: the API and the workers
  first (SIGTERM, SIGKILL after ``STOP_TIMEOUT``), then Redis, which flushes
  its append-only file as it exits. The exit status is then 0.
- A worker that dies is replaced: workers keep no state of their own, so a
  new one simply carries on with the queue. More than
  ``RESTARTS_PER_MINUTE`` deaths in a minute mean the fault is elsewhere
  (Redis unreachable, a broken install): ``up`` stops everything instead.
- If the API or the private Redis dies, restarting it would hide the fault
  from the one person watching: ``up`` says which one died, stops the rest
  and exits with status 1.

The children run in sessions of their own, so a Ctrl-C at the terminal
reaches only ``up``, which can then stop them in that order; on Linux they
are also sent SIGTERM if ``up`` itself is killed, so no orphan keeps the
port or the data directory.
"""

import ctypes
import fcntl
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from settings import Settings, data_dir, sqlite_archive_url

from .redis_server import RedisServer

DATA_DIR = data_dir()
STOP_TIMEOUT = 6.0  # seconds the API and workers get to stop; gunicorn's graceful_timeout is 5
REDIS_STOP_TIMEOUT = 10.0  # seconds Redis gets to flush its AOF before SIGKILL
RESTARTS_PER_MINUTE = 5
TICK = 0.2  # seconds between looks at the children

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None


def _die_with_parent() -> None:
    """Runs in each child before exec: SIGTERM it when ``up`` goes away, however that happens."""
    if _libc is not None:
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


CHILD_OPTIONS = {"start_new_session": True, "preexec_fn": _die_with_parent}


def _spawn(args: list[str], env: dict) -> subprocess.Popen:
    """``python -m cli.main ARGS``: the same install as ``up`` itself, whatever PATH says."""
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], env=env,
                            stdin=subprocess.DEVNULL, **CHILD_OPTIONS)


def _say(message: str) -> None:
    print(f"scoundrel up: {message}", file=sys.stderr, flush=True)


def _local_address(host: str) -> str:
    """Where a browser on this machine reaches a server bound to ``host``."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=0.5) as response:
            return response.status == 200
    except OSError:
        return False


def _lock(data_dir: Path):
    """Hold ``up.lock`` while running: two Redis servers must never share one AOF."""
    data_dir.mkdir(parents=True, exist_ok=True)
    handle = open(data_dir / "up.lock", "w")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def _stop(processes: list[subprocess.Popen], timeout: float) -> None:
    """SIGTERM all at once, then wait; SIGKILL whatever is still there at the deadline."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + timeout
    for process in processes:
        try:
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _say(f"pid {process.pid} did not stop in {timeout:g} s; killing it")
            process.kill()
            process.wait()


class Supervisor:
    """The running service: Redis (when private), the API and the workers."""

    def __init__(self, host: str, port: int, worker_count: int, data_dir: Path, redis_url: str | None):
        self.host, self.port, self.worker_count, self.data_dir = host, port, worker_count, data_dir
        self.redis = None if redis_url else RedisServer(data_dir / "redis", persistent=True)
        self.redis_url = redis_url or self.redis.url
        # the archive, unless SCOUNDREL_ARCHIVE_URL names one: SQLite next to the private Redis
        self.env = {"SCOUNDREL_ARCHIVE_URL": sqlite_archive_url(data_dir), **os.environ, "REDIS_URL": self.redis_url}
        self.api: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.stop_requested = False
        self.deaths: deque[float] = deque()

    @property
    def base_url(self) -> str:
        return f"http://{_local_address(self.host)}:{self.port}"

    def request_stop(self, signum, frame) -> None:
        self.stop_requested = True

    def run(self) -> int:
        """Start everything, watch it until asked to stop or something fails, then stop it all."""
        try:
            failure = self._start() or self._watch()
        finally:
            _stop([p for p in (self.api, *self.workers) if p], STOP_TIMEOUT)
            if self.redis:
                self.redis.stop(REDIS_STOP_TIMEOUT)
        if failure:
            _say(f"{failure}; stopped everything")
            return 1
        _say("stopped")
        return 0

    def _start(self) -> str | None:
        if self.redis:
            try:
                self.redis.start(**CHILD_OPTIONS)
            except RuntimeError as error:
                return str(error)
        self.api = _spawn(["api", "--host", self.host, "--port", str(self.port)], self.env)
        self.workers = [_spawn(["worker"], self.env) for _ in range(self.worker_count)]
        return None

    def _watch(self) -> str | None:
        announced = False
        while not self.stop_requested:
            if self.redis and self.redis.process.poll() is not None:
                return f"Redis exited with status {self.redis.process.returncode} (see {self.redis.data_dir}/redis.log)"
            if self.api.poll() is not None:
                return f"the API exited with status {self.api.returncode}"
            for index, worker in enumerate(self.workers):
                if worker.poll() is not None:
                    if not self._may_restart():
                        return f"workers exited more than {RESTARTS_PER_MINUTE} times in a minute"
                    _say(f"worker {worker.pid} exited with status {worker.returncode}; starting another")
                    self.workers[index] = _spawn(["worker"], self.env)
            if not announced and _answers(f"{self.base_url}/v1/health"):
                self._banner()
                announced = True
            time.sleep(TICK)
        return None

    def _may_restart(self) -> bool:
        now = time.monotonic()
        self.deaths.append(now)
        while self.deaths and self.deaths[0] < now - 60:
            self.deaths.popleft()
        return len(self.deaths) <= RESTARTS_PER_MINUTE

    def _banner(self) -> None:
        data = (f"{self.data_dir} (a private Redis at {self.redis_url}, append-only file)" if self.redis
                else f"the Redis at {_without_password(self.redis_url)} (REDIS_URL)")
        print(f"Scoundrel Referee is up.\n"
              f"  API      {self.base_url}/v1\n"
              f"  docs     {self.base_url}/v1/docs\n"
              f"  data     {data}\n"
              f"  workers  {self.worker_count}\n"
              f"Ctrl-C stops everything.", flush=True)


def run(args) -> int:
    if args.workers < 0:
        _say("--workers must be 0 or more")
        return 2
    data_dir = Path(args.data_dir).expanduser().resolve()
    settings = Settings.from_env()
    redis_url = settings.redis_url if settings.redis_url_given else None
    lock = None
    if redis_url is None:
        lock = _lock(data_dir)
        if lock is None:
            _say(f"another scoundrel up is already using {data_dir}")
            return 1
    supervisor = Supervisor(args.host, args.port, args.workers, data_dir, redis_url)
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    try:
        return supervisor.run()
    finally:
        if lock:
            lock.close()


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "up", help="run everything: Redis, the API and workers",
        description="Run the whole service: a private Redis (unless REDIS_URL is set), the API and workers. "
                    "Ctrl-C stops it all.")
    settings = Settings.from_env()
    parser.add_argument("--host", default=settings.host,
                        help="address the API listens on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=settings.port,
                        help="API port (default: %(default)s)")
    parser.add_argument("--data-dir", default=DATA_DIR,
                        help="where the private Redis keeps its data (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=2, help="verification workers (default: %(default)s)")
    parser.set_defaults(func=run)
