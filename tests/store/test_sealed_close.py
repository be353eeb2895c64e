"""Closing a sealed day shard by shard (``store.games.close_sealed_day``), stopped midway: on one
Redis and on a one-master Redis Cluster. The service's word that the day is closed comes only
after every shard's, and a close stopped midway is finished by the next."""

import pytest

from domain.errors import SealedDayOver
from store import games as store_games
from store import keys, shards
from store.games import close_sealed_day, start_game
from tests.support.stores import Stopped, Stopping, emptied_database

DAY = "2026-11-20"


@pytest.fixture
def db(store_urls, monkeypatch):
    monkeypatch.setattr(store_games, "_closed_days", set())
    with emptied_database(store_urls) as database:
        yield database


def test_a_close_stopped_after_its_first_shard_is_not_the_service_s_word_and_the_next_close_finishes(
        db, monkeypatch):
    with monkeypatch.context() as stop:
        stop.setattr(db, "redis", Stopping(db.redis, "script"))
        with pytest.raises(Stopped):
            close_sealed_day(db, DAY)
    every = list(keys.distinct_shards())
    assert db.redis.sismember(keys.sealed_closed(every[0]), DAY)
    if db.cluster:  # on one Redis the one shard's closed days are the service's (one key)
        assert not db.redis.sismember(keys.sealed_closed(), DAY)
        assert not db.redis.sismember(keys.sealed_closed(every[-1]), DAY)
    close_sealed_day(db, DAY)
    assert all(db.redis.sismember(keys.sealed_closed(shard), DAY) for shard in every)
    assert db.redis.sismember(keys.sealed_closed(), DAY)


def test_no_player_of_any_shard_starts_a_closed_day_s_game(db):
    close_sealed_day(db, DAY)
    players = {shards.of_name(f"p{n}"): f"p{n}" for n in range(400)}  # a player of each shard
    assert len(players) == shards.SHARDS
    for player in players.values():
        with pytest.raises(SealedDayOver):
            start_game(db, player, "classic", "seed", challenge="daily", date=DAY)
