"""A Redis Cluster losing a master mid-burst: three masters with a replica each, every new run
acknowledged once its replica has it (``SCOUNDREL_WAIT_REPLICAS=1``), clients submitting from
several threads, one master SIGKILLed. While its replica takes over, a
submission is answered 503 with Retry-After (never a 500), and a client trying again after it
gets its run; once the cluster has failed over, every run that was ever acknowledged is there and
verified exactly once, and ``scoundrel check`` finds the boards agreeing with the runs. Until the
lost node is back as the new master's replica, that master's shards refuse new runs (503): there
is no replica to acknowledge them."""

import threading
import time

import pytest

from service.errors import RETRY_AFTER_SECONDS
from store import keys
from store.placing import in_flight, settled
from tests.support.games import legal_games, scoundrel_check
from tests.support.stack import Stack

pytestmark = pytest.mark.slow

PLAYERS, GAMES_EACH = 6, 25


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("failover"), workers=2, cluster=(3, 1), env={
        "SCOUNDREL_PENDING_TIMEOUT": "3", "SCOUNDREL_SWEEP_INTERVAL": "0.5", "SCOUNDREL_WORKER_TTL": "3",
        "SCOUNDREL_REDIS_TIMEOUT": "0.5", "SCOUNDREL_WAIT_REPLICAS": "1",
    }).start()
    yield running
    running.stop()


class Burst:
    """Players submitting their games from a thread each, as clients do: a 503 is tried again after
    its Retry-After (shortened here), and its run is acknowledged by the 202 (or, kept by the try that
    was refused, the 200) of a later try; anything else is a failure."""

    def __init__(self, stack, players, games):
        self.stack, self.players, self.games = stack, players, games
        self.acknowledged: dict[str, str] = {}  # run id → player
        self.unavailable = 0
        self.failures: list[str] = []
        self.lock = threading.Lock()

    def submit_all(self, token: str, player: str, games) -> None:
        import requests

        session = requests.Session()
        for game in games:
            for _ in range(200):
                response = session.post(self.stack.url("/v1/runs"), json=game, timeout=10,
                                        headers={"Authorization": f"Bearer {token}"})
                if response.status_code in (200, 202):  # 200: a try after a 503 found the run kept
                    with self.lock:
                        self.acknowledged[response.json()["id"]] = player
                    break
                if response.status_code == 503 and response.headers.get("Retry-After") == str(RETRY_AFTER_SECONDS):
                    with self.lock:
                        self.unavailable += 1
                    time.sleep(0.1)
                    continue
                with self.lock:
                    self.failures.append(f"{response.status_code} {response.text[:200]}")
                return
            time.sleep(0.01)


def test_a_master_lost_mid_burst_loses_no_acknowledged_run(stack):
    players = [stack.register() for _ in range(PLAYERS)]
    games = legal_games(PLAYERS * GAMES_EACH)
    burst = Burst(stack, players, games)
    threads = [threading.Thread(target=burst.submit_all, args=(token, name, games[index::PLAYERS]))
               for index, (name, token) in enumerate(players)]
    for thread in threads:
        thread.start()
    while len(burst.acknowledged) < PLAYERS * GAMES_EACH // 3:
        time.sleep(0.01)
    victim = stack.cluster.master_of(keys.run(next(iter(burst.acknowledged))))
    ranges = stack.cluster.kill_master(victim)
    stack.cluster.wait_failover(ranges)
    # Its shards' new master has no replica to WAIT for: their submissions are 503 until the lost node,
    # started again, rejoins as its replica (as an operator brings a failed node back).
    victim.start()
    stack.cluster.wait_replicas_synced()
    for thread in threads:
        thread.join(120)
    assert not burst.failures, burst.failures[:5]
    assert len(burst.acknowledged) == PLAYERS * GAMES_EACH
    for run_id in burst.acknowledged:
        run = stack.wait_final(run_id, timeout=60)
        assert run["status"] == "verified", run
    for run_id in list(burst.acknowledged)[:20]:
        log = stack.get(f"/v1/runs/{run_id}/audit-log").json()
        assert [entry["event"] for entry in log["entries"]].count("verified") == 1, log
    for name, _ in players:
        listed = stack.get(f"/v1/players/{name}/runs", params={"limit": 100}).json()
        assert listed["total"] == GAMES_EACH
    # the board steps the failover cut short are finished by the sweeper, once past their grace
    db = stack.database()
    try:
        deadline = time.monotonic() + 60
        while not settled(db):
            assert time.monotonic() < deadline, f"places still owed: {sorted(in_flight(db))[:5]}"
            time.sleep(0.2)
    finally:
        db.close()
    checked = scoundrel_check(stack)
    assert checked.returncode == 0, checked.stdout + checked.stderr
