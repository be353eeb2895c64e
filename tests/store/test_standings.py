"""Issue 14: a board's spread (histogram, median, places below a score) and a player's places,
read from the sorted sets in a throwaway Redis and checked against the same counts made in Python."""

import random

import pytest
import redis

from cli.redis_server import RedisServer
from domain.boards import DEALT_BOARD, LADDER, OPEN_BOARD, BoardId
from store.base import keys
from store.base.packing import LADDER_GAMES, pack, pack_ladder
from store.boards.pages import ranking
from store.boards.standings import SPREAD_BUCKETS, Standing, board_spread, ladder_spread, standings


class Reads:
    """What the standings read of a ``Database``: its Redis client."""

    def __init__(self, client):
        self.redis = client


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("standings"), persistent=False).start()
    client = redis.Redis.from_url(server.url, decode_responses=True)
    yield Reads(client)
    client.close()
    server.stop()


@pytest.fixture
def board(db):
    db.redis.flushdb()
    return ranking(BoardId(OPEN_BOARD, ("classic",)))


def fill(db, scores: list[int], key: str = keys.board_places("open", ("classic",))) -> None:
    db.redis.zadd(key, {f"p{index}": pack(score, 1_000 + index) for index, score in enumerate(scores)})


def middle(scores: list[float]) -> float:
    """The middle place in rank order (best first); for an even count the better of the two."""
    ranked = sorted(scores, reverse=True)
    return ranked[(len(ranked) - 1) // 2]


def test_an_empty_board_has_no_spread(db, board):
    spread = board_spread(db, board, 5)
    assert (spread.total, spread.buckets, spread.median, spread.below, spread.share_below()) == (0, [], None, 0, None)


@pytest.mark.parametrize("count", [1, 2, 7, 1000])
def test_the_buckets_count_every_place_once_and_the_median_is_the_middle_place(db, board, count):
    rng = random.Random(count)
    scores = [rng.randint(-221, 30) for _ in range(count)]
    fill(db, scores)
    spread = board_spread(db, board)
    assert spread.total == count and spread.below is None
    assert sum(bucket.count for bucket in spread.buckets) == count
    for bucket in spread.buckets:
        assert bucket.count == sum(bucket.low <= score < bucket.high for score in scores)
    assert len(spread.buckets) <= SPREAD_BUCKETS
    assert spread.buckets[0].low <= min(scores) and spread.buckets[-1].high > max(scores)
    assert spread.median == middle(scores)


def test_buckets_start_at_round_scores(db, board):
    fill(db, [-221, -37, 0, 30])
    widths = {bucket.high - bucket.low for bucket in board_spread(db, board).buckets}
    assert widths == {10} and all(bucket.low % 10 == 0 for bucket in board_spread(db, board).buckets)
    db.redis.flushdb()
    fill(db, [3, 5, 9])
    assert [(bucket.low, bucket.count) for bucket in board_spread(db, board).buckets] == [
        (3, 1), (4, 0), (5, 1), (6, 0), (7, 0), (8, 0), (9, 1)]


def test_places_below_count_strictly_lower_scores_ties_not_beaten(db, board):
    fill(db, [10, 10, 10, 5, -3, -3, 20])
    assert board_spread(db, board, 10).below == 3
    assert board_spread(db, board, 10).share_below() == 42  # 3 of 7, rounded down
    assert board_spread(db, board, -3).below == 0
    assert board_spread(db, board, 21).below == 7 and board_spread(db, board, 21).share_below() == 100


def test_the_ladder_spreads_means_in_whole_points(db):
    db.redis.flushdb()
    rng = random.Random(3)
    sums = [rng.randint(-4420, 600) for _ in range(300)]
    db.redis.zadd(keys.board_places("ladder", ("classic",)),
                  {f"p{i}": pack_ladder(total, 10**12 + i) for i, total in enumerate(sums)})
    means = [total / LADDER_GAMES for total in sums]
    spread = ladder_spread(db, BoardId(LADDER, ("classic",)), -20.35)
    for bucket in spread.buckets:
        assert bucket.count == sum(bucket.low <= mean < bucket.high for mean in means)
        assert float(bucket.low).is_integer() and float(bucket.high - bucket.low).is_integer()
    assert spread.median == middle(means)
    assert spread.below == sum(mean < -20.35 for mean in means)


def test_standings_name_rank_total_and_score_on_each_board_or_none(db, board):
    fill(db, [10, 30, -5])
    fill(db, [7], keys.board_places("dealt", ("classic",)))
    db.redis.zadd(keys.board_places("ladder", ("easy",)), {"p0": pack_ladder(-410, 10**12)})
    ladders = [BoardId(LADDER, ("classic",)), BoardId(LADDER, ("easy",))]
    dealt = [ranking(BoardId(DEALT_BOARD, (variant,))) for variant in ("classic", "easy")]
    assert standings(db, "p0", [board, *dealt], ladders) == [
        Standing(2, 3, 10, 1), Standing(1, 1, 7, 0), None, None, Standing(1, 1, -20.5, 0)]
