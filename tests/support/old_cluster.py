"""A Redis Cluster filled as the previous release left one: the source of ``scoundrel move-off-cluster``'s tests.

The previous release moved a one-Redis store into a cluster with its
``scoundrel move-to-cluster``, then ran on it: every key under the hash tag
of its owner's shard (``{s<shard>.<n>}``, 64 shards spread evenly over the
slots), the service's own under ``{scoundrel}``, each index every owner
writes spread over the shards, and its steps' fences and marks beside them.
``spread`` does what that move did, from a store the service of today
made on one Redis (each family kept as ``store.operations.old_layouts.Home``
says), and what the cluster's service did after it: the counts kept per
shard, summed by their readers. ``leave_steps`` adds the keys its steps
left, and runs whose places the steps still owed.

Which shard owned which key mattered to that release's scripts, not to the
move off the cluster, which reads every master; it is kept here as that
release computed it, so the cluster looks as it did.
"""

import zlib
from functools import cache
from typing import Any

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from domain.boards import Order
from domain.run import Run
from store.base import keys
from store.boards.cooling import SPREAD
from store.boards.placements import placements
from store.operations import old_layouts
from store.operations.old_layouts import Home

SHARDS = 64
SERVICE = keys.PREFIX + ":"
# the families of a player's keys → which of the key's parts names the player
_PLAYER_PART = {"player": 0, "player-name": 0, "player-runs": 0, "following": 0, "submission": 0,
                "idempotency": 0, "sealed-game": 1, "player-games-playing": 0, "next-deal": 0, "streak": 0}


