"""Issue 34: every board entry, a player's position and their places say the board's ``total`` and their
``percentile`` (the share at or below them, ties included) and ``top_percent``; checked against counts
made here from the scores, on Redis and on a board the archive holds (``domain.boards.percentile``)."""

import math
import random

import pytest

from domain.boards import LADDER, SEED_BOARD, BoardId, percentile, top_percent
from store.base import keys
from store.base.database import Database
from store.base.packing import LADDER_GAMES, pack, pack_ladder
from store.boards.cooling import SPREAD, cool_boards
from store.boards.pages import board_among, board_page, board_position, ladder_page, ladder_position, ranking
from store.boards.standings import standings

SCORES = [30, 12, 12, 12, 5, 0, 0, -7, -40, -40, -40, -40, -113]  # ties at the top, middle and bottom


@pytest.fixture
def db(archived_store_db):
    return archived_store_db


def expected(scores: list[float], mine: float) -> tuple[int, float, float]:
    """``(total, percentile, top_percent)`` of a place scoring ``mine``, counted from every score."""
    total = len(scores)
    at_or_below = sum(score <= mine for score in scores)
    shared_rank = 1 + sum(score > mine for score in scores)
    top = 100 * shared_rank / total
    return total, math.floor(10_000 * at_or_below / total) / 100, (math.ceil(top) if top >= 1
                                                                      else math.ceil(10 * top) / 10)


def shares(entry: dict) -> tuple[int, float, float]:
    return entry["total"], entry["percentile"], entry["top_percent"]


def seeded(db: Database, scores: list[int]):
    """A seed board holding ``scores`` (player ``p<i>`` the ``i``th, earlier submissions first)."""
    board = ranking(BoardId(SEED_BOARD, ("classic", "percentiles")))
    db.redis.zadd(board.places, {f"p{i}": pack(score, 1_000 + i) for i, score in enumerate(scores)})
    db.redis.hset(board.runs,
                  mapping={f"p{i}": f"run{i}" for i in range(len(scores))})
    db.redis.hset(keys.sole_places(board.of.name), board.of.name, SPREAD)  # its field: in its two keys
    return board


def test_the_definition_on_its_edges():
    assert (percentile(0, 1), top_percent(0, 1)) == (100.0, 100.0)  # a board of one
    assert (percentile(0, 1000), top_percent(0, 1000)) == (100.0, 0.1)  # the best of a thousand
    assert (percentile(999, 1000), top_percent(999, 1000)) == (0.1, 100.0)  # the last
    assert top_percent(29, 1000) == 3.0 and top_percent(30, 1000) == 4.0  # rounded up, never better
    assert percentile(1, 3) == 66.66  # rounded down


@pytest.mark.parametrize("size", [1, 2, 13])
def test_every_page_and_position_of_a_board_says_each_places_share(db, size):
    scores = SCORES[:size]
    board = seeded(db, scores)
    for offset in range(size):  # every page start: a tie begun on the page before is still a tie
        total, entries = board_page(db, board, offset, 3)
        assert total == size
        for entry in entries:
            assert shares(entry) == expected(scores, entry["score"]), (offset, entry)
    for i, score in enumerate(scores):
        place = board_position(db, board, f"p{i}", 2)
        assert shares(place) == expected(scores, score)
        assert all(shares(entry) == expected(scores, entry["score"]) for entry in place["around"])


def test_tied_places_share_one_percentile_whatever_their_ranks(db):
    board = seeded(db, SCORES)
    _, entries = board_page(db, board, 0, len(SCORES))
    forties = [entry for entry in entries if entry["score"] == -40]
    assert len({entry["rank"] for entry in forties}) == 4
    assert {shares(entry) for entry in forties} == {(13, 38.46, 70.0)}


def test_among_gives_each_place_its_share_of_the_whole_board(db):
    board = seeded(db, SCORES)
    _, entries = board_among(db, board.of, ["p3", "p9", "p12", "nobody"], 0, 10)
    assert [entry["player"] for entry in entries] == ["p3", "p9", "p12"]
    assert [shares(entry) for entry in entries] == [expected(SCORES, SCORES[i]) for i in (3, 9, 12)]


def test_a_board_the_archive_holds_reads_the_same_shares(db):
    board = seeded(db, SCORES)
    before = ([board_page(db, board, offset, 4) for offset in range(len(SCORES))],
              board_position(db, board, "p6", 3), board_among(db, board.of, ["p1", "p10"], 0, 5),
              standings(db, "p10", [board], []))
    assert cool_boards(db, 10**13).cooled == 1
    assert not db.redis.exists(board.places)
    assert ([board_page(db, board, offset, 4) for offset in range(len(SCORES))],
            board_position(db, board, "p6", 3), board_among(db, board.of, ["p1", "p10"], 0, 5),
            standings(db, "p10", [board], [])) == before


def test_the_ladder_ties_equal_means(db):
    rng = random.Random(34)
    sums = [rng.choice([-400, -120, 0, 60, 200]) for _ in range(40)]
    ladder = BoardId(LADDER, ("classic",))
    db.redis.zadd(keys.board_places("ladder", ("classic",)), {f"p{i}": pack_ladder(total, 10**12 + 1000 * i)
                                           for i, total in enumerate(sums)})
    means = [total / LADDER_GAMES for total in sums]
    for offset in (0, 7, 33):
        _, entries = ladder_page(db, ladder, offset, 8)
        assert all(shares(entry) == expected(means, entry["mean"]) for entry in entries)
    place = ladder_position(db, ladder, "p5", 1)
    assert shares(place) == expected(means, means[5])
    [standing] = standings(db, "p5", [], [ladder])
    assert (standing.total, standing.percentile, standing.top_percent) == expected(means, means[5])


def test_a_players_places_say_their_share(db):
    board = seeded(db, SCORES)
    [standing, missing] = standings(db, "p2", [board, ranking(BoardId(SEED_BOARD, ("easy", "percentiles")))], [])
    assert (standing.rank, standing.above) == (3, 1) and missing is None
    assert (standing.total, standing.percentile, standing.top_percent) == expected(SCORES, 12)


def test_a_board_the_archive_alone_holds_is_read_by_indexed_queries_not_whole(db, monkeypatch):
    """A season's or a week's board is a million places: once the archive alone holds it, a player's place,
    a friends' view and a player's standings read their places and counts, never the whole board."""
    board = seeded(db, SCORES)
    before = (board_position(db, board, "p6", 3), board_position(db, board, "p0", 2),
              board_among(db, board.of, ["p1", "p10", "p12", "nobody"], 0, 5),
              board_among(db, board.of, ["p1", "p10", "p12"], 1, 1), standings(db, "p10", [board], []))
    assert cool_boards(db, 10**13).cooled == 1

    def whole_board(*args):
        raise AssertionError("the whole archived board was read")

    monkeypatch.setattr(type(db.archive), "board_places", whole_board)
    assert (board_position(db, board, "p6", 3), board_position(db, board, "p0", 2),
            board_among(db, board.of, ["p1", "p10", "p12", "nobody"], 0, 5),
            board_among(db, board.of, ["p1", "p10", "p12"], 1, 1), standings(db, "p10", [board], [])) == before
    assert board_position(db, board, "nobody", 2) is None and standings(db, "nobody", [board], []) == [None]
