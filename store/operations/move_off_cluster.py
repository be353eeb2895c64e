"""Bringing the data of a Redis Cluster of the previous release onto one Redis (``scoundrel move-off-cluster``).

The previous release could keep the data on a Redis Cluster, every key
under the hash tag of one of 64 shards, and the indexes every owner writes
kept once per shard (``old_layouts``). Today's store reads one Redis, every
key under its name without a shard. This copies every key of every master
of the cluster into the one Redis, under its name there, each the way
``old_layouts.home`` says its family was kept:

- a key of one owner (a player, run, token, game, board), or the service's
  own, is copied whole: DUMP on its master, RESTORE (its expiry kept) on
  the one Redis. One there already is passed over if it holds what is
  copied, and left as it is and reported if it holds anything else;
- an index kept once per shard (pending runs, intake, players with runs,
  games in play or ending, sealed games in play, the webhook outbox, the
  runs whose places the steps owed), and the copies every shard kept
  (closed seasons and days), are merged into their one key member by
  member: a sorted set by ZADD, a list by RPUSH in order, a set by SADD, a
  hash by HSET;
- the counts kept once per shard (the counters, the latency histograms)
  are summed field by field;
- the archived-runs filter is not copied: the API and the workers rebuild
  it from the archive as they start; nor the write probe and the
  rate-limit counters, which expire; nor the fences and marks of the
  previous release's steps, which nothing reads.

Then ``migration.migrate`` runs on the one Redis: the runs whose board
places the steps still owed get them, and the step keys merged go.

Resumable: the one Redis records the move (``keys.moved_off``): the cluster
it is filled from, before anything else; each master's SCAN cursor after
each batch; each per-shard key once merged, in the transaction that merges
it, so none is merged twice however often the move starts again; and when
it finished. A second run carries on from the cursors, passing over a key
copied whole already; a run after a finished move copies nothing (the
service may have changed the data since). A one Redis holding anything
but this move's own partial copy is refused before anything is written.

The writers (the API and the workers) must be stopped: the copy is of the
keys as the SCAN reaches them.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import ResponseError, WatchError

from store.base import keys
from store.base.database import Database
from store.base.service_mark import SERVICE, holds_service_data
from store.operations import old_layouts
from store.operations.migration import Tally as MigrationTally
from store.operations.migration import migrate
from store.operations.old_layouts import Home

BATCH = 500  # keys a SCAN step asks for, read and written together
CHUNK = 5_000  # members of a per-shard key read and written in one command
SCANNED = "done"  # a master's cursor once its SCAN is done
_WHOLE = (Home.SAME, Home.OWNER)
_MERGED = (Home.SPLIT, Home.EVERY, Home.FIRST)


class MoveRefused(Exception):
    """Why the move cannot go on: the one Redis holds other data or refuses a copy, the cluster holds no
    service data, or another move writes into the one Redis at the same time."""


@dataclass
class Tally:
    """What a move found and did, in keys of the cluster."""

    examined: int = 0
    masters: int = 0
    copied: int = 0  # keys copied whole (with ``apply``; without it: that would be)
    merged: int = 0  # per-shard keys merged into their one key
    present: int = 0  # copied or merged already (a move resumed): passed over
    left: int = 0  # not copied: rebuilt, expiring, or the retired steps' keys
    strangers: int = 0  # keys of some other program: not copied
    conflicts: list[str] = field(default_factory=list)  # one-Redis keys holding something else: left as they are
    unknown: list[str] = field(default_factory=list)  # keys of the service's tags of no known family: not copied
    carried_on: bool = False  # a move stopped part way: this one carries it on
    finished_before: bool = False  # a move finished already: nothing looked at, nothing copied
    migrated: MigrationTally | None = None  # what ``migrate`` finished on the one Redis after the copy

    @property
    def whole(self) -> bool:
        """Whether every key of the cluster found its place on the one Redis."""
        return not self.conflicts and not self.unknown


def refusal(cluster: Any, db: Database, source: str) -> str | None:
    """Why the one Redis of ``db`` cannot take the copy of ``cluster`` (``source``: its URL), or None."""
    if cluster.get(keys.service_mark()) != SERVICE.encode():
        return "the cluster holds no Scoundrel Referee data (no API or worker has started on it)"
    moved = db.redis.hget(keys.moved_off(), "from")
    if moved is not None and moved != source:
        return f"this Redis holds a move from another cluster ({moved}), not from this one"
    if moved is None and db.redis.dbsize():
        what = "Scoundrel Referee data" if holds_service_data(db) else "keys of another program"
        return f"this Redis holds {what} already: move into an empty Redis"
    return None


def masters(cluster: Any) -> list[tuple[str, Any]]:
    """Each master of ``cluster`` (a redis-py ``RedisCluster``): its ``host:port`` and a client of it alone."""
    return [(f"{node.host}:{node.port}", cluster.get_redis_connection(node)) for node in cluster.get_primaries()]


def move_off(cluster: Any, db: Database, source: str, *, apply: bool, batch: int = BATCH,
             progress: Callable[[int], object] | None = None) -> Tally:
    """Copy every key of ``cluster`` (a ``RedisCluster`` with bytes replies; ``source`` names it) into the
    one Redis of ``db``, each to its place (``old_layouts.home``), then finish what the previous release's
    steps owed (``migrate``); without ``apply`` only count. Raises ``MoveRefused`` (``refusal``)."""
    refused = refusal(cluster, db, source)
    if refused:
        raise MoveRefused(refused)
    tally = Tally()
    moved = db.redis.hgetall(keys.moved_off())
    if "finished_ms" in moved:
        tally.finished_before = True
        return tally
    tally.carried_on = bool(moved)
    if apply:
        db.redis.hsetnx(keys.moved_off(), "from", source)
    for name, master in masters(cluster):
        tally.masters += 1
        _scan(master, f"cursor:{name}", moved, db, apply, batch, tally, progress)
    if apply and tally.whole:
        tally.migrated = migrate(db, apply=True)
        if not tally.migrated.changed:
            _finish(db)
    return tally


def _scan(master: Any, cursor_field: str, moved: dict, db: Database, apply: bool, batch: int, tally: Tally,
          progress: Callable[[int], object] | None) -> None:
    """Copy one master's keys, from where an earlier run of the move stopped."""
    start = moved.get(cursor_field, "0")
    if start == SCANNED:
        return
    cursor = int(start)
    while True:
        cursor, found = master.scan(cursor, count=batch)
        _move_batch(master, db, [name.decode() for name in found], apply, tally, moved)
        if apply:
            db.redis.hset(keys.moved_off(), cursor_field, cursor or SCANNED)
        if progress is not None:
            progress(len(found))
        if cursor == 0:
            return


