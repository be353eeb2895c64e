"""Closing seasons in the store (``store.boards.seasons``) with the store's clock moved: each ended season
closes once, in order, and from its close its boards never change, whatever verdict or recompute
comes; ``scoundrel check`` leaves the frozen boards alone.

Runs here are accepted and judged in this process against a Redis of its own (no worker).
"""

import pytest

from cli.redis_server import RedisServer
from domain.boards import SEASON_BOARD, SEASON_LADDER, BoardId
from domain.seasons import Schedule, parse_season
from store import Database
from store.base import keys
from store.base.clock import now_ms
from store.boards.cooling import cool_boards
from store.boards.pages import board_page, board_position, ladder_page, ranking
from store.boards.seasons import close_ended_seasons, close_season, known_season, past_seasons
from store.operations.consistency import check
from store.runs.accepting import Dealt, Submission, accept_runs
from store.runs.records import load_runs
from store.runs.verdicts import record_verdicts
from tests.support.games import legal_games
from verification import judge, reverify_run
from worker.registry import JOBS

NOV, DEC = parse_season("2026-11"), parse_season("2026-12")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = RedisServer(tmp_path_factory.mktemp("seasons"), persistent=False).start()
    yield running
    running.stop()


@pytest.fixture
def db(server, tmp_path):
    database = Database(server.url, JOBS, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3",
                        seasons=Schedule.MONTHLY)
    database.archive.upgrade()
    database.redis.flushdb()
    yield database
    database.close()


def accepted(db: Database, player: str, game: dict, season: str) -> str:
    """A dealt game's run of ``season``, accepted (pending)."""
    dealt = Dealt(f"{player}-{game['seed']}".ljust(32, "0"), season=season)
    [(run, _)] = accept_runs(db, player, [Submission(game["seed"], game["variant"], game["moves"], dealt=dealt)])
    return run.id


def judged(db: Database, run_ids: list[str]) -> None:
    pending = [run for run in load_runs(db, run_ids) if run]
    assert record_verdicts(db, [(run, judge(run)) for run in pending]) == [True] * len(run_ids)


def test_the_first_pass_begins_the_seasons_and_an_ended_season_closes_once(db):
    assert close_ended_seasons(db, DEC.starts_ms - 10) == []  # seasons begin with November's
    assert past_seasons(db, 0, 10) == (0, [])
    assert close_ended_seasons(db, DEC.starts_ms) == [NOV]  # the instant November ends
    assert close_ended_seasons(db, DEC.starts_ms + 5) == []  # closed once: one season.ended
    assert close_season(db, NOV) is False
    assert past_seasons(db, 0, 10) == (1, [NOV])


def test_a_pass_after_a_long_pause_closes_every_ended_season_oldest_first(db):
    close_ended_seasons(db, NOV.starts_ms)
    closed = close_ended_seasons(db, parse_season("2027-02").starts_ms + 1)
    assert [season.id for season in closed] == ["2026-11", "2026-12", "2027-01"]
    total, newest = past_seasons(db, 0, 2)
    assert total == 3 and [season.id for season in newest] == ["2027-01", "2026-12"]
    assert [season.id for season in past_seasons(db, 2, 2)[1]] == ["2026-11"]


def test_seasons_before_the_first_pass_are_not_the_services(db):
    close_ended_seasons(db, DEC.starts_ms + 1)
    with pytest.raises(LookupError):
        known_season(db, "2026-10")
    with pytest.raises(ValueError):
        known_season(db, "2026-13")


def test_a_closed_seasons_boards_are_frozen_against_late_verdicts_and_recomputes(db):
    close_ended_seasons(db, NOV.starts_ms)
    games = legal_games(3)
    first = accepted(db, "ada", games[0], NOV.id)
    judged(db, [first])
    late = accepted(db, "ada", games[1], NOV.id)  # its game ended in November, its verdict comes after the close
    bob = accepted(db, "bob", games[2], NOV.id)
    assert close_ended_seasons(db, DEC.starts_ms) == [NOV]
    november = ranking(BoardId(SEASON_BOARD, ("classic", NOV.id)))
    frozen = board_page(db, november, 0, 10)
    assert [entry["player"] for entry in frozen[1]] == ["ada"]
    judged(db, [late, bob])
    assert board_page(db, november, 0, 10) == frozen  # the late verdicts land on the all-time boards only
    assert db.redis.zscore(keys.board_places("dealt", ("classic",)), "bob") is not None
    assert db.redis.hget(keys.board_games("season-ladder", ("classic", NOV.id)), "ada") == "1"
    db.redis.hset(keys.run(first), "status", "void")  # as a moderator's void leaves it, then ada's places recomputed
    reverify_run(db, late, "cli", "test")
    assert board_page(db, november, 0, 10) == frozen
    assert db.redis.hget(keys.board_holders("dealt", ("classic",)), "ada") == late  # the all-time board moved
    assert check(db, 3600) == []  # the frozen boards differ from the runs, rightly, and are not checked
    assert ladder_page(db, BoardId(SEASON_LADDER, ("classic", NOV.id)), 0, 10) == (0, [])


def test_runs_of_the_new_season_go_on_its_own_boards(db):
    close_ended_seasons(db, DEC.starts_ms)
    run = accepted(db, "cy", legal_games(1)[0], DEC.id)
    judged(db, [run])
    december = ranking(BoardId(SEASON_BOARD, ("classic", DEC.id)))
    assert [entry["player"] for entry in board_page(db, december, 0, 10)[1]] == ["cy"]
    assert board_page(db, ranking(BoardId(SEASON_BOARD, ("classic", NOV.id))), 0, 10) == (0, [])
    assert check(db, 3600) == []


def test_weekly_seasons_close_across_the_iso_year(server, tmp_path):
    weekly = Database(server.url, JOBS, archive_url=f"sqlite:///{tmp_path}/weekly.sqlite3", seasons=Schedule.WEEKLY)
    try:
        weekly.redis.flushdb()
        last_week = parse_season("2026-W53")
        assert close_ended_seasons(weekly, last_week.starts_ms + 1) == []
        assert close_ended_seasons(weekly, parse_season("2027-W01").starts_ms) == [last_week]
        assert last_week.ends_ms == parse_season("2027-W01").starts_ms
    finally:
        weekly.close()


def test_a_closed_seasons_board_leaves_redis_when_cold_and_reads_the_same(db):
    """A season's dealt board cools (``domain.boards.Board.cools``): once no place is newer than the
    cutoff it moves to the archive whole, and its page, a player's place and ``check`` read it there."""
    close_ended_seasons(db, NOV.starts_ms)
    runs = [accepted(db, player, game, NOV.id) for player, game in zip(("ada", "bob"), legal_games(2), strict=True)]
    judged(db, runs)
    assert close_ended_seasons(db, DEC.starts_ms) == [NOV]
    november = ranking(BoardId(SEASON_BOARD, ("classic", NOV.id)))
    frozen, place = board_page(db, november, 0, 10), board_position(db, november, "bob", 1)
    assert cool_boards(db, now_ms() + 1).cooled == 2  # the season's and the week's league boards; not the dealt board
    assert not db.redis.exists(november.places, november.runs)
    assert board_page(db, november, 0, 10) == frozen and board_position(db, november, "bob", 1) == place
    assert check(db, 3600) == []
