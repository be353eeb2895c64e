"""A worker killed mid-job loses nothing: once a worker runs again, every
affected run reaches a final status within 30 seconds.

Each job sleeps first (``Stack(job_delay=…)``, a test-only worker) so the kill
lands while a run is being verified; the sweeper re-queues what the dead
worker held, without waiting for RQ's own abandoned-job detection.
"""

import time

import pytest

from tests.support.games import legal_games, scoundrel_check
from tests.support.stack import Stack

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def slow_stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("crash"), workers=1, job_delay=1.5, env={
        "SCOUNDREL_JOB_TIMEOUT": "3", "SCOUNDREL_PENDING_TIMEOUT": "4", "SCOUNDREL_SWEEP_INTERVAL": "0.5",
    }).start()
    yield running
    running.stop()


def test_a_worker_killed_mid_job_loses_no_run(slow_stack):
    _, token = slow_stack.register()
    run_ids = [slow_stack.submit(token, game).json()["id"] for game in legal_games(3)]
    time.sleep(0.7)  # the worker is inside the first job's delay now
    first = slow_stack.get(f"/v1/runs/{run_ids[0]}").json()
    assert first["status"] == "pending"
    slow_stack.kill_worker(0)
    restarted = time.monotonic()
    slow_stack.start_worker()
    runs = [slow_stack.wait_final(run_id, timeout=30) for run_id in run_ids]
    assert time.monotonic() - restarted < 30
    assert {run["status"] for run in runs} <= {"verified", "rejected"}
    assert all(run["status"] == "verified" for run in runs)
    result = scoundrel_check(slow_stack, "--pending-limit", "60")
    assert result.returncode == 0, result.stderr


def test_the_sweeper_counts_its_requeues(slow_stack):
    metrics = slow_stack.get("/metrics").text
    line = next(line for line in metrics.splitlines() if line.startswith("scoundrel_requeues_total"))
    assert float(line.split()[-1]) >= 1
