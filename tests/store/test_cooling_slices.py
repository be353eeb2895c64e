"""A large board leaves Redis and comes back a slice at a time (``store.boards.cooling.SLICE``), so that no
call holds Redis for long: here a slice is 4 places of a 13-place board, and what is read, moved and
brought back must be what a whole move gives, a place changed mid-move included."""

import threading

import pytest
from redis.lock import Lock

from domain.boards import SEED_BOARD, BoardId
from store.base import keys
from store.base.packing import pack
from store.boards import cooling
from store.boards.cooling import SPREAD, cool_boards, hot_boards
from store.boards.pages import board_page, board_position, ranking

SCORES = [30, 12, 12, 12, 5, 0, 0, -7, -40, -40, -40, -40, -113]


@pytest.fixture
def db(archived_store_db, monkeypatch):
    monkeypatch.setattr(cooling, "SLICE", 4)
    return archived_store_db


def seeded(db):
    board = ranking(BoardId(SEED_BOARD, ("classic", "sliced")))
    db.redis.zadd(board.places, {f"p{i}": pack(score, 1_000 + i) for i, score in enumerate(SCORES)})
    db.redis.hset(board.runs, mapping={f"p{i}": f"run{i}" for i in range(len(SCORES))})
    db.redis.hset(keys.sole_places(board.of.name), board.of.name, SPREAD)  # its field: in its two keys
    return board


def reads(db, board):
    return board_page(db, board, 0, 20), board_position(db, board, "p6", 2)


def test_a_large_board_moves_to_the_archive_and_back_slice_by_slice(db):
    board = seeded(db)
    held = db.redis.zrange(board.places, 0, -1, withscores=True), db.redis.hgetall(board.runs)
    before = reads(db, board)
    assert cool_boards(db, 10**13).cooled == 1
    assert not db.redis.exists(board.places) and not db.redis.exists(board.runs)
    assert db.redis.hget(keys.sole_places(board.of.name), board.of.name) is None  # nor its field's SPREAD
    assert len(db.archive.board_places("seed", "classic:sliced")) == len(SCORES)
    assert reads(db, board) == before
    with hot_boards(db, [board.of]):
        pass
    assert (db.redis.zrange(board.places, 0, -1, withscores=True), db.redis.hgetall(board.runs)) == held
    assert db.redis.hget(keys.sole_places(board.of.name), board.of.name) == SPREAD
    assert not db.archive.board_places("seed", "classic:sliced")


def test_a_place_a_verdict_changes_mid_move_stays_and_the_reads_merge_it(db, monkeypatch):
    board = seeded(db)
    forget = cooling.scripts.forget_places

    def a_verdict_lands_first(client, **kwargs):
        db.redis.zadd(board.places, {"p12": pack(31, 5_000)})  # the last player's new best: first now
        db.redis.hset(board.runs, "p12", "run-new")
        return forget(client, **kwargs)

    monkeypatch.setattr(cooling.scripts, "forget_places", a_verdict_lands_first)
    tally = cool_boards(db, 10**13)
    assert (tally.cooled, tally.changed) == (0, 1)
    # the rest left Redis; the one place left is kept as the board's one place (``Board.sole``)
    assert not db.redis.exists(board.places)
    assert [(place.player, place.run_id) for place in cooling.redis_places(db, [board.of])[0]] == [("p12", "run-new")]
    total, entries = board_page(db, board, 0, 20)
    assert total == len(SCORES) and entries[0]["player"] == "p12" and entries[0]["score"] == 31


def test_the_lock_is_held_for_as_long_as_the_work_takes(db, monkeypatch):
    """A large board's move outlasts the lock's expiry: the lock is renewed while held, and freed after.

    Counted in renewals, not in sleeps: each is the keeper finding the lock still its own (a lapsed one
    raises, and is not counted), and five of them, a quarter of the expiry apart, span more than it. A
    loaded machine delays the keeper; the expiry leaves it three quarters of itself to be late."""
    monkeypatch.setattr(cooling, "LOCK_SECONDS", 2)
    renewals = threading.Semaphore(0)
    reacquire = Lock.reacquire

    def counted(lock: Lock) -> bool:
        renewed = reacquire(lock)
        renewals.release()
        return renewed

    monkeypatch.setattr(Lock, "reacquire", counted)
    board = seeded(db)
    with hot_boards(db, [board.of]):
        holder = db.redis.get(keys.board_archive_lock())
        for _ in range(5):
            assert renewals.acquire(timeout=cooling.LOCK_SECONDS), "the lock lapsed unrenewed"
        assert db.redis.get(keys.board_archive_lock()) == holder
    assert not db.redis.exists(keys.board_archive_lock())
