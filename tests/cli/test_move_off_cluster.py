"""``scoundrel move-off-cluster``: a Redis Cluster of the previous release, moved onto one Redis, reads the same.

Today's service makes the data on a one-Redis stack (players, open runs on a
seed, a dealt game at machine speed and its flag, a dispute, a webhook, a
closed season, a run left pending); its processes are stopped and what
clients read is kept. A cluster of three masters is filled from its Redis as
the previous release kept one (``tests.support.old_cluster``: every key
under its shard's tag, the indexes spread per shard, the copies in every
shard, the counts per shard), with what its steps left: a run whose board
places were owed after its verdict, one whose recompute was owed (both
taken off their boards), fences and marks. The move onto a fresh Redis is
tried dry (nothing written), stopped part way, then run to its end; the one
Redis then holds every key the first one did, under the same name with the
same value, and a stack started on it over the same archive answers every
read as the first did, verifies the run left pending, and ``scoundrel
check`` finds nothing wrong. Run again, the move has nothing to do; a Redis
holding other data and a URL that names no cluster are refused in one line.
"""

from dataclasses import dataclass

import pytest
import redis
from redis.cluster import RedisCluster

from domain.seasons import Schedule, season_at
from store.base import keys
from store.base.clock import now_ms
from store.boards.seasons import close_season
from store.operations import old_layouts
from store.operations.move_off_cluster import move_off
from store.operations.old_layouts import Home
from store.runs.records import load_run
from tests.audit.conftest import bearer, submit_final
from tests.support.commands import run_command
from tests.support.games import games_by_score, moderator_token, play_dealt
from tests.support.old_cluster import leave_steps, spread
from tests.support.redis_cluster import ClusterNode, RedisClusterServer
from tests.support.stack import Stack
from tests.support.stores import throwaway_redis
from tests.support.waiting import until

from .test_redis_server import listening, pid_on

SEED = "off-the-cluster"
FLAG_SETTINGS = {"SCOUNDREL_FLAG_FAST_MS": "150", "SCOUNDREL_FLAG_MIN_MOVES": "6"}  # a machine-speed game: flagged


@dataclass
class Source:
    """The one-Redis stack the cluster is filled from (its processes stopped), and what clients read of it."""

    stack: Stack
    players: list[str]
    run_ids: list[str]
    game_id: str
    season: str
    moderator: dict
    seen: list
    pending: str


def reads(stack: Stack, source: Source) -> list:
    """What clients read: the runs and their logs, the players' runs, the boards, the game, the seasons,
    and what moderators read: the flags, the disputes, the webhooks."""
    paths = [f"/v1/runs/{run_id}" for run_id in source.run_ids]
    paths += [f"/v1/runs/{run_id}/audit-log" for run_id in source.run_ids]
    paths += [f"/v1/players/{name}/runs" for name in source.players]
    paths += [f"/v1/seeds/{SEED}/leaderboard", "/v1/leaderboards/classic", "/v1/leaderboards/dealt/classic",
              "/v1/leaderboards/dealt/classic/ladder", f"/v1/games/{source.game_id}", "/v1/seasons",
              f"/v1/seasons/{source.season}/leaderboards/dealt/classic"]
    answers = []
    for path, headers in [*((path, {}) for path in paths),
                          *((path, source.moderator) for path in ("/v1/flags", "/v1/disputes", "/v1/webhooks"))]:
        response = stack.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        answers.append(without_par(response.json()))
    return answers


