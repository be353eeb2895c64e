"""Copying the service's data from one Redis into a Redis Cluster (``scoundrel move-to-cluster``).

On one Redis every key carries the tag ``{scoundrel}`` and each per-shard
index is one key; on a cluster each key carries its shard's tag
(``store.shards``). ``keys.cluster_home`` says, for every key of one Redis,
where it goes:

- a key of one owner (a player, a run, a token, a game, a board) is copied
  under its shard's tag, the service's own keys under the same name: DUMP
  on the one Redis, RESTORE (its expiry kept) on the cluster;
- a per-shard index (pending runs, intake, players with runs, games in
  play or ending, sealed games in play) is spread: each member into its own
  shard's key, each such key written by one command (ZADD, RPUSH, SADD);
- a copy that each shard's scripts read (closed seasons and days, the mark
  that a webhook is registered) is copied into every shard, and the
  service's own where it has one; the counters stay whole in the service's
  key, the histograms in shard 0's (their readers sum every shard's);
- the archived-runs filter is not copied: on the cluster it is not whole,
  so the API and the workers rebuild it from the archive as they start
  (``store.archived_filter.make_whole``), and meanwhile a submission asks
  the archive;
- RQ's keys (``rq:``) stay where they are: the runs still pending are in
  the pending index, and the sweeper queues their jobs again on the
  cluster's queue Redis.

Resumable: the cluster first gets ``keys.moved_from`` (which Redis it is
filled from), and each key of the cluster is written by one command, so a
key already there is whole and is passed over; a second run after an
interruption carries on where the first stopped. A move that copied every
key notes it is finished, and a run after that copies nothing: the
cluster's service may have changed its data since (an intake drained, a
pending run judged), which a second copy of the one Redis's keys would
undo. A cluster holding anything else (another service's data, or keys
with no ``moved_from``, or one naming another Redis) is refused before
anything is written.

The copy is of the keys as they are when the SCAN reaches them: the
service's writers (API, workers) are stopped while it runs, else a write
made on the one Redis behind the SCAN is not copied.
"""

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import ResponseError

from . import keys
from .keys import ClusterHome, Home
from .service_mark import SERVICE

BATCH = 500  # keys a SCAN step asks for, read and written together
SHOWN = 5  # keys of an unknown kind named in the summary


class MoveRefused(Exception):
    """The cluster cannot take this copy (it holds other data), or the one Redis is not ready for it."""


@dataclass
class Tally:
    """What a move found and did, in keys of the one Redis (a spread index counts once)."""

    examined: int = 0
    copied: int = 0  # written into the cluster (with ``apply``; without it: would be)
    present: int = 0  # already in the cluster (a move resumed): passed over
    rebuilt: int = 0  # not copied: the cluster's service rebuilds them (the archived-runs filter), or they expire
    queue: int = 0  # RQ's: not copied
    unknown: list[str] = field(default_factory=list)  # ``{scoundrel}`` keys of no known kind: not copied
    strangers: int = 0  # keys of some other program: not copied
    finished_before: bool = False  # a move finished already: nothing looked at, nothing copied


def refusal(source: Any, target: Any, source_name: str) -> str | None:
    """Why the cluster ``target`` cannot take the copy of ``source`` (both bytes clients), or None."""
    if source.get(keys.service_mark()) != SERVICE.encode():
        return "the one Redis holds no Scoundrel Referee data (no API or worker has started on it)"
    moved = target.hget(keys.moved_from(), "from")
    if moved is not None and moved.decode() != source_name:
        return f"the cluster is being filled from another Redis ({moved.decode()}), not this one"
    if moved is None and target.dbsize():
        what = ("Scoundrel Referee data" if target.get(keys.service_mark()) is not None
                else "keys of another program")
        return f"the cluster holds {what} already: move into an empty cluster"
    return None


def move(source: Any, target: Any, source_name: str, *, apply: bool, batch: int = BATCH,
         progress: Callable[[int], object] | None = None) -> Tally:
    """Copy every key of ``source`` (one Redis, bytes replies) into ``target`` (a ``RedisCluster``, bytes
    replies), each to its home (``keys.cluster_home``); without ``apply`` only count. Raises
    ``MoveRefused`` for a cluster that cannot take it (``refusal``)."""
    refused = refusal(source, target, source_name)
    if refused:
        raise MoveRefused(refused)
    tally = Tally()
    if target.hexists(keys.moved_from(), "finished_ms"):
        tally.finished_before = True
        return tally
    if apply:
        target.hsetnx(keys.moved_from(), "from", source_name)
    cursor = 0
    while True:
        cursor, found = source.scan(cursor, count=batch)
        _move_batch(source, target, [name.decode() for name in found], apply, tally)
        if progress is not None:
            progress(len(found))
        if cursor == 0:
            break
    if apply and not tally.unknown:
        target.hset(keys.moved_from(), "finished_ms", int(time.time() * 1000))
    return tally


