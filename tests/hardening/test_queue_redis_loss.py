"""The queues' own Redis (``SCOUNDREL_QUEUE_URL``) lost mid-burst, the data's staying up: nothing accepted is lost.

A submission never needs the queues' Redis to be accepted: its run is
stored with its way to a job in the data (``store.runs.accepting``: the intake, or a
batch's job queued after). So while that Redis is away submissions are
accepted (202, or a batch's 200 with its items' 202) or refused with a 503,
never a 500; and once it is back every accepted run is verified, once: the
dispatcher queues what waits in the intake, the sweeper (``store.queue.pending``)
what names a job the queue lacks, whether the job was never queued or lost
with that Redis's data.
"""

import shutil
import threading
import time

import pytest

from store import load_runs
from store.queue.intake import drain
from store.queue.queues import verify_queue
from tests.support.games import legal_games
from tests.support.stack import Stack

pytestmark = pytest.mark.slow

SETTLE_SECONDS = 60  # the sweeper's timeout (2 s) and a few sweeps, with room for a busy machine


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("queue-loss"), workers=1, queues_apart=True,
                    env={"SCOUNDREL_PENDING_TIMEOUT": "2", "SCOUNDREL_SWEEP_INTERVAL": "0.5"}).start()
    yield running
    running.stop()


class Burst:
    """Submissions sent one after another from a thread: each a single game or a batch of three."""

    def __init__(self, stack, token: str, games: list[dict]):
        self.stack, self.token, self.games = stack, token, games
        self.statuses: list[int] = []
        self.accepted: list[str] = []
        self.thread = threading.Thread(target=self._send, daemon=True)

    def _send(self) -> None:
        for first in range(0, len(self.games), 4):
            single, *batch = self.games[first:first + 4]
            response = self.stack.submit(self.token, single)
            self.statuses.append(response.status_code)
            if response.status_code in (200, 202):
                self.accepted.append(response.json()["id"])
            if batch:
                response = self.stack.post("/v1/runs/batch", json={"runs": batch},
                                           headers={"Authorization": f"Bearer {self.token}"})
                self.statuses.append(response.status_code)
                if response.status_code == 200:
                    self.accepted += [item["run"]["id"] for item in response.json()["results"]
                                      if item["status"] in (200, 202)]
            time.sleep(0.05)

    def __enter__(self) -> "Burst":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.thread.join(120)


def _verified_once(stack, db, run_ids: list[str]) -> None:
    deadline = time.monotonic() + SETTLE_SECONDS
    while any(run is None or run.status == "pending" for run in load_runs(db, run_ids)):
        assert time.monotonic() < deadline, [run.id for run in load_runs(db, run_ids) if run.status == "pending"]
        time.sleep(0.2)
    time.sleep(1.0)  # any second verification would have landed
    for run_id in run_ids:
        assert stack.get(f"/v1/runs/{run_id}").json()["status"] == "verified"
        log = stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
        assert [entry["event"] for entry in log].count("verified") == 1, (run_id, log)


def _lose_its_data(stack) -> None:
    """What a queue Redis lost whole comes back with: nothing (its append-only file gone)."""
    for path in stack.queues.data_dir.iterdir():
        if path.name.startswith("appendonly") or path.suffix == ".rdb":
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def test_submissions_while_the_queues_redis_is_down_are_accepted_and_verified_once(stack, db):
    _, token = stack.register()
    with Burst(stack, token, legal_games(40)) as burst:
        time.sleep(0.5)
        stack.queues.kill()
        time.sleep(1.0)
        health = stack.get("/v1/health")  # no false all-clear, and no 503 while submissions are taken
        time.sleep(1.0)
        stack.queues.start()
    assert health.status_code == 200, health.text
    assert (health.json()["status"], health.json()["queues"]) == ("degraded", "down")
    assert stack.get("/v1/health").json()["queues"] == "up"
    assert set(burst.statuses) <= {200, 202, 503}, burst.statuses
    assert len(burst.accepted) >= 20
    _verified_once(stack, db, burst.accepted)


def test_jobs_lost_with_the_queues_redis_data_are_queued_again(stack, db):
    _, token = stack.register()
    stack.kill_worker()
    games = legal_games(60)[40:]
    with Burst(stack, token, games) as burst:
        pass
    drain(db)  # the intake's runs get their jobs, on a queue about to be lost
    assert verify_queue(db).count > 0
    stack.queues.kill()
    _lose_its_data(stack)
    with Burst(stack, token, legal_games(72)[60:]) as during:
        pass
    stack.queues.start()
    assert verify_queue(db).count == 0
    stack.start_worker()
    assert set(burst.statuses) | set(during.statuses) <= {200, 202, 503}, (burst.statuses, during.statuses)
    _verified_once(stack, db, [*burst.accepted, *during.accepted])