def without_par(answer):
    """An answer without its deal's par: a worker searching it may prove more between two reads (docs/par.md)."""
    if isinstance(answer, dict):
        return {key: without_par(value) for key, value in answer.items() if key not in ("par", "from_par")}
    if isinstance(answer, list):
        return [without_par(item) for item in answer]
    return answer


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    stack = Stack(tmp_path_factory.mktemp("one-redis"), env=FLAG_SETTINGS).start()
    try:
        moderator = bearer(moderator_token(stack))
        hook = stack.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["run.verified"]},
                          headers=moderator)
        assert hook.status_code == 201, hook.text
        players, run_ids = [], []
        for games in (games_by_score(SEED, 2), games_by_score(SEED, 3)[1:]):
            name, token = stack.register()
            players.append(name)
            run_ids += [submit_final(stack, token, game)["id"] for game in games]
        disputed = stack.post(f"/v1/runs/{run_ids[-1]}/disputes", json={"reason": "Was it fair?"},
                              headers=bearer(token))
        assert disputed.status_code == 201, disputed.text
        game, _ = play_dealt(stack, [0.0] * 8)
        players.append(stack.get(f"/v1/runs/{game['run_id']}").json()["player"])
        run_ids.append(game["run_id"])
        until(lambda: stack.get("/v1/flags", headers=moderator).json()["entries"], "the machine-speed game flagged", 20)
        db = stack.database()
        try:
            assert close_season(db, season_at(Schedule.MONTHLY, now_ms() - 40 * 86_400_000))
            season = load_run(db, game["run_id"]).season
        finally:
            db.close()
        found = Source(stack, players, run_ids, game["id"], season, moderator, [], "")
        found.seen = reads(stack, found)
        stack.kill_worker()
        _, token = stack.register()
        pending = stack.submit(token, games_by_score("left-pending", 1, "easy")[0])  # no worker judges it; on
        # the easy boards, which no read above shows
        assert pending.status_code == 202, pending.text
        found.pending = pending.json()["id"]
        stack.kill_api()
        yield found
    finally:
        stack.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, source):
    """A cluster of three masters filled from the source's Redis as the previous release left one."""
    server = RedisClusterServer(tmp_path_factory.mktemp("cluster"), 3, 0).start()
    one, into = redis.Redis.from_url(source.stack.redis.url), RedisCluster.from_url(server.url)
    db = source.stack.database()
    try:
        spread(one, into)
        leave_steps(into, load_run(db, source.run_ids[1]), load_run(db, source.run_ids[-1]), source.stack.redis.url)
        yield server
    finally:
        db.close()
        one.close()
        into.close()
        server.stop()


def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True)


def contents(url: str) -> dict:
    """Every key of the service the one Redis at ``url`` holds (but those not moved: RQ's, the rebuilt,
    the transient, the move's own record, and those expiring within a minute), and its value; a list's
    members in any order (the per-shard lists are merged shard by shard), a count as a number."""
    found = {}
    client = _client(url)
    for name in client.scan_iter(count=1000):
        home = old_layouts.home(name)
        if (name.startswith("rq:") or name == keys.moved_off() or home in (Home.REBUILT, Home.TRANSIENT)
                or 0 <= client.pttl(name) < 60_000):
            continue
        kind = client.type(name)
        if home is Home.FIRST:
            found[name] = {count: float(value) for count, value in client.hgetall(name).items()}
        else:
            found[name] = {"string": client.get, "hash": client.hgetall, "set": client.smembers,
                           "list": lambda key: sorted(client.lrange(key, 0, -1)), "stream": client.xrange,
                           "zset": lambda key: client.zrange(key, 0, -1, withscores=True)}[kind](name)
    client.close()
    return found


