"""``scoundrel worker --check``: the worker container's health check, true while a worker of this host beats.

The worker here is the service's own (``worker.runner.VerifyWorker``), registered and beating on the
test's Redis as ``scoundrel worker`` registers it (RQ's ``register_birth`` and ``heartbeat``), in the test
process; that a stopped worker process takes its registration along is ``test_as_processes.py``'s.
"""

import socket

from settings import Settings
from store import Database
from tests.support.commands import run_command
from tests.support.stores import NO_REDIS_URL
from worker.registry import JOBS
from worker.runner import VerifyWorker


def check(redis_url: str, tmp_path) -> tuple[int, str]:
    checked = run_command({"REDIS_URL": redis_url, "SCOUNDREL_DATA_DIR": str(tmp_path)}, "worker", "--check")
    return checked.returncode, checked.stdout + checked.stderr


def test_check_is_healthy_while_a_worker_of_this_host_beats_and_not_before_or_after(tmp_path, own_redis):
    host = socket.gethostname()
    status, said = check(own_redis.url, tmp_path)
    assert status == 1 and f"no worker on {host} has beaten" in said and said.count("\n") == 1

    settings = Settings(redis_url=own_redis.url, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3")
    db = Database.from_settings(settings, JOBS)
    worker = VerifyWorker(db, settings.worker_ttl)
    try:
        worker.register_birth()
        worker.heartbeat()
        status, said = check(own_redis.url, tmp_path)
        assert status == 0 and f"1 worker alive on {host}" in said
    finally:
        worker.register_death()

    status, said = check(own_redis.url, tmp_path)
    assert status == 1
    db.close()


def test_check_without_redis_is_unhealthy_in_one_line(tmp_path):
    status, said = check(NO_REDIS_URL, tmp_path)
    assert status == 1 and said.count("\n") == 1 and "cannot reach Redis" in said
