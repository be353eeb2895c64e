"""The workers close the seasons that have ended by themselves, on their periodic pass: no reader,
no command. Here with the real clock: the service's seasons are made to have begun three months
ago, and the worker's pass closes each ended month, oldest first, read from Redis (not through the
API, whose reads would close them too)."""

import time

import pytest

from domain.seasons import Schedule, season_at
from store.base import keys

pytestmark = pytest.mark.served  # the worker's own timer closes the seasons


def test_the_workers_pass_closes_every_ended_season_by_itself(stack):
    current = season_at(Schedule.MONTHLY, int(time.time() * 1000))
    began = season_at(Schedule.MONTHLY, current.starts_ms - 1)
    began = season_at(Schedule.MONTHLY, season_at(Schedule.MONTHLY, began.starts_ms - 1).starts_ms - 1)
    ended = [began, began.following(), began.following().following()]
    assert ended[-1].following() == current
    db = stack.database()
    try:
        db.redis.set(keys.seasons_began(), began.starts_ms)
        deadline = time.monotonic() + 10
        while db.redis.zcard(keys.closed("season")) < len(ended) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert db.redis.zrange(keys.closed("season"), 0, -1, withscores=True) == [
            (season.id, season.ends_ms) for season in ended]
    finally:
        db.close()