def _finish(db: Database) -> None:
    """Note the move finished, its progress dropped: a later move from the cluster copies nothing."""
    progress = [name for name in db.redis.hkeys(keys.moved_off()) if name != "from"]
    with db.redis.pipeline() as pipe:
        if progress:
            pipe.hdel(keys.moved_off(), *progress)
        pipe.hset(keys.moved_off(), "finished_ms", int(time.time() * 1000))
        pipe.execute()


def _move_batch(master: Any, db: Database, names: list[str], apply: bool, tally: Tally, moved: dict) -> None:
    tally.examined += len(names)
    whole = []
    for name in names:
        home = old_layouts.home(name)
        if home is None:
            if old_layouts.untagged(name) is None:
                tally.strangers += 1
            else:
                tally.unknown.append(name)
        elif home in _WHOLE:
            whole.append(name)
        elif home in _MERGED:
            _merge(master, db, name, home, apply, tally, moved)
        else:
            tally.left += 1
    _copy_whole(master, db, whole, apply, tally)


def _target(name: str) -> str:
    """The one-Redis key of a key of the cluster."""
    untagged = old_layouts.untagged(name)
    assert untagged is not None
    return old_layouts.one_redis_key(untagged)


def _copy_whole(master: Any, db: Database, names: list[str], apply: bool, tally: Tally) -> None:
    """DUMP each key on its master, RESTORE it (its expiry kept) on the one Redis where it is not there."""
    with master.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.dump(name)
            pipe.pttl(name)
        replies = pipe.execute()
    dumped = [(name, _target(name), payload, max(ttl, 0))
              for name, payload, ttl in zip(names, replies[::2], replies[1::2], strict=True)
              if payload is not None]  # gone since the SCAN (an expiry)
    with db.raw.pipeline(transaction=False) as pipe:
        for _, target, _, _ in dumped:
            pipe.dump(target)
        held = pipe.execute()
    restores = []
    for (name, target, payload, ttl), there in zip(dumped, held, strict=True):
        if there is None:
            restores.append((target, payload, ttl))
            tally.copied += 1
        elif there == payload or _same(master, name, db.raw, target):
            tally.present += 1
        else:
            tally.conflicts.append(target)
    if apply and restores:
        with db.raw.pipeline(transaction=False) as pipe:
            for target, payload, ttl in restores:
                pipe.restore(target, ttl, payload)
            answers = pipe.execute(raise_on_error=False)
        for (target, _, _), answer in zip(restores, answers, strict=True):
            if isinstance(answer, ResponseError):
                raise MoveRefused(f"this Redis refused the copy of {target} ({answer}): is it older than the "
                                  f"cluster's Redis? The keys copied so far stay; run it again once it takes them")


