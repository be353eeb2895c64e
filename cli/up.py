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
- The banner, once the API answers, is the last thing printed: the
  children log warnings and errors only, unless ``--verbose`` (INFO: a line
  per request) or SCOUNDREL_LOG_LEVEL asks for more.

Before starting anything it binds the API's port itself and hands the
listening socket to the API (so the API that answers there is its own, and a
port in use is a one-line refusal), and picks a Redis that can read the data
directory (``cli.redis_binaries``). While it runs, the Redis URL is in the
data directory, where the other commands find it (``settings``).

The children run in sessions of their own, so a Ctrl-C at the terminal
reaches only ``up``, which can then stop them in that order; on Linux they
are also sent SIGTERM if ``up`` itself is killed, so no orphan keeps the
port or the data directory.
"""

import ctypes
import errno
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypedDict

from settings import REDIS_URL_FILE, Settings

from .api import port_number
from .redis_binaries import NoUsableServer, Server, choose, record

STOP_TIMEOUT = 6.0  # seconds the API and workers get to stop; gunicorn's graceful_timeout is 5
REDIS_STOP_TIMEOUT = 10.0  # seconds Redis gets to flush its AOF before SIGKILL
RESTARTS_PER_MINUTE = 5
TICK = 0.2  # seconds between looks at the children
QUIET = "WARNING"  # the children's log level unless --verbose or SCOUNDREL_LOG_LEVEL says otherwise

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None


def _die_with_parent() -> None:
    """Runs in each child before exec: SIGTERM it when ``up`` goes away, however that happens."""
    if _libc is not None:
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class ChildOptions(TypedDict):
    """The ``subprocess.Popen`` options every child of ``up`` gets."""

    start_new_session: bool
    preexec_fn: Callable[[], None]


CHILD_OPTIONS: ChildOptions = {"start_new_session": True, "preexec_fn": _die_with_parent}


class Refused(Exception):
    """``up`` cannot start as asked; the message says why and what to do."""


def _spawn(args: list[str], env: dict, pass_fds: tuple[int, ...] = ()) -> subprocess.Popen:
    """``python -P -m cli.main ARGS``: the same install as ``up`` itself, whatever PATH says, and whatever the
    current directory holds (``-P``: without it, ``-m`` looks there first, and a ``cli`` folder in it ran instead of
    the service, as the checkout's own modules did for the installed wheel's ``up``)."""
    return subprocess.Popen([sys.executable, "-P", "-m", "cli.main", *args], env=env,
                            stdin=subprocess.DEVNULL, pass_fds=pass_fds, **CHILD_OPTIONS)


def _say(message: str) -> None:
    print(f"scoundrel up: {message}", file=sys.stderr, flush=True)


def _local_address(host: str) -> str:
    """Where a browser on this machine reaches a server bound to ``host``."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _answers(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=0.5) as response:
            return response.status == 200
    except OSError:
        return False


def _listen(host: str, port: int) -> socket.socket:
    """The API's listening socket, bound before anything starts: a port in use refuses at once."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as error:
        raise Refused(f"cannot listen on {host!r}: {error.strerror}") from None
    listener = socket.socket(family, kind, protocol)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does; a listening port still refuses
    try:
        listener.bind(address)
    except OSError as error:
        listener.close()
        if error.errno == errno.EADDRINUSE:
            raise Refused(f"port {port} is already in use on {host} (another scoundrel up, or another server); "
                          f"choose a free one with --port") from None
        raise Refused(f"cannot listen on {host}:{port}: {error.strerror}") from None
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


def _lock(data_dir: Path):
    """Hold ``up.lock`` while running: two Redis servers must never share one AOF."""
    if data_dir.exists() and not data_dir.is_dir():
        raise Refused(f"--data-dir {data_dir} is a file, not a directory")
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

    def __init__(self, host: str, listener: socket.socket, worker_count: int, data_dir: Path,
                 redis_url: str | None, server: Server | None, logs: "Logs", redis_port: int | None = None):
        from .redis_server import RedisServer  # redis-py: loaded by up, not by every command

        self.host, self.listener, self.worker_count, self.data_dir = host, listener, worker_count, data_dir
        self.port = listener.getsockname()[1]
        self.server = server  # the private Redis's binary; None with REDIS_URL
        # on --redis-port, else a free port it picks
        self.redis = None if server is None else RedisServer(data_dir / "redis", port=redis_port, persistent=True,
                                                             binary=server.path)
        self.redis_url = redis_url or self.redis.url  # type: ignore[union-attr]  # one of the two is given
        # the children's archive, unless SCOUNDREL_ARCHIVE_URL names one: SQLite in this data directory
        self.env = {**os.environ, "REDIS_URL": self.redis_url, "SCOUNDREL_DATA_DIR": str(data_dir),
                    "SCOUNDREL_LOG_LEVEL": logs.level}
        self.logs = logs.said
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
            self.listener.close()
            _stop([p for p in (self.api, *self.workers) if p], STOP_TIMEOUT)
            if self.redis:
                (self.data_dir / REDIS_URL_FILE).unlink(missing_ok=True)
                self.redis.stop(REDIS_STOP_TIMEOUT)
        if failure:
            _say(f"{failure}; stopped everything")
            return 1
        _say("stopped")
        return 0

    def _start(self) -> str | None:
        if self.redis and self.server:
            try:
                self.redis.start(**CHILD_OPTIONS)
            except RuntimeError as error:
                return str(error)
            record(self.redis.data_dir, self.server)
            self.redis_url = self.env["REDIS_URL"] = self.redis.url  # its port, if another took the first
            (self.data_dir / REDIS_URL_FILE).write_text(self.redis_url + "\n")
        fd = self.listener.fileno()
        self.api = _spawn(["api", "--fd", str(fd)], self.env, pass_fds=(fd,))
        self.workers = [_spawn(["worker"], self.env) for _ in range(self.worker_count)]
        return None

    def _watch(self) -> str | None:
        assert self.api is not None  # _start() spawned it
        announced = False
        while not self.stop_requested:
            if self.redis and self.redis.process and self.redis.process.poll() is not None:
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
        if self.server:
            data = (f"{self.data_dir} (append-only file)\n"
                    f"  redis    {self.redis_url}: {self.server.label}, {self.server.path}")
        else:
            settings = Settings.from_env(str(self.data_dir))
            data = settings.data_redis if settings.sentinels else f"the Redis at {settings.data_redis}"
        print(f"Scoundrel Referee is up.\n"
              f"  play     {self.base_url}/play\n"
              f"  boards   {self.base_url}/boards\n"
              f"  API      {self.base_url}/v1\n"
              f"  docs     {self.base_url}/v1/docs\n"
              f"  data     {data}\n"
              f"  workers  {self.worker_count}\n"
              f"  logs     {self.logs}\n"
              f"Ctrl-C stops everything.", flush=True)


class Logs(NamedTuple):
    """The children's log level, and what the banner says of it."""

    level: str
    said: str


