"""Failover through Redis Sentinel: the primary SIGKILLed mid-burst loses and duplicates nothing acknowledged.

The API and two workers find the data's Redis through three sentinels
(``SCOUNDREL_SENTINELS``, ``SCOUNDREL_SENTINEL_MASTER``), and acknowledge a
new run only once the replica holds it (``SCOUNDREL_WAIT_REPLICAS=1``).
Clients submit from several threads; the primary is killed. Until the
replica is promoted and has a replica of its own again (the lost primary,
back as its replica), a submission is answered 503 with Retry-After, never
a 500, and a client trying again after it gets its run. Then every run
ever acknowledged is there and verified exactly once, the boards agree
with the runs (``scoundrel check``), and the workers carried on without a
restart. The operator commands find the master through the sentinels too, and
the public log's checkpoints before and after a failover are consistent.
"""

import threading
import time
from typing import NamedTuple

import pytest
import requests
from rq import Worker

from domain.transparency import parse_checkpoint
from service.errors import RETRY_AFTER_SECONDS
from store import Database, Submission, accept_runs, load_runs, record_verdicts
from store.base.service_mark import mark_service
from store.log import archived_size, latest_checkpoint, open_note, prove_consistency, publish, resume_log
from store.log.notes import Signer
from store.queue.pending import pending_count
from store.queue.queues import verify_queue
from tests.log import rfc9162
from tests.support.commands import run_command
from tests.support.games import assert_verified_once, legal_games, scoundrel_check
from tests.support.sentinel import SentinelSetup
from tests.support.stack import Stack
from tests.support.stores import NO_REDIS_URL
from verification import judge
from worker.registry import JOBS

PLAYERS, GAMES_EACH = 6, 12  # the primary is killed once a third are acknowledged: each client has 8 left
RETRY_PAUSE = 0.25  # seconds a client here waits after a 503 (a real one waits its Retry-After)
SETTLE_SECONDS = 60  # for the runs to be verified: the sweeper's timeouts and a few sweeps, on a busy machine


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    root = tmp_path_factory.mktemp("failover")
    running = Stack(root, workers=2, sentinel=SentinelSetup(root / "sentinel"), env={
        "SCOUNDREL_PENDING_TIMEOUT": "3", "SCOUNDREL_SWEEP_INTERVAL": "0.5", "SCOUNDREL_WORKER_TTL": "3",
        "SCOUNDREL_REDIS_TIMEOUT": "0.5", "SCOUNDREL_WAIT_REPLICAS": "1",
    }).start()
    yield running
    running.stop()


class Burst:
    """Players submitting their games from a thread each, as clients do: after a 503 with Retry-After
    the same submission is sent again until a 202 (new) or a 200 (kept by a try that was refused)
    acknowledges its run; any other answer, or none, is a failure."""

    def __init__(self, stack: Stack):
        self.stack = stack
        self.acknowledged: dict[str, str] = {}  # run id → its player
        self.after_a_503: list[str] = []  # runs acknowledged to a client that was answered 503 first
        self.unavailable = 0
        self.failures: list[str] = []
        self.lock = threading.Condition()  # notified at each acknowledgement
        self.threads: list[threading.Thread] = []

    def start(self, players: list[tuple[str, str]], games) -> None:
        self.threads = [threading.Thread(target=self._submit_all, args=(name, token, games[index::len(players)]))
                        for index, (name, token) in enumerate(players)]
        for thread in self.threads:
            thread.start()

    def wait_acknowledged(self, count: int, timeout: float) -> None:
        """Until ``count`` runs are acknowledged: at that very moment, as the clients are told."""
        with self.lock:
            assert self.lock.wait_for(lambda: len(self.acknowledged) >= count, timeout), (
                f"{count} runs acknowledged: not in {timeout} s")

    def join(self) -> None:
        for thread in self.threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in self.threads), "clients still submitting after 120 s"

    def _submit_all(self, player: str, token: str, games) -> None:
        with requests.Session() as session:
            for game in games:
                if not self._submit(session, player, token, game):
                    return

    def _submit(self, session: requests.Session, player: str, token: str, game: dict) -> bool:
        refused = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                response = session.post(self.stack.url("/v1/runs"), json=game, timeout=10,
                                        headers={"Authorization": f"Bearer {token}"})
            except requests.RequestException as error:
                return self._fail(f"no answer: {error}")
            if response.status_code in (200, 202):
                with self.lock:
                    self.acknowledged[response.json()["id"]] = player
                    if refused:
                        self.after_a_503.append(response.json()["id"])
                    self.lock.notify_all()
                return True
            if response.status_code != 503 or response.headers.get("Retry-After") != str(RETRY_AFTER_SECONDS):
                return self._fail(f"{response.status_code} {response.headers.get('Retry-After')} {response.text[:200]}")
            with self.lock:
                self.unavailable += 1
            refused = True
            time.sleep(RETRY_PAUSE)
        return self._fail("still 503 after 60 s")

    def _fail(self, failure: str) -> bool:
        with self.lock:
            self.failures.append(failure)
        return False