def test_the_moved_store_reads_the_same_on_one_redis(source, cluster, tmp_path):
    target = Stack(tmp_path / "one-redis", env={**FLAG_SETTINGS, "SCOUNDREL_ARCHIVE_URL": source.stack.archive_url,
                                                 "SCOUNDREL_PENDING_TIMEOUT": "1", "SCOUNDREL_SWEEP_INTERVAL": "0.5"})
    moved = []

    def fill() -> None:
        dry = run_command(target.env(), "move-off-cluster", cluster.url)
        assert dry.returncode == 0, dry.stderr
        assert "would copy" in dry.stdout and "nothing written" in dry.stdout, dry.stdout
        assert _client(target.redis.url).dbsize() == 0
        db, into = target.database(), RedisCluster.from_url(cluster.url)
        batches = []

        def stop_after_two(count: int) -> None:
            batches.append(count)
            if len(batches) == 2:
                raise KeyboardInterrupt

        try:
            with pytest.raises(KeyboardInterrupt):
                move_off(into, db, cluster.url, apply=True, batch=20, progress=stop_after_two)
        finally:
            into.close()
            db.close()
        stopped = _client(target.redis.url)
        progress = [name for name in stopped.hkeys(keys.moved_off()) if name.startswith("cursor:")]
        assert progress and stopped.dbsize() > len(progress)
        stopped.hdel(keys.moved_off(), *progress)  # as if stopped before any cursor was noted: all looked at again
        moved.append(run_command(target.env(), "move-off-cluster", cluster.url, "--apply"))
        assert moved[0].returncode == 0, moved[0].stderr
        assert contents(target.redis.url) == contents(source.stack.redis.url)

    try:
        target.start(fill=fill)
        applied = moved[0].stdout
        assert "(carrying on a move stopped part way)" in applied, applied
        assert "copied" in applied and " 0 there already" not in applied, applied  # the stopped move's, passed over
        assert ("then finished 1 seed board in its own keys with no mark saying so and 2 runs whose board places "
                "were still owed;") in applied, applied
        assert reads(target, source) == source.seen
        assert target.wait_final(source.pending)["status"] == "verified"  # re-queued by the sweeper
        checked = run_command(target.env(), "check", "--pending-limit", "3600")
        assert checked.returncode == 0, checked.stderr
        again = run_command(target.env(), "move-off-cluster", cluster.url, "--apply")
        assert again.returncode == 0, again.stderr
        assert "finished before; nothing to do" in again.stdout, again.stdout
    finally:
        target.stop()


def test_a_redis_holding_other_data_is_refused_in_one_line(source, cluster):
    refused = run_command(source.stack.env(), "move-off-cluster", cluster.url, "--apply")
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1].endswith("holds Scoundrel Referee data already: move into an empty Redis")
    assert not _client(source.stack.redis.url).exists(keys.moved_off())


def test_a_url_naming_no_cluster_is_refused_in_one_line(source):
    refused = run_command(source.stack.env(), "move-off-cluster", source.stack.redis.url)
    assert refused.returncode == 1
    assert "not a reachable Redis Cluster" in refused.stderr.splitlines()[-1], refused.stderr


def test_a_key_holding_something_else_is_left_named_and_the_move_not_finished(source, cluster, tmp_path):
    with throwaway_redis(tmp_path / "partly") as url:
        partial = _client(url)
        partial.hset(keys.moved_off(), "from", cluster.url)  # this move's own partial copy
        partial.set(keys.daily_secret(), "not the cluster's")
        moved = run_command({**source.stack.env(), "REDIS_URL": url}, "move-off-cluster", cluster.url, "--apply")
        assert moved.returncode == 1
        assert (f"1 key of this Redis holds something else than the cluster's copy and was left as it is "
                f"({keys.daily_secret()})") in moved.stderr, moved.stderr
        assert "the move is not finished" in moved.stderr
        assert partial.get(keys.daily_secret()) == "not the cluster's"
        assert not partial.hexists(keys.moved_off(), "finished_ms") and partial.exists(keys.run(source.run_ids[0]))


def test_a_redis_holding_a_move_from_another_cluster_is_refused_in_one_line(source, cluster, tmp_path):
    with throwaway_redis(tmp_path / "elsewhere") as url:
        _client(url).hset(keys.moved_off(), "from", "redis://10.0.0.9:7000/0")
        refused = run_command({**source.stack.env(), "REDIS_URL": url}, "move-off-cluster", cluster.url, "--apply")
        assert refused.returncode == 1
        assert refused.stderr.splitlines()[-1].endswith(
            "this Redis holds a move from another cluster (redis://10.0.0.9:7000/0), not from this one")
        assert _client(url).dbsize() == 1


def test_a_cluster_nodes_bus_port_taken_is_given_up_with_its_port(tmp_path):
    """A throwaway cluster node that picked its own port and finds its bus port (10,000 above) taken starts on
    another port, as a throwaway Redis does (``test_redis_server.py``)."""
    node = ClusterNode(tmp_path / "node", node_timeout=1000, persistent=False)
    taken = node.port
    holder = listening(taken + 10_000)
    try:
        node.start()
        assert node.port != taken and pid_on(node.port) == node.process.pid
    finally:
        node.stop()
        holder.close()