def _logs(verbose: bool) -> Logs:
    """INFO with ``--verbose``, else SCOUNDREL_LOG_LEVEL when it is set, else QUIET: the person at the
    terminal reads the banner last, then only what needs them (no line per request, no start-up
    chatter of gunicorn, Alembic and RQ)."""
    if verbose:
        return Logs("INFO", "every request, and each process's start-up (--verbose)")
    if os.environ.get("SCOUNDREL_LOG_LEVEL"):
        return Logs(os.environ["SCOUNDREL_LOG_LEVEL"], f"{os.environ['SCOUNDREL_LOG_LEVEL']} (SCOUNDREL_LOG_LEVEL)")
    return Logs(QUIET, "warnings and errors only (--verbose: every request too)")


def run(args) -> int:
    if args.workers < 0:
        _say("--workers must be 0 or more")
        return 2
    if args.workers == 0:
        _say("warning: --workers 0 starts no worker: submissions stay pending and nothing is verified")
    settings = Settings.from_env(args.data_dir)
    data_dir = Path(settings.data_dir).expanduser().resolve()
    redis_url = settings.redis_url if settings.redis_url_given else None
    if redis_url is not None and args.redis_port is not None:
        _say("--redis-port is the private Redis's port, and with REDIS_URL set up starts none: drop one of them")
        return 2
    lock = listener = None
    try:
        listener = _listen(args.host, args.port)
        server = None
        if redis_url is None:
            lock = _lock(data_dir)
            if lock is None:
                raise Refused(f"another scoundrel up is already using {data_dir}")
            server = choose(data_dir / "redis", args.redis_server)
    except (Refused, NoUsableServer) as refusal:
        _say(str(refusal))
        if listener:
            listener.close()
        if lock:
            lock.close()
        return 1
    supervisor = Supervisor(args.host, listener, args.workers, data_dir, redis_url, server, _logs(args.verbose),
                            args.redis_port)
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
    parser.add_argument("--port", type=port_number, default=settings.port,
                        help="API port (default: %(default)s)")
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help="where the private Redis keeps its data and its URL "
                             "(default: SCOUNDREL_DATA_DIR, else the per-user data directory)")
    parser.add_argument("--workers", type=int, default=2, help="verification workers (default: %(default)s)")
    parser.add_argument("--redis-port", type=port_number, metavar="PORT",
                        help="the port of the private Redis, on 127.0.0.1 (default: a free one, picked at start; "
                             "with REDIS_URL there is no private Redis)")
    parser.add_argument("--redis-server", metavar="PATH",
                        help="the redis-server or valkey-server to run (default: one of the version that wrote "
                             "the data directory, else the embedded one)")
    parser.add_argument("--verbose", action="store_true",
                        help="log every request and each process's start-up (INFO); by default the processes log "
                             "warnings and errors only (or as SCOUNDREL_LOG_LEVEL says)")
    parser.set_defaults(func=run)
