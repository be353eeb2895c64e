"""The sweeper's read of an index kept once per shard (``store.due``): on one Redis, where every shard's
index is one key, and on a one-master Redis Cluster, where each shard's is a key of its own."""

import pytest

from store import keys
from store.due import due_by_shard
from tests.support.stores import emptied_database

SHARDS_WRITTEN = (0, 17, 63)


@pytest.fixture
def db(store_urls):
    with emptied_database(store_urls) as database:
        for shard in SHARDS_WRITTEN:
            database.redis.zadd(keys.games_playing(shard), {f"g{shard}-a": 100, f"g{shard}-b": 200,
                                                            f"g{shard}-later": 10_000})
        yield database


def one_by_one(db, up_to_ms: int, limit: int | None = None) -> dict[int, list[str]]:
    """What reading each shard's index in turn finds (the members due, the shards holding any)."""
    page = {} if limit is None else {"start": 0, "num": limit}
    found = {shard: db.redis.zrangebyscore(keys.games_playing(shard), "-inf", up_to_ms, **page)
             for shard in keys.distinct_shards()}
    return {shard: due for shard, due in found.items() if due}


def test_each_shard_holding_members_due_is_named_with_them_lowest_first(db):
    due = due_by_shard(db, keys.games_playing, 5_000)
    assert due == one_by_one(db, 5_000)
    everything = sorted(game for games in due.values() for game in games)
    assert everything == sorted(f"g{shard}-{which}" for shard in SHARDS_WRITTEN for which in "ab")
    if keys.distinct_shards() != range(1):  # a cluster: each shard its own key
        assert due == {shard: [f"g{shard}-a", f"g{shard}-b"] for shard in SHARDS_WRITTEN}


def test_a_limit_is_per_shard_and_a_shard_with_nothing_due_is_left_out(db):
    assert due_by_shard(db, keys.games_playing, 150, limit=1) == one_by_one(db, 150, limit=1)
    assert due_by_shard(db, keys.games_playing, 50) == {}
    assert due_by_shard(db, keys.games_ending, 5_000) == {}