def _move_batch(source: Any, target: Any, names: list[str], apply: bool, tally: Tally) -> None:
    tally.examined += len(names)
    whole: list[tuple[str, ClusterHome]] = []
    spread: list[tuple[str, ClusterHome]] = []
    for name in names:
        home = keys.cluster_home(name)
        if home is None:
            if name.startswith("rq:"):
                tally.queue += 1
            elif name.startswith(keys.PREFIX):
                tally.unknown.append(name)
            else:
                tally.strangers += 1
        elif home.how in (Home.REBUILT, Home.TRANSIENT):
            tally.rebuilt += 1
        elif home.how is Home.SPLIT:
            spread.append((name, home))
        elif name != keys.moved_from():
            whole.append((name, home))
    _copy_whole(source, target, whole, apply, tally)
    for name, home in spread:
        _spread(source, target, name, home, apply, tally)


def _copy_whole(source: Any, target: Any, found: list[tuple[str, ClusterHome]], apply: bool, tally: Tally) -> None:
    """DUMP each key, RESTORE it (its expiry kept) under each of its names on the cluster that is not there."""
    with source.pipeline(transaction=False) as pipe:
        for name, _ in found:
            pipe.dump(name)
            pipe.pttl(name)
        replies = pipe.execute()
    dumped = [(home, payload, max(ttl, 0)) for (_, home), payload, ttl in zip(found, replies[::2], replies[1::2],
                                                                                strict=True)
              if payload is not None]  # gone since the SCAN (an expiry)
    there = _present(target, [name for home, _, _ in dumped for name in home.targets()])
    copies = []
    for home, payload, ttl in dumped:
        missing = [name for name in home.targets() if name not in there]
        copies += [(name, payload, ttl) for name in missing]
        if missing:
            tally.copied += 1
        else:
            tally.present += 1
    if not apply or not copies:
        return
    with target.pipeline(transaction=False) as pipe:
        for name, payload, ttl in copies:
            pipe.restore(name, ttl, payload)
        for answer in pipe.execute(raise_on_error=False):
            if isinstance(answer, ResponseError) and not str(answer).startswith("BUSYKEY"):
                raise answer


def _members(source: Any, name: str) -> tuple[str, list[tuple[bytes, float]]]:
    """A per-shard index's type and its members (with their scores, for a sorted set), in order."""
    kind = source.type(name).decode()
    if kind == "zset":
        return kind, source.zrange(name, 0, -1, withscores=True)
    if kind == "list":
        return kind, [(member, 0.0) for member in source.lrange(name, 0, -1)]
    if kind == "set":
        return kind, [(member, 0.0) for member in sorted(source.smembers(name))]
    raise MoveRefused(f"{name} is a {kind}, not the sorted set, list or set its kind of index is")


def _spread(source: Any, target: Any, name: str, home: ClusterHome, apply: bool, tally: Tally) -> None:
    """Each member of a per-shard index into its shard's key on the cluster, each key written by one command
    (so one already there is whole); its expiry kept."""
    kind, members = _members(source, name)
    ttl = source.pttl(name)
    by_shard: dict[int, list[tuple[bytes, float]]] = {}
    assert home.member_shard is not None
    for member, score in members:
        by_shard.setdefault(home.member_shard(member.decode()), []).append((member, score))
    there = _present(target, [home.key(shard) for shard in by_shard])
    missing = {shard: entries for shard, entries in by_shard.items() if home.key(shard) not in there}
    if missing:
        tally.copied += 1
    else:
        tally.present += 1
    if not apply:
        return
    with target.pipeline(transaction=False) as pipe:
        for shard, entries in missing.items():
            key = home.key(shard)
            if kind == "zset":
                pipe.zadd(key, dict(entries))
            elif kind == "list":
                pipe.rpush(key, *(member for member, _ in entries))
            else:
                pipe.sadd(key, *(member for member, _ in entries))
            if ttl > 0:
                pipe.pexpire(key, ttl)
        pipe.execute()


def _present(target: Any, names: Iterable[str]) -> set[str]:
    ordered = list(names)
    with target.pipeline(transaction=False) as pipe:
        for name in ordered:
            pipe.exists(name)
        return {name for name, present in zip(ordered, pipe.execute(), strict=True) if present}
