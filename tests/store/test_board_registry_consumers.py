"""Every consumer takes its boards from the registry (``domain.boards``): a kind of board
registered there is placed by the verdict script, recomputed by the places scripts, checked by
``scoundrel check`` and, for a kind that cools, leaves Redis when cold, with no other edit; and
no Lua script decides which boards a run is on.

Runs here are accepted and judged in this process against a Redis of its own (no worker), so
the verdict is recorded under the registry as this test changes it.
"""

import re
from importlib import resources

import pytest
import sqlalchemy as sa

from cli.redis_server import RedisServer
from domain.boards import BOARDS, LADDER_GAMES, Board, BoardId, Order
from domain.run import Run
from store import Database
from store.archive.tables import archived_board_places
from store.base import keys
from store.base.clock import now_ms
from store.boards.cooling import cool_boards
from store.boards.pages import board_page, ranking
from store.lua import source
from store.operations.consistency import check
from store.runs.accepting import Submission, accept_runs
from store.runs.records import load_run, load_runs
from store.runs.verdicts import record_verdicts
from tests.support.games import legal_games
from verification import judge, reverify_run
from worker.registry import JOBS

# A throwaway kind: each player's first verified classic open run.
FIRST_CLASSIC = Board("first-classic", lambda run: not run.dealt and run.variant == "classic", ("variant",),
                      Order.FIRST, api="/v1/first/{variant}", page="/boards/first-{variant}",
                      title="{Variant}: first runs", proves="Each player's first verified open run.")
PLACES = keys.board_places("first-classic", ("classic",))
HOLDERS = keys.board_holders("first-classic", ("classic",))
# And one ranking each player's latest classic open runs, as the ladder ranks dealt games.
LATEST_CLASSIC = Board("latest-classic", lambda run: not run.dealt and run.variant == "classic", ("variant",),
                       Order.LATEST, api="/v1/latest/{variant}", page="/boards/latest-{variant}",
                       title="{Variant}: latest runs", proves="Each player's mean over their latest open runs.")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    root = tmp_path_factory.mktemp("registry")
    server = RedisServer(root, persistent=False).start()
    database = Database(server.url, JOBS, archive_url=f"sqlite:///{root}/archive.sqlite3")
    database.archive.upgrade()
    yield database
    database.close()
    server.stop()


@pytest.fixture
def registered(db):
    db.redis.flushdb()
    BOARDS.append(FIRST_CLASSIC)
    yield FIRST_CLASSIC
    BOARDS.remove(FIRST_CLASSIC)


@pytest.fixture
def latest_registered(db):
    db.redis.flushdb()
    BOARDS.append(LATEST_CLASSIC)
    yield LATEST_CLASSIC
    BOARDS.remove(LATEST_CLASSIC)


def verified(db: Database, player: str, game: dict) -> Run:
    """``game`` accepted for ``player`` and its verdict recorded, as a worker records it."""
    [(run, _)] = accept_runs(db, player, [Submission(game["seed"], game["variant"], game["moves"])])
    [pending] = load_runs(db, [run.id])
    assert record_verdicts(db, [(pending, judge(pending))]) == [True]
    stored = load_run(db, run.id)
    assert stored is not None and stored.status == "verified"
    return stored


def test_a_registered_board_is_placed_by_the_verdict_and_by_a_recompute(db, registered):
    first, second = (verified(db, "ivy", game) for game in legal_games(2))
    assert db.redis.hget(HOLDERS, "ivy") == first.id  # first order: the later run takes nothing
    db.redis.delete(PLACES, HOLDERS)
    assert reverify_run(db, second.id, "cli", "test")["changed"] is False
    assert db.redis.hget(HOLDERS, "ivy") == first.id  # the player's places recomputed from all runs


def test_scoundrel_check_recomputes_a_registered_board(db, registered):
    verified(db, "ivy", legal_games(1)[0])
    assert check(db, 3600) == []
    db.redis.zadd(PLACES, {"ghost": 1})
    assert check(db, 3600) == [f"{PLACES}: ghost is on the board but has no verified run that belongs there"]


@pytest.fixture
def cooling_registered(db):
    db.redis.flushdb()
    cooling = Board("first-cooling", lambda run: not run.dealt and run.variant == "classic", ("variant",),
                    Order.FIRST, api="/v1/cooling/{variant}", page="/boards/cooling-{variant}",
                    title="{Variant}: cooling", proves="Each player's first verified open run.", cools=True)
    BOARDS.append(cooling)
    yield cooling
    BOARDS.remove(cooling)
    with db.archive.engine.begin() as connection:
        connection.execute(sa.delete(archived_board_places))


def test_a_registered_board_that_cools_leaves_redis_cold_and_is_read_from_the_archive(db, cooling_registered):
    run = verified(db, "ivy", legal_games(1)[0])
    board = ranking(BoardId(cooling_registered, ("classic",)))
    shown = board_page(db, board, 0, 10)
    assert cool_boards(db, run.submitted_ms).cooled == 0  # a place as new as the cutoff: still warm
    assert cool_boards(db, now_ms() + 1).cooled == 2  # and the run's seed board
    assert not db.redis.exists(board.places, board.runs)
    assert board_page(db, board, 0, 10) == shown == (1, [{**shown[1][0], "run_id": run.id}])
    assert check(db, 3600) == []


def test_a_registered_board_of_the_latest_runs_gets_a_window_a_count_and_a_check(
        db, latest_registered):
    run = verified(db, "ivy", legal_games(1)[0])
    window, games = keys.board_window("latest-classic", ("classic",), "ivy"), keys.board_games("latest-classic",
                                                                                                ("classic",))
    assert db.redis.zrange(window, 0, -1) == [f"{run.id}:{run.score}"]
    assert db.redis.hget(games, "ivy") == "1"
    assert check(db, 3600) == []
    db.redis.hset(games, "ivy", 5)
    assert check(db, 3600) == [f"{games}: ivy counts 5 games, the runs give 1"]


def test_no_lua_script_reads_a_runs_origin_challenge_or_day():
    """The scripts get the keys and orders of a run's boards; which boards those are is Python's."""
    for script in resources.files("store.lua").iterdir():
        if script.name.endswith(".lua"):
            code = re.sub(r"--.*", "", script.read_text(encoding="utf-8"))  # what it says, not what it does
            assert not re.search(r"\b(origin|challenge|daily)\b", code), script.name


def test_the_scripts_ladder_window_is_the_registrys(db):
    assert db.redis.eval(source("_rank") + "return LADDER_GAMES", 0) == LADDER_GAMES
