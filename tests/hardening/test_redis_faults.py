"""Redis going away: the API answers 503 with Retry-After within 2 seconds,
/v1/health says so, and when Redis is back (same port, from its AOF) the
API and the workers carry on without a restart, with nothing lost. Redis
full (``maxmemory`` under ``noeviction``): every write is the same 503,
health says so, and the workers wait it out and finish their backlog.

The queues' own Redis (``SCOUNDREL_QUEUE_URL``) lost mid-burst, the data's
staying up: nothing accepted is lost. A submission never needs the queues' Redis to be accepted: its run is
stored with its way to a job in the data (``store.runs.accepting``: the intake, or a
batch's job queued after). So while that Redis is away submissions are
accepted (202, or a batch's 200 with its items' 202) or refused with a 503,
never a 500; and once it is back every accepted run is verified, once: the
dispatcher queues what waits in the intake, the sweeper (``store.queue.pending``)
what names a job the queue lacks, whether the job was never queued or lost
with that Redis's data.
"""

import shutil
import signal
import threading
import time
from contextlib import closing

import pytest
import redis
from rq import Worker

from service.errors import RETRY_AFTER_SECONDS
from store import load_runs
from store.queue.intake import drain
from store.queue.queues import verify_queue
from tests.support.commands import run_command
from tests.support.games import assert_verified_once, legal_games, moderator_token, scoundrel_check
from tests.support.stack import Stack

pytestmark = pytest.mark.slow

BUDGET = 2.0  # seconds an answer may take while Redis is down


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("redis-faults"), workers=2, env={
        "SCOUNDREL_PENDING_TIMEOUT": "3", "SCOUNDREL_SWEEP_INTERVAL": "0.5", "SCOUNDREL_WORKER_TTL": "3",
    }).start()
    yield running
    running.stop()


def _check_quick_503s(stack, calls) -> float:
    """Each call answers 503 with Retry-After within the budget; returns the slowest time."""
    slowest = 0.0
    for method, path, options in calls:
        started = time.monotonic()
        response = getattr(stack.http, method)(stack.url(path), timeout=10, **options)
        elapsed = time.monotonic() - started
        slowest = max(slowest, elapsed)
        assert response.status_code == 503, (path, response.status_code, response.text)
        assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
        assert response.headers["Content-Type"].startswith("application/json")
        assert elapsed < BUDGET, (path, elapsed)
    return slowest


def _snapshot(stack, run_ids, player):
    runs = {run_id: stack.get(f"/v1/runs/{run_id}").json() for run_id in run_ids}
    board = stack.get("/v1/leaderboards/classic", params={"limit": 100}).json()
    return runs, board, stack.get(f"/v1/players/{player}/runs", params={"limit": 100}).json()


def test_redis_down_is_a_quick_503_and_back_is_business_as_usual(stack):
    player, token = stack.register()
    games = legal_games(6)
    before = [stack.submit(token, game).json()["id"] for game in games[:3]]
    for run_id in before:
        assert stack.wait_final(run_id)["status"] == "verified"

    stack.kill_redis()
    calls = [
        ("get", "/v1/health", {}),
        ("get", f"/v1/runs/{before[0]}", {}),
        ("get", "/v1/leaderboards/classic", {}),
        ("post", "/v1/runs", {"json": games[3], "headers": {"Authorization": f"Bearer {token}"}}),
        ("post", "/v1/players", {"json": {"name": "late-comer"}}),
    ]
    print(f"slowest 503 while Redis was down: {_check_quick_503s(stack, calls) * 1000:.0f} ms")
    assert stack.get("/v1/health").json()["redis"] == "down"
    time.sleep(1.5)  # the workers notice too

    stack.start_redis()
    assert stack.get("/v1/health").status_code == 200
    after = [stack.submit(token, game).json()["id"] for game in games[3:]]
    for run_id in after:
        assert stack.wait_final(run_id)["status"] == "verified"
    assert all(stack.get(f"/v1/runs/{run_id}").json()["status"] == "verified" for run_id in before)
    assert all(worker.poll() is None for worker in stack.workers), "a worker needed a restart"
    assert scoundrel_check(stack).returncode == 0


