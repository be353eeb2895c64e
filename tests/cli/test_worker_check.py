"""``scoundrel worker --check``: the worker container's health check, true while a worker of this host beats."""

import os
import signal
import socket
import subprocess
import sys
import time

import redis


def scoundrel(redis_url: str, tmp_path, *args: str, **options) -> subprocess.Popen:
    env = {**os.environ, "REDIS_URL": redis_url, "SCOUNDREL_DATA_DIR": str(tmp_path)}
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **options)


def check(redis_url: str, tmp_path) -> tuple[int, str]:
    checked = scoundrel(redis_url, tmp_path, "worker", "--check")
    out, err = checked.communicate(timeout=60)
    return checked.returncode, out + err


def test_check_is_healthy_while_a_worker_of_this_host_beats_and_not_before_or_after(tmp_path, own_redis):
    host = socket.gethostname()
    status, said = check(own_redis.url, tmp_path)
    assert status == 1 and f"no worker on {host} has beaten" in said and said.count("\n") == 1

    worker = scoundrel(own_redis.url, tmp_path, "worker")
    try:
        client = redis.Redis.from_url(own_redis.url)
        deadline = time.monotonic() + 30
        while client.scard("rq:workers") == 0:
            assert worker.poll() is None and time.monotonic() < deadline, "the worker did not register"
            time.sleep(0.05)
        status, said = check(own_redis.url, tmp_path)
        assert status == 0 and f"1 worker alive on {host}" in said
    finally:
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(30) == 0

    status, said = check(own_redis.url, tmp_path)
    assert status == 1


def test_check_without_redis_is_unhealthy_in_one_line(tmp_path):
    status, said = check("redis://127.0.0.1:1/0", tmp_path)
    assert status == 1 and said.count("\n") == 1 and "cannot reach Redis" in said
