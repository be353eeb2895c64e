"""What the sweeper finds due in an index kept once per shard, read for every shard at once.

The sweeper's passes look at time-ordered indexes kept once per shard
(``store.keys.every``): the pending runs, the runs being placed or to
recompute, the games in play and the ended games waiting for their run. On a cluster that is one key
in each of 64 shards, nearly always empty: read one after another, an idle
sweep would be hundreds of round trips and tens of milliseconds of a worker's
CPU. Read in one pipeline, each master gets its shards' reads at once, and only
the shards holding something due are worked on.
"""

from collections.abc import Callable

from . import keys
from .database import Database


def due_by_shard(db: Database, index_of_shard: Callable[[int], str], up_to_ms: int,
                 limit: int | None = None) -> dict[int, list[str]]:
    """The members of each shard's sorted set ``index_of_shard(shard)`` scored up to ``up_to_ms``,
    lowest first and at most ``limit`` a shard, for the shards that hold any."""
    shards = keys.distinct_shards()
    page = {} if limit is None else {"start": 0, "num": limit}
    with db.redis.pipeline(transaction=False) as pipe:
        for shard in shards:
            pipe.zrangebyscore(index_of_shard(shard), "-inf", up_to_ms, **page)
        return {shard: due for shard, due in zip(shards, pipe.execute(), strict=True) if due}