def test_a_hung_redis_is_a_503_within_2_seconds_too(stack):
    _, token = stack.register()
    stack.redis.process.send_signal(signal.SIGSTOP)  # accepts connections, never answers
    try:
        calls = [("get", "/v1/health", {}), ("get", "/v1/runs/abc", {}),
                 ("post", "/v1/runs", {"json": legal_games(1)[0], "headers": {"Authorization": f"Bearer {token}"}})]
        print(f"slowest 503 while Redis hung: {_check_quick_503s(stack, calls) * 1000:.0f} ms")
    finally:
        stack.redis.process.send_signal(signal.SIGCONT)
    assert stack.get("/v1/health").status_code == 200


def test_a_redis_restart_keeps_every_run_verdict_and_board_entry(stack):
    player, token = stack.register()
    run_ids = [stack.submit(token, game).json()["id"] for game in legal_games(12)[6:]]
    for run_id in run_ids:
        stack.wait_final(run_id)
    before = _snapshot(stack, run_ids, player)
    time.sleep(1.2)  # appendfsync everysec
    stack.kill_redis()  # SIGKILL: no shutdown work at all
    stack.start_redis()
    assert _snapshot(stack, run_ids, player) == before
    assert scoundrel_check(stack).returncode == 0


def _refused(response, page: bool = False) -> None:
    """A 503 with Retry-After, in the error shape (a page: as a page)."""
    assert response.status_code == 503, (response.request.method, response.url, response.status_code,
                                         response.text[:300])
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    if page:
        assert response.headers["Content-Type"].startswith("text/html")
        return
    body = response.json()
    assert body["code"] == 503 and body["status"] == "Service Unavailable" and body["message"], body


def test_redis_out_of_memory_is_a_503_and_the_workers_wait_it_out(stack):
    player, token = stack.register()
    auth = {"Authorization": f"Bearer {token}"}
    moderator = {"Authorization": f"Bearer {moderator_token(stack, 'oom-moderator')}"}
    games = legal_games(22)
    verified = stack.submit(token, games[0]).json()["id"]
    assert stack.wait_final(verified)["status"] == "verified"
    dispute = stack.post(f"/v1/runs/{verified}/disputes", json={"reason": "too good"}, headers=auth).json()["id"]
    dealt = stack.post("/v1/games", json={"variant": "classic"}, headers=auth).json()

    db = stack.database()
    workers = {worker.name for worker in Worker.all(queue=verify_queue(db))}
    for worker in stack.workers:  # a backlog the workers are in the middle of when Redis fills up
        worker.send_signal(signal.SIGSTOP)
    backlog = [stack.submit(token, game).json()["id"] for game in games[1:21]]
    store = redis.Redis.from_url(stack.redis.url)
    store.config_set("maxmemory-policy", "noeviction")
    store.config_set("maxmemory", 1)
    try:
        for worker in stack.workers:
            worker.send_signal(signal.SIGCONT)
        _refused(stack.submit(token, games[21]))
        _refused(stack.post("/v1/runs/batch", json={"runs": [games[21]]}, headers=auth))
        _refused(stack.post(f"/v1/games/{dealt['id']}/moves", json={"moves": [dealt["legal_moves"][0]]},
                            headers=auth))
        _refused(stack.post(f"/v1/games/{dealt['id']}/forfeit", json={}, headers=auth))
        _refused(stack.post("/v1/games", json={"variant": "classic"}, headers=auth))
        _refused(stack.post("/v1/players", json={"name": "oom-newcomer"}))
        _refused(stack.post(f"/v1/disputes/{dispute}/resolve", json={"decision": "void"}, headers=moderator))
        _refused(stack.get("/daily"), page=True)  # the sealed daily's secret is made on first use: a write
        command = run_command(stack.env(), "moderator", "add", "oom-operator")
        assert command.returncode == 1 and "Traceback" not in command.stderr, command.stderr
        which_redis, failure = command.stderr.strip().splitlines()  # the Redis it used, then the one error line
        assert stack.redis.url in which_redis and "refuses writes" in failure
        health = stack.get("/v1/health")
        assert health.status_code == 503 and health.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
        assert health.json()["status"] != "ok" and health.json()["redis"] == "refusing_writes"
        assert stack.get(f"/v1/runs/{verified}").status_code == 200  # reads go on
        assert stack.get("/v1/daily").status_code == 200
        time.sleep(4)  # the workers run into it, and wait
        assert all(worker.poll() is None for worker in stack.workers), "a worker exited"
    finally:
        store.config_set("maxmemory", 0)

    assert stack.get("/v1/health").json()["status"] == "ok"
    for run_id in backlog:
        assert stack.wait_final(run_id)["status"] == "verified"
    assert all(worker.poll() is None for worker in stack.workers), "a worker needed a restart"
    # the same RQ workers: none quit its work loop (RQ's does on a refused write) to be replaced
    # one the sweeper judged gone while its beats were refused registers again at a beat (each second), which
    # a loaded machine may delay by seconds: a replaced worker (a new name) never matches, however long the wait
    stack.until(lambda: {worker.name for worker in Worker.all(queue=verify_queue(db))} == workers,
                f"the workers {workers} registered again", 30)
    listed = stack.get(f"/v1/players/{player}/runs", params={"limit": 100}).json()
    assert sorted(run["id"] for run in listed["runs"]) == sorted([verified, *backlog])  # nothing refused was kept
    assert stack.get(f"/v1/games/{dealt['id']}", headers=auth).json()["moves"] == []
    assert stack.post("/v1/players", json={"name": "oom-newcomer"}).status_code == 201
    assert scoundrel_check(stack).returncode == 0
    db.close()


