"""``scoundrel move-to-cluster``: a one-Redis store copied into a Redis Cluster reads the same there.

A one-Redis stack is filled (players, open runs on a seed, a dealt game, the
boards they make), its API and worker stopped; its data is copied into a
fresh cluster before a stack on that cluster starts its processes, over the
same archive. Every read over HTTP answers as it did, and ``scoundrel check``
finds nothing wrong; a run left pending (its job on the one Redis's queue,
which is not moved) is in its shard's pending index and intake on the
cluster, for the sweeper and the dispatcher. A move stopped part way and run again carries on; a dry
run writes nothing; a cluster holding other data is refused.
"""

import signal
import subprocess
import sys

import pytest
import redis
from redis.cluster import RedisCluster

from store import keys, shards
from store.cluster_move import MoveRefused, move
from store.history import hot_run
from tests.audit.conftest import submit_final
from tests.support.games import games_by_score, play_dealt
from tests.support.stack import Stack
from throwaway.redis_cluster import RedisClusterServer

from .test_cli_errors import assert_one_line_failure

SEED = "moving-day"


def scoundrel(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def reads(stack: Stack, players: list[str], run_ids: list[str]) -> list:
    """What clients read: the runs, the players' histories, the boards."""
    paths = [f"/v1/runs/{run_id}" for run_id in run_ids] + [f"/v1/runs/{run_id}/audit-log" for run_id in run_ids]
    paths += [f"/v1/players/{name}/runs" for name in players]
    paths += [f"/v1/seeds/{SEED}/leaderboard", "/v1/leaderboards/classic", "/v1/leaderboards/dealt/classic"]
    answers = []
    for path in paths:
        response = stack.get(path)
        assert response.status_code == 200, (path, response.text)
        answers.append(response.json())
    return answers


@pytest.fixture(scope="module")
def one_redis(tmp_path_factory):
    """A one-Redis stack holding players, verified runs, a dealt game and boards, its processes stopped."""
    stack = Stack(tmp_path_factory.mktemp("one-redis")).start()
    try:
        players, run_ids = [], []
        for games in (games_by_score(SEED, 2), games_by_score(SEED, 3)[1:]):
            name, token = stack.register()
            players.append(name)
            run_ids += [submit_final(stack, token, game)["id"] for game in games]
        game, _ = play_dealt(stack, [0.0])
        players.append(stack.get(f"/v1/runs/{game['run_id']}").json()["player"])
        run_ids.append(game["run_id"])
        seen = reads(stack, players, run_ids)
        stack.kill_worker()
        _, token = stack.register()
        pending = stack.submit(token, games_by_score("left-pending", 1, "easy")[0])  # queued, no worker
        assert pending.status_code == 202, pending.text
        stack.kill_api()
        yield stack, players, run_ids, seen, pending.json()["id"]
    finally:
        stack.stop()


def move_env(source: Stack) -> dict:
    env = source.env()
    for name in ("SCOUNDREL_REDIS_CLUSTER", "SCOUNDREL_QUEUE_URL"):
        env.pop(name, None)
    return env


def test_the_moved_store_reads_the_same_on_the_cluster(one_redis, tmp_path):
    source, players, run_ids, seen, pending = one_redis
    target = Stack(tmp_path / "cluster", cluster=(3, 0), env={
        "SCOUNDREL_ARCHIVE_URL": source.archive_url, "SCOUNDREL_PENDING_TIMEOUT": "1",
        "SCOUNDREL_SWEEP_INTERVAL": "0.5"})
    moved: list[subprocess.CompletedProcess] = []

    def fill() -> None:
        assert target.cluster is not None
        dry = scoundrel(move_env(source), "move-to-cluster", "--to", target.cluster.url)
        assert dry.returncode == 0, dry.stderr
        assert "would copy" in dry.stdout and target.cluster.nodes[0].client().dbsize() == 0
        moved.append(scoundrel(move_env(source), "move-to-cluster", "--to", target.cluster.url, "--apply"))
        db = target.database()
        try:  # the run left pending is in its own shard's pending index and intake, for the sweeper
            shard = shards.of_id(pending)
            assert db.redis.zscore(keys.pending_runs(shard), pending) is not None
            assert pending in db.redis.lrange(keys.intake(shard), 0, -1)
            assert not any(name.startswith("rq:") for name in db.redis.scan_iter(count=1000))
        finally:
            db.close()

    target.start(fill=fill)
    try:
        assert moved[0].returncode == 0, moved[0].stderr
        assert "copied" in moved[0].stdout and "0 there already" in moved[0].stdout
        assert reads(target, players, run_ids) == seen
        checked = scoundrel(target.env(), "check", "--pending-limit", "3600")
        assert checked.returncode == 0, checked.stderr
        reverified = scoundrel(target.env(), "reverify", "--all")
        assert reverified.returncode == 0, reverified.stderr
        assert "0 changed" in reverified.stdout, reverified.stdout
        again = scoundrel(move_env(source), "move-to-cluster", "--to", target.data_url, "--apply")
        assert again.returncode == 0, again.stderr
        assert "finished before; nothing copied" in again.stdout
        archived_on_the_cluster(target, players, run_ids, seen)
    finally:
        target.stop()


def without_totals(answers: list) -> list:
    """The reads but the players' run counts, which count a run twice while a move is half done."""
    return [{**answer, "total": None} if "player" in answer and "runs" in answer else answer for answer in answers]


def archived_on_the_cluster(target: Stack, players: list[str], run_ids: list[str], seen: list) -> None:
    """On the cluster, a removal killed between its steps (the run's shard, then its player's) is finished
    by the next pass, a run comes back from the archive and goes again, and every read stays the same."""
    killed = subprocess.run([sys.executable, "-m", "tests.support.archive_crash", "between-removal-steps",
                             "--older-than", "0"], env=target.env(), capture_output=True, text=True, timeout=120,
                            check=False)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert without_totals(reads(target, players, run_ids)) == without_totals(seen)
    assert scoundrel(target.env(), "check", "--pending-limit", "3600").returncode == 0
    archived = scoundrel(target.env(), "archive", "--older-than", "0")
    assert archived.returncode == 0, archived.stderr
    db = target.database()
    try:
        assert all(db.redis.zcard(keys.player_runs(name)) == 0 for name in players)
        assert set(db.archive.load(run_ids)) == set(run_ids)
        assert hot_run(db, run_ids[0]).id == run_ids[0]
        assert db.redis.zrange(keys.player_runs(players[0]), 0, -1) == [run_ids[0]]
    finally:
        db.close()
    checked = scoundrel(target.env(), "check", "--pending-limit", "3600")
    assert checked.returncode == 0, checked.stderr
    assert reads(target, players, run_ids)[len(run_ids):] == seen[len(run_ids):]  # but the run's reinstated time


def _cluster_keys(cluster: RedisClusterServer) -> set[str]:
    return {name for node in cluster.nodes for name in node.client().scan_iter(count=1000)}


def test_a_move_stopped_part_way_carries_on_when_run_again(one_redis, tmp_path):
    source, *_ = one_redis
    cluster = RedisClusterServer(tmp_path / "cluster", 1, 0).start()
    try:
        one = redis.Redis.from_url(source.redis.url)
        into = RedisCluster.from_url(cluster.url)
        batches = []

        def stop_after_two(count: int) -> None:
            batches.append(count)
            if len(batches) == 2:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            move(one, into, "the-one", apply=True, batch=5, progress=stop_after_two)
        part = _cluster_keys(cluster)
        assert keys.moved_from() in part and len(part) > 1

        with pytest.raises(MoveRefused, match="another Redis"):
            move(one, into, "some-other", apply=True)
        tally = move(one, into, "the-one", apply=True, batch=5)
        assert tally.present > 0 and tally.copied > 0 and not tally.unknown
        whole = _cluster_keys(cluster)
        assert part < whole
        assert into.hexists(keys.moved_from(), "finished_ms")
        assert move(one, into, "the-one", apply=True).finished_before
        assert _cluster_keys(cluster) == whole
        one.close()
        into.close()
    finally:
        cluster.stop()


def test_a_cluster_holding_other_data_is_refused_in_one_line(one_redis, tmp_path):
    source, *_ = one_redis
    cluster = RedisClusterServer(tmp_path / "cluster", 1, 0).start()
    try:
        cluster.nodes[0].client().set("someone-else", "1")
        refused = scoundrel(move_env(source), "move-to-cluster", "--to", cluster.url, "--apply")
        assert_one_line_failure(refused, "holds keys of another program already")
        assert _cluster_keys(cluster) == {"someone-else"}
    finally:
        cluster.stop()


def test_a_target_that_is_no_cluster_is_refused_in_one_line(one_redis):
    source, *_ = one_redis
    refused = scoundrel(move_env(source), "move-to-cluster", "--to", source.redis.url)
    assert_one_line_failure(refused, "not a reachable Redis Cluster")