@cache
def tags() -> tuple[str, ...]:
    """Each shard's tag: ``s<shard>.<n>``, the first ``n`` whose slot falls in the shard's even share."""
    width = REDIS_CLUSTER_HASH_SLOTS // SHARDS
    return tuple(next(f"s{shard}.{n}" for n in range(100_000) if key_slot(f"s{shard}.{n}".encode()) // width == shard)
                 for shard in range(SHARDS))


def _of_id(some_id: str) -> int:
    return zlib.crc32(some_id.encode()) % SHARDS


def _of_name(name: str) -> int:
    return _of_id(name.lower())


def _of_game(game_id: str) -> int:
    try:
        return int(game_id[:2], 16) % SHARDS
    except ValueError:
        return _of_id(game_id)


def tagged(name: str, shard: int | None) -> str:
    """An untagged key under ``shard``'s tag (None: the service's)."""
    return "{" + ("scoundrel" if shard is None else tags()[shard]) + "}:" + name


def owner_shard(name: str) -> int:
    """The shard of an owner's key (untagged): its player's, its id's, its game's or its board's."""
    family, _, parts = name.partition(":")
    if family in _PLAYER_PART:
        return _of_name(parts.split(":")[_PLAYER_PART[family]])
    if family == "game":
        return _of_game(parts)
    if family in ("token", "run", "audit"):
        return _of_id(parts)
    board = parts.rsplit(":", 1)[0] if family.endswith("-window") else parts  # a window's last part: its player
    return _of_id(f"{family}:{board}")


def _member_shard(family: str, member: str) -> int:
    if family == "run-players":
        return _of_name(member)
    if family in ("games-playing", "games-ending", "sealed-playing"):
        return _of_game(member)
    return _of_id(member)


def cluster_key(one_redis_key: str) -> str:
    """Where the previous release kept a one-Redis key of an owner, or of the service, on the cluster."""
    name = one_redis_key.removeprefix(SERVICE)
    return tagged(name, None if old_layouts.home(one_redis_key) is Home.SAME else owner_shard(name))


def spread(one: Any, cluster: Any) -> None:
    """Every key of the one Redis ``one`` (bytes replies) into ``cluster`` (a ``RedisCluster``, bytes
    replies) as the previous release kept it there. RQ's queues stay (that release kept them on a Redis
    of their own), and so do the keys it did not copy (the archived-runs filter, the expiring ones)."""
    for raw in one.scan_iter(count=1000):
        name = raw.decode()
        home = old_layouts.home(name)
        if name.startswith("rq:") or home in (Home.REBUILT, Home.TRANSIENT):
            continue
        if name in set(keys.every_sole_places()):
            # the previous release kept every board in its two keys, and no field saying so (``SPREAD``): the
            # move's migration writes them
            assert set(one.hvals(name)) == {SPREAD.encode()}, f"{name}: a board of one place, kept as a field"
            continue
        assert home is not None, f"{name}: a key of no family the previous release knew"
        untagged = name.removeprefix(SERVICE)
        if home in (Home.SAME, Home.OWNER):
            _restore(one, cluster, name, [cluster_key(name)])
        elif home is Home.EVERY:
            _restore(one, cluster, name, [tagged(untagged, shard) for shard in (None, *range(SHARDS))])
        elif home is Home.SPLIT:
            _split(one, cluster, name, untagged)
        else:
            _count_per_shard(one, cluster, name, untagged)


def _restore(one: Any, cluster: Any, name: str, targets: list[str]) -> None:
    payload, ttl = one.dump(name), one.pttl(name)
    for target in targets:
        cluster.restore(target, max(ttl, 0), payload)


def _split(one: Any, cluster: Any, name: str, untagged: str) -> None:
    """Each member of an index into its own shard's key."""
    family = old_layouts.family(untagged)
    kind = one.type(name)
    if kind == b"zset":
        for member, score in one.zrange(name, 0, -1, withscores=True):
            cluster.zadd(tagged(untagged, _member_shard(family, member.decode())), {member: score})
    elif kind == b"list":
        for member in one.lrange(name, 0, -1):
            cluster.rpush(tagged(untagged, _member_shard(family, member.decode())), member)
    else:
        for member in one.smembers(name):
            cluster.sadd(tagged(untagged, _member_shard(family, member.decode())), member)


def _count_per_shard(one: Any, cluster: Any, name: str, untagged: str) -> None:
    """A count kept per shard, as the cluster's service counted: each whole count split over two shards
    (a count with decimals whole in one), so only their sum is the one Redis's."""
    for count, value in one.hgetall(name).items():
        shard = _of_id(count.decode())
        if value.isdigit() and int(value) > 1:
            cluster.hincrby(tagged(untagged, shard), count, int(value) // 2)
            cluster.hincrby(tagged(untagged, (shard + 1) % SHARDS), count, int(value) - int(value) // 2)
        else:
            cluster.hset(tagged(untagged, shard), count, value)


def unplace(cluster: Any, run: Run) -> None:
    """The run's player taken off the run's boards on the cluster, as if the steps that place them never ran."""
    for board in placements(run):
        if board.board.board.order is Order.LATEST:
            places, window, games = map(cluster_key, board.keys[:3])
            cluster.zrem(places, run.player)
            cluster.delete(window)
            cluster.hdel(games, run.player)
        else:
            places, holders = map(cluster_key, board.keys[:2])
            cluster.zrem(places, run.player)
            cluster.hdel(holders, run.player)


def leave_steps(cluster: Any, placing: Run, replacing: Run, moved_from: str) -> None:
    """What the previous release's steps left on the cluster: ``placing``'s verdict written and its board
    steps owed (its places taken off), ``replacing``'s recompute owed (its places taken off too), the
    version hash and placed-runs set of each board of theirs, the webhooks mark in every shard, the
    dispatchers' doorbell and the record of the move into the cluster."""
    for run, owed in ((placing, "placing"), (replacing, "replacing")):
        unplace(cluster, run)
        cluster.zadd(tagged(owed, _of_id(run.id)), {run.id: 1_700_000_000_000})
        for board in placements(run):
            versions, placed = (f"{board.board.board.kind}-{fence}:{':'.join(board.board.parts)}"
                                for fence in ("versions", "placed"))
            cluster.hset(tagged(versions, owner_shard(versions)), run.player, "2:5")  # a fence, a count of offers
            cluster.sadd(tagged(placed, owner_shard(placed)), run.id)
    for shard in range(SHARDS):
        cluster.set(tagged("webhooks-registered", shard), "1")
    cluster.rpush(tagged("intake-doorbell", None), "1")
    cluster.hset(tagged("moved-from", None), mapping={"from": moved_from, "finished_ms": 1_700_000_000_000})
