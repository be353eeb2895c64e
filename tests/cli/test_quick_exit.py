"""``scoundrel api`` and ``scoundrel worker`` leave at once when stopped: no interpreter teardown.

The teardown (freeing every module of the service) cost each about a second,
which ``scoundrel up`` waited for on every stop (docs/running.md gives how soon
it stops; tests/deploy/test_up.py times it). A teardown runs the ``atexit``
handlers, so a handler that ``sitecustomize`` registers in every process
tells which processes had one.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis
import requests

from cli.redis_server import free_port

PROBE = """import atexit, os
atexit.register(lambda: open({marker!r}, "a").write(f"{{os.getpid()}}\\n"))
"""


class Probed:
    """``scoundrel ARGS`` with the teardown probe loaded, on ``own_redis``."""

    def __init__(self, tmp_path: Path, redis_url: str, *args: str):
        site = tmp_path / "site"
        site.mkdir(exist_ok=True)
        self.marker = tmp_path / "torn-down"
        (site / "sitecustomize.py").write_text(PROBE.format(marker=str(self.marker)))
        env = {**os.environ, "REDIS_URL": redis_url, "SCOUNDREL_DATA_DIR": str(tmp_path),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen([sys.executable, "-m", "cli.main", *args], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def torn_down(self) -> set[int]:
        return {int(pid) for pid in self.marker.read_text().split()} if self.marker.exists() else set()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        finally:
            self.process.kill()


def wait_for(predicate, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_the_probe_sees_the_teardown_of_a_command_that_has_one(tmp_path, own_redis):
    dealt = Probed(tmp_path, own_redis.url, "deal", "abc")
    assert dealt.process.wait(30) == 0
    assert dealt.process.pid in dealt.torn_down()


def test_a_stopped_worker_leaves_without_a_teardown(tmp_path, own_redis):
    worker = Probed(tmp_path, own_redis.url, "worker")
    client = redis.Redis.from_url(own_redis.url)
    # idle: waiting for a job, its signal handlers in place (RQ registers the worker before it installs them)
    wait_for(lambda: worker.process.poll() is not None or any(
        client.hget(key, "state") == b"idle" for key in client.smembers("rq:workers")), "the worker to wait for jobs")
    assert worker.stop() == 0, worker.process.stderr.read().decode() if worker.process.stderr else ""
    assert worker.process.pid not in worker.torn_down()
    assert client.scard("rq:workers") == 0  # it said goodbye to RQ before leaving


def test_a_stopped_api_master_leaves_without_a_teardown(tmp_path, own_redis):
    port = free_port()
    api = Probed(tmp_path, own_redis.url, "api", "--host", "127.0.0.1", "--port", str(port))

    def answers() -> bool:
        assert api.process.poll() is None, api.process.stderr.read().decode() if api.process.stderr else ""
        try:
            return requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    wait_for(answers, "the API to answer")
    assert api.stop() == 0
    assert api.process.pid not in api.torn_down()
