"""Streaks across days (``domain.streak``, counted by ``play_moves.lua``): the store's clock moved
from day to day in a throwaway Redis, so that a week of sealed dailies takes a second.

A day counts when its sealed daily game ends in its day (played out or given up), never when
the day's close forfeits it (R18); a gap breaks the current run and keeps the best. The HTTP side
(a game played to its end over the real stack, the endpoint's answer) is
``tests/games/test_streaks.py``, and the close's forfeit across a real midnight
``tests/games/test_clock_moved.py``.
"""

from datetime import UTC, date, datetime, timedelta

import pytest

from cli.redis_server import RedisServer
from domain.daily_seed import sealed_seed
from domain.errors import SealedDayOver
from domain.game import FORFEIT
from domain.streak import Streak
from store import Database
from store.games import dealt as games
from store.games.dealt import close_sealed_day, next_deal, start_game
from store.games.dealt import play_moves as store_play_moves
from store.games.streaks import load_streak
from store.runs.records import load_run
from tests.support.stores import empty
from worker.registry import JOBS

FIRST = date(2026, 3, 2)


@pytest.fixture(scope="module")
def store_root(tmp_path_factory):
    """A throwaway Redis, and the archive a game's run is looked up in as it is accepted."""
    root = tmp_path_factory.mktemp("streaks")
    running = RedisServer(root, persistent=False).start()
    yield running, f"sqlite:///{root}/archive.sqlite3"
    running.stop()


class Clock:
    """The store's clock (``store.games.dealt.now_ms``), set by the test."""

    def __init__(self):
        self.at = datetime(2026, 3, 2, 12, tzinfo=UTC)

    def set(self, day: date, hour: int = 12, second: float = 0) -> None:
        self.at = datetime(day.year, day.month, day.day, hour, tzinfo=UTC) + timedelta(seconds=second)

    def __call__(self) -> int:
        return int(self.at.timestamp() * 1000)


@pytest.fixture
def clock(monkeypatch):
    moved = Clock()
    monkeypatch.setattr(games, "now_ms", moved)
    return moved


@pytest.fixture
def db(store_root):
    server, archive_url = store_root
    database = Database(server.url, JOBS, archive_url=archive_url)
    database.archive.upgrade()
    yield empty(database)
    database.close()


def day(number: int) -> date:
    """The ``number``-th day of the test's week (1: ``FIRST``)."""
    return FIRST + timedelta(days=number - 1)


def started(db, clock, player: str, number: int, hour: int = 12, second: float = 0):
    clock.set(day(number), hour, second)
    return start_game(db, player, "classic", sealed_seed("streak-test", day(number)), challenge="daily",
                      date=day(number).isoformat())


def given_up(db, clock, player: str, number: int) -> None:
    """The player starts day ``number``'s sealed daily and gives it up that day (R18): the day counts."""
    game = started(db, clock, player, number)
    clock.set(day(number), 13)
    store_play_moves(db, game, [], FORFEIT)


def test_days_in_a_row_count_a_gap_resets_the_current_run_and_keeps_the_best(db, clock):
    assert load_streak(db, "ada") == Streak()
    assert Streak().current(day(1)) == 0
    for number in (1, 2, 3):
        given_up(db, clock, "ada", number)
        assert load_streak(db, "ada") == Streak(day(number).isoformat(), number, number)
    streak = load_streak(db, "ada")
    assert streak.current(day(3)) == 3
    assert streak.current(day(4)) == 3  # yesterday's run is alive: today's game may still come
    assert streak.current(day(5)) == 0  # a day missed
    given_up(db, clock, "ada", 5)
    assert load_streak(db, "ada") == Streak(day(5).isoformat(), 1, 3)
    given_up(db, clock, "ada", 6)
    streak = load_streak(db, "ada")
    assert (streak.current(day(6)), streak.best, streak.last_date) == (2, 3, day(6).isoformat())
    # the streak as it stood each day: known for the latest run, not before it
    assert [streak.on(day(number)) for number in range(1, 8)] == [None, None, None, None, 1, 2, 0]
    assert load_streak(db, "bob") == Streak()  # one player's days are theirs


def test_a_day_the_close_forfeited_does_not_count(db, clock):
    given_up(db, clock, "cy", 1)
    started(db, clock, "cy", 2)  # left in play: the close of day 2 forfeits it (R18)
    clock.set(day(3), 0, 1)
    close_sealed_day(db, day(2).isoformat())
    assert load_streak(db, "cy") == Streak(day(1).isoformat(), 1, 1)
    late = started(db, clock, "cy", 3, 23, 3599.5)  # a move half a second after day 3 closes
    clock.set(day(4), 0, 0.5)
    with pytest.raises(SealedDayOver):
        store_play_moves(db, late, ["flee"], "playing")
    assert load_streak(db, "cy") == Streak(day(1).isoformat(), 1, 1)
    given_up(db, clock, "cy", 4)
    assert load_streak(db, "cy") == Streak(day(4).isoformat(), 1, 1)


def test_a_free_game_counts_for_no_streak(db, clock):
    clock.set(day(1))
    game = start_game(db, "dee", "classic", "free-seed", server_seed=next_deal(db, "dee", "free-seed"))
    store_play_moves(db, game, [], FORFEIT)
    assert load_streak(db, "dee") == Streak()


def test_the_close_forfeits_a_game_moved_between_its_reading_and_its_forfeit(db, clock, monkeypatch):
    """A move of the day landing while the close reads the game: the forfeit's compare-and-set refuses
    the stale read, and the close reads the game again and forfeits it, with its run (R18)."""
    game = started(db, clock, "eve", 5)
    moved = store_play_moves(db, game, ["flee"], "playing")  # the game as the close will find it
    stale = iter([game])
    load = games.load_game
    monkeypatch.setattr(games, "load_game", lambda db_, game_id: next(stale, None) or load(db_, game_id))
    clock.set(day(6), 0, 1)
    close_sealed_day(db, day(5).isoformat())
    closed = load(db, game.id)
    assert closed.status == FORFEIT and closed.moves == moved.moves
    run = load_run(db, closed.run_id)
    assert run.forfeit and run.moves == tuple(moved.moves)
