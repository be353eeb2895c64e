"""``scoundrel up`` for real: a private Redis, the API and workers as processes.

Every test starts ``up`` on a free port with its own data directory (never
the shared Redis on 6379) and checks what a user sees: a working API whose
submissions get verified, a quick clean stop on SIGTERM or Ctrl-C, data that
survives a restart, and the supervision policy (workers are replaced, a dead
API stops everything).
"""

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
import requests

from cli.redis_server import RedisServer, free_port
from scoundrel.strategies import play_game

STOP_WITHIN = 10.0  # seconds from the signal until every process is gone


class Up:
    """One ``scoundrel up`` process and the processes it started."""

    def __init__(self, data_dir, workers: int = 2, env: dict | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data_dir.parent / f"up-{self.port}.log"
        environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
        environment.update({"SCOUNDREL_API_WORKERS": "1", **(env or {})})
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "up", "--port", str(self.port), "--data-dir", str(data_dir),
                 "--workers", str(workers)],
                env=environment, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"scoundrel up exited:\n{self.output()}"
            try:
                if requests.get(f"{self.base}/v1/health", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError(f"no healthy API within {timeout} s:\n{self.output()}")

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def children(self, role: str) -> list[psutil.Process]:
        """Direct children whose command line names ``role`` ("api", "worker" or "redis-server")."""
        found = []
        for child in psutil.Process(self.process.pid).children():
            try:
                words = " ".join(child.cmdline()).split()  # redis-server rewrites its title into one string
                if any(word == role or word.endswith("/" + role) for word in words):
                    found.append(child)
            except psutil.NoSuchProcess:
                pass
        return found

    def wait_exit(self, timeout: float = STOP_WITHIN) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"scoundrel up still running after {timeout} s:\n{self.output()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()


def gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def wait_all_gone(processes: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [process for process in processes if not gone(process)]
        if not left:
            return []
        time.sleep(0.05)
    return left


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def start_up(tmp_path):
    """Start ``scoundrel up`` (stopped again at the end of the test, whatever happens)."""
    started = []

    def start(data_dir=None, **options) -> Up:
        up = Up(data_dir or tmp_path / "data", **options)
        started.append(up)
        up.wait_healthy()
        return up

    yield start
    for up in started:
        up.stop()


def register(base: str, name: str) -> str:
    response = requests.post(f"{base}/v1/players", json={"name": name}, timeout=5)
    assert response.status_code == 201, response.text
    assert response.json()["name"] == name
    return response.json()["token"]


def submit_and_wait_for_verdict(base: str, token: str, seed: str) -> dict:
    game = {"seed": seed, "moves": play_game(seed, "classic")}
    response = requests.post(f"{base}/v1/runs", json=game, headers={"Authorization": f"Bearer {token}"}, timeout=5)
    assert response.status_code == 202, response.text
    run_id = response.json()["id"]

    def verdict():
        run = requests.get(f"{base}/v1/runs/{run_id}", timeout=5).json()
        return run if run["status"] != "pending" else None

    return wait_for(verdict, 30, "a worker to verify the run")


def test_up_serves_verifies_stops_on_sigterm_and_keeps_the_data(start_up, tmp_path):
    up = start_up(workers=2)
    assert "Scoundrel Referee is up" in wait_for(lambda: "is up" in up.output() and up.output(), 10, "the banner")
    assert f"{up.base}/v1/docs" in up.output()
    assert len(up.children("worker")) == 2 and len(up.children("api")) == 1 and len(up.children("redis-server")) == 1

    token = register(up.base, "ada_lovelace")
    run = submit_and_wait_for_verdict(up.base, token, "abc")
    assert run["status"] in ("verified", "rejected")

    processes = up.descendants()
    started = time.monotonic()
    up.process.send_signal(signal.SIGTERM)
    assert up.wait_exit() == 0, up.output()
    assert wait_all_gone(processes, STOP_WITHIN - (time.monotonic() - started)) == []

    again = start_up(tmp_path / "data")
    kept = requests.get(f"{again.base}/v1/runs/{run['id']}", timeout=5)
    assert kept.status_code == 200
    assert kept.json() == run


def test_ctrl_c_stops_everything_too(start_up):
    up = start_up(workers=1)
    processes = up.descendants()
    up.process.send_signal(signal.SIGINT)
    assert up.wait_exit() == 0, up.output()
    assert wait_all_gone(processes, STOP_WITHIN) == []


def test_a_worker_that_dies_is_replaced(start_up):
    up = start_up(workers=2)
    victim = up.children("worker")[0]
    victim.kill()
    wait_for(lambda: len(up.children("worker")) == 2 and victim.pid not in [w.pid for w in up.children("worker")],
             10, "a new worker")
    token = register(up.base, "bob")
    assert submit_and_wait_for_verdict(up.base, token, "replaced")["status"] in ("verified", "rejected")


def test_a_dead_api_stops_everything_with_status_1(start_up):
    up = start_up(workers=1)
    processes = up.descendants()
    up.children("api")[0].kill()
    assert up.wait_exit() == 1
    assert "the API exited" in up.output()
    assert wait_all_gone(processes, STOP_WITHIN) == []


def test_with_redis_url_up_uses_that_redis_and_starts_none(start_up, tmp_path):
    redis = RedisServer(tmp_path / "own-redis", persistent=False).start()
    try:
        up = start_up(workers=1, env={"REDIS_URL": redis.url})
        assert up.children("redis-server") == []
        token = register(up.base, "cyd")
        assert submit_and_wait_for_verdict(up.base, token, "elsewhere")["status"] in ("verified", "rejected")
        assert redis.process.poll() is None
        up.stop()
        assert redis.process.poll() is None  # not ours to stop
    finally:
        redis.stop()


def test_a_second_up_on_the_same_data_dir_refuses(start_up, tmp_path):
    start_up(tmp_path / "data", workers=0)
    second = Up(tmp_path / "data", workers=0)
    assert second.wait_exit() == 1
    assert "already using" in second.output()