def _quiet(db: Database) -> bool:
    """No run pending, no job queued, no worker busy: no verification left to land."""
    workers = Worker.all(queue=verify_queue(db))
    return (not pending_count(db.redis) and not verify_queue(db).count
            and all(worker.get_state() != "busy" for worker in workers))


def _health(stack) -> tuple[str, str | None]:
    """``/v1/health``'s status, and what it says of the replicas (None: nothing, enough of them)."""
    answer = stack.get("/v1/health").json()
    return answer["status"], answer.get("replicas")


@pytest.mark.slow
def test_the_primary_lost_mid_burst_loses_and_duplicates_no_acknowledged_run(stack):
    setup = stack.sentinel
    setup.wait_ready_to_fail_over()
    players = [stack.register() for _ in range(PLAYERS)]
    workers = [(worker.pid, worker) for worker in stack.workers]
    burst = Burst(stack)
    burst.start(players, legal_games(PLAYERS * GAMES_EACH))
    burst.wait_acknowledged(PLAYERS * GAMES_EACH // 3, 30)
    lost = setup.kill_primary()
    setup.wait_promotion(lost)
    # The promoted replica has no replica of its own to WAIT for: new runs are 503 until the lost primary,
    # started again, syncs as its replica; health says so meanwhile.
    stack.until(lambda: _health(stack) == ("degraded", "short"), "health saying the replicas are short", 20)
    setup.rejoin(lost)
    stack.until(lambda: _health(stack) == ("ok", None), "health ok once a replica is back", 20)
    burst.join()

    assert not burst.failures, burst.failures[:5]
    assert burst.unavailable and burst.after_a_503, "the failover refused no submission"
    assert len(burst.acknowledged) == PLAYERS * GAMES_EACH
    db = stack.database()
    try:
        stack.until(lambda: all(run is not None and run.status != "pending"
                                for run in load_runs(db, list(burst.acknowledged))), "every acknowledged run verified",
                    SETTLE_SECONDS)
        stack.until(lambda: _quiet(db), "no verification left to land", SETTLE_SECONDS)
        assert_verified_once(db, list(burst.acknowledged))  # the players' listings below: through the API
    finally:
        db.close()
    for name, _ in players:
        assert stack.get(f"/v1/players/{name}/runs", params={"limit": 100}).json()["total"] == GAMES_EACH
    checked = scoundrel_check(stack)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert [(worker.pid, worker) for worker in stack.workers] == workers
    assert all(worker.poll() is None for _, worker in workers), "a worker exited"


class Watched(NamedTuple):
    """A Sentinel setup and an archive, driven from this process without the service's processes."""

    setup: SentinelSetup
    archive_url: str

    def database(self, **options) -> Database:
        return Database(NO_REDIS_URL, JOBS, archive_url=self.archive_url, sentinels=self.setup.endpoints,
                        sentinel_master=self.setup.master_name, **options)


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    """A Sentinel setup whose master holds the service's mark, as once an API or a worker has started on it,
    and its archive: the module's tests without the service's processes share them (a setup is five servers
    to start, and its sentinels take seconds to know each other)."""
    root = tmp_path_factory.mktemp("watched")
    setup = SentinelSetup(root / "sentinel").start()
    running = Watched(setup, f"sqlite:///{root}/archive.sqlite3")
    db = running.database()
    try:
        db.archive.upgrade()
        mark_service(db)
    finally:
        db.close()
    yield running
    setup.stop()


def test_the_operator_commands_find_the_master_through_the_sentinels(watched):
    env = {**watched.setup.env(), "REDIS_URL": NO_REDIS_URL, "SCOUNDREL_ARCHIVE_URL": watched.archive_url}
    added = run_command(env, "moderator", "add", "mia")
    assert added.returncode == 0, added.stderr
    listed = run_command(env, "moderator", "list")
    assert listed.returncode == 0, listed.stderr
    assert "mia" in listed.stdout
    checked = run_command(env, "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    where = (f"the primary '{watched.setup.master_name}' of the sentinels at "
             f"127.0.0.1:{watched.setup.sentinels[0].port}")
    assert where in checked.stderr.splitlines()[0]


def _verdicts(db: Database, player: str, games) -> None:
    """``games`` accepted and judged in this process, their verdicts recorded (their leaves appended)."""
    accepted = accept_runs(db, player, [Submission(g["seed"], g["variant"], g["moves"]) for g in games],
                           runs_per_job=1000)
    db.raw.delete(verify_queue(db).key)  # judged right here
    runs = [run for run in load_runs(db, [run.id for run, _ in accepted]) if run]
    assert all(record_verdicts(db, [(run, judge(run)) for run in runs]))


def test_checkpoints_before_and_after_a_failover_are_consistent(watched):
    """The public log across a failover: the primary SIGKILLed between two checkpoints, the log goes on from
    the promoted replica, and the checkpoint after is consistent with the one before (RFC 9162's verification,
    ``tests.log.rfc9162``). Leaves reach the archive, so a checkpoint, only once the replica holds them
    (``SCOUNDREL_WAIT_REPLICAS=1``): the log cannot fork."""
    setup = watched.setup
    # WAIT is given half the socket's timeout: 5 s, so that a replica the loaded machine has kept from running
    # for a second still acknowledges (with 1 s, the writes after the rejoin were refused as NotReplicated)
    db = watched.database(wait_replicas=1, socket_timeout=10.0)
    signer = Signer.generate("referee.test/log")
    try:
        setup.wait_ready_to_fail_over()
        games = legal_games(30)
        _verdicts(db, "ann", games[:10])
        before = parse_checkpoint(open_note(_signed(db, signer), signer.verifier))
        _verdicts(db, "bob", games[10:20])  # acknowledged: the replica holds their leaves
        lost = setup.kill_primary()
        setup.wait_promotion(lost)
        setup.rejoin(lost)
        assert resume_log(db) == 20  # the promoted replica kept the log's state: nothing to give back
        _verdicts(db, "cy", games[20:])
        after = parse_checkpoint(open_note(_signed(db, signer), signer.verifier))
        assert (before.size, after.size, archived_size(db)) == (10, 30, 30)
        proof = prove_consistency(db, before.size, after.size)
        assert rfc9162.verify_consistency(before.size, after.size, before.root, after.root, proof)
    finally:
        db.close()


def _signed(db: Database, signer: Signer) -> str:
    """The note of the checkpoint the worker's step signs now."""
    assert publish(db, signer) is not None
    return latest_checkpoint(db)[1]