_READ: dict[bytes, Callable[[Any, str], Any]] = {
    b"string": lambda client, name: client.get(name),
    b"hash": lambda client, name: client.hgetall(name),
    b"list": lambda client, name: client.lrange(name, 0, -1),
    b"set": lambda client, name: client.smembers(name),
    b"zset": lambda client, name: client.zrange(name, 0, -1, withscores=True),
    b"stream": lambda client, name: client.xrange(name),
}


def _same(source: Any, name: str, target: Any, target_name: str) -> bool:
    """Whether two keys hold the same value (their DUMPs may differ between versions of Redis)."""
    kind = source.type(name)
    read = _READ.get(kind)
    return read is not None and target.type(target_name) == kind and read(source, name) == read(target, target_name)


def _members(master: Any, name: str, kind: str) -> list:
    """A per-shard key's members, in order: (member, score) of a sorted set, (field, value) of a hash."""
    if kind == "zset":
        return [entry for start in range(0, master.zcard(name), CHUNK)
                for entry in master.zrange(name, start, start + CHUNK - 1, withscores=True)]
    if kind == "list":
        return [entry for start in range(0, master.llen(name), CHUNK)
                for entry in master.lrange(name, start, start + CHUNK - 1)]
    if kind == "set":
        return list(master.sscan_iter(name, count=CHUNK))
    return list(master.hscan_iter(name, count=CHUNK))


def _number(value: bytes) -> int | float:
    text = value.decode()
    try:
        return int(text)
    except ValueError:
        return float(text)


def _merge(master: Any, db: Database, name: str, home: Home, apply: bool, tally: Tally, moved: dict) -> None:
    """A per-shard key merged into its one key, and noted merged, in one transaction (once only)."""
    mark = f"merged:{name}"
    if mark in moved:
        tally.present += 1
        return
    kind = master.type(name).decode()
    if kind == "none":
        return  # gone since the SCAN (an expiry)
    if kind not in (("hash",) if home is Home.FIRST else ("zset", "list", "set", "hash")):
        tally.conflicts.append(f"{name} (a {kind}, not a kind of key its family keeps)")
        return
    tally.merged += 1
    if not apply:
        return
    members, ttl, target = _members(master, name, kind), master.pttl(name), _target(name)
    with db.raw.pipeline() as pipe:
        pipe.watch(keys.moved_off())
        if pipe.hexists(keys.moved_off(), mark):
            tally.merged -= 1
            tally.present += 1
            return
        pipe.multi()
        for start in range(0, len(members), CHUNK):
            chunk = members[start:start + CHUNK]
            if home is Home.FIRST:
                for count, value in chunk:
                    number = _number(value)
                    if isinstance(number, int):
                        pipe.hincrby(target, count, number)
                    else:
                        pipe.hincrbyfloat(target, count, number)
            elif kind == "zset":
                pipe.zadd(target, dict(chunk))
            elif kind == "list":
                pipe.rpush(target, *chunk)
            elif kind == "set":
                pipe.sadd(target, *chunk)
            else:
                pipe.hset(target, mapping=dict(chunk))
        if ttl > 0:
            pipe.pexpire(target, ttl)
        pipe.hset(keys.moved_off(), mark, 1)
        try:
            pipe.execute()
        except WatchError:
            raise MoveRefused("another move is writing into this Redis at the same time; nothing more was "
                              "written: let it finish, or stop it and run this one again") from None