# The queues' own Redis lost

SETTLE_SECONDS = 60  # the sweeper's timeout (2 s) and a few sweeps, with room for a busy machine


@pytest.fixture(scope="module")
def apart(tmp_path_factory):
    """A stack whose queues have a Redis of their own (``SCOUNDREL_QUEUE_URL``)."""
    running = Stack(tmp_path_factory.mktemp("queue-loss"), workers=1, queues_apart=True,
                    env={"SCOUNDREL_PENDING_TIMEOUT": "2", "SCOUNDREL_SWEEP_INTERVAL": "0.5"}).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def apart_db(apart):
    with closing(apart.database()) as database:
        yield database


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
    stack.until(lambda: all(run is not None and run.status != "pending" for run in load_runs(db, run_ids)),
                "every accepted run verified", SETTLE_SECONDS)
    time.sleep(1.0)  # any second verification would have landed
    assert_verified_once(db, run_ids)


def _lose_its_data(stack) -> None:
    """What a queue Redis lost whole comes back with: nothing (its append-only file gone)."""
    for path in stack.queues.data_dir.iterdir():
        if path.name.startswith("appendonly") or path.suffix == ".rdb":
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def test_submissions_while_the_queues_redis_is_down_are_accepted_and_verified_once(apart, apart_db):
    _, token = apart.register()
    with Burst(apart, token, legal_games(40)) as burst:
        time.sleep(0.5)
        apart.queues.kill()
        time.sleep(1.0)
        health = apart.get("/v1/health")  # no false all-clear, and no 503 while submissions are taken
        time.sleep(1.0)
        apart.queues.start()
    assert health.status_code == 200, health.text
    assert (health.json()["status"], health.json()["queues"]) == ("degraded", "down")
    assert apart.get("/v1/health").json()["queues"] == "up"
    assert set(burst.statuses) <= {200, 202, 503}, burst.statuses
    assert len(burst.accepted) >= 20
    _verified_once(apart, apart_db, burst.accepted)


def test_jobs_lost_with_the_queues_redis_data_are_queued_again(apart, apart_db):
    _, token = apart.register()
    apart.kill_worker()
    games = legal_games(60)[40:]
    with Burst(apart, token, games) as burst:
        pass
    drain(apart_db)  # the intake's runs get their jobs, on a queue about to be lost
    assert verify_queue(apart_db).count > 0
    apart.queues.kill()
    _lose_its_data(apart)
    with Burst(apart, token, legal_games(72)[60:]) as during:
        pass
    apart.queues.start()
    assert verify_queue(apart_db).count == 0
    apart.start_worker()
    assert set(burst.statuses) | set(during.statuses) <= {200, 202, 503}, (burst.statuses, during.statuses)
    _verified_once(apart, apart_db, [*burst.accepted, *during.accepted])
