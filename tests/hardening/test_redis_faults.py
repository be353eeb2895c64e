"""Redis going away: the API answers 503 with Retry-After within 2 seconds,
/v1/health says so, and when Redis is back (same port, from its AOF) the
API and the workers carry on without a restart, with nothing lost."""

import signal
import time

import pytest

from service.errors import RETRY_AFTER_SECONDS
from tests.support.games import legal_games, scoundrel_check
from tests.support.stack import Stack

BUDGET = 2.0  # seconds an answer may take while Redis is down


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("redis-faults"), workers=2).start()
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
        assert stack.wait_final(run_id, timeout=20)["status"] == "verified"
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
