"""Issue 33, item 4, the store's part: an erasure whose archive share is longer than a request erases is
finished by ``scoundrel erase --finish``; one stopped midway (a crash) is carried on from where it stopped; the
command's refusals are one line. On a throwaway Redis with an archive of its own."""

import time

import pytest

from domain.boards import OPEN_BOARD, BoardId
from store import Submission, create_player, find_player, load_runs, record_verdicts, submit_run
from store.accounts import erasure as erasing
from store.base import keys
from store.base.service_mark import mark_service
from store.boards.pages import board_page, ranking
from store.operations import retention
from store.operations.consistency import check
from store.operations.retention import archive_old_runs
from tests.support.commands import run_command
from tests.support.games import legal_games
from verification import judge

ERASED = "zoltan"  # spelt nowhere else in the store


@pytest.fixture
def db(archived_store_db):
    mark_service(archived_store_db)
    return archived_store_db


@pytest.fixture
def env(redis_url, tmp_path) -> dict:
    """The operator's environment for ``archived_store_db``'s Redis and archive."""
    return {"REDIS_URL": redis_url, "SCOUNDREL_ARCHIVE_URL": f"sqlite:///{tmp_path}/archive.sqlite3", "NO_COLOR": "1"}


def verified(db, player: str, game: dict) -> None:
    run, _ = submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"]))
    [stored] = load_runs(db, [run.id])
    record_verdicts(db, [(stored, judge(stored))])
    time.sleep(0.002)  # distinct submission times


def traces(db) -> list[str]:
    """Every key of the service's whose name or value holds the erased name (but the Bloom filter's bits; RQ's
    keys are the process test's: ``tests/audit/test_player_data.py``)."""
    found = []
    for key in db.redis.scan_iter(match=f"{keys.PREFIX}:*", count=1000):
        if key == keys.archived_filter():
            continue
        kind = db.redis.type(key)
        value = {"string": db.redis.get, "hash": db.redis.hgetall, "zset": lambda k: db.redis.zrange(k, 0, -1),
                 "set": db.redis.smembers, "list": lambda k: db.redis.lrange(k, 0, -1)}.get(kind, str)(key)
        if ERASED in f"{key} {value}":
            found.append(key)
    return found


def test_a_long_archived_history_is_left_to_the_command_which_finishes_it(db, env):
    for name in (ERASED, "bob"):
        create_player(db, name)
    for game in legal_games(3):
        verified(db, ERASED, game)
    verified(db, "bob", legal_games(4)[3])
    archive_old_runs(db, 0)
    verified(db, ERASED, legal_games(5)[4])  # one run still in Redis
    assert db.archive.player_count(ERASED) == 3

    begun = erasing.begin_erasure(db, ERASED)
    erased = erasing.erase(db, begun, ("moderator", "mia"), 60, archive_inline=2)
    assert (erased.runs, erased.archive_left) == (4, True)
    assert find_player(db, ERASED) is None and db.archive.player_count(ERASED) == 3
    classic = ranking(BoardId(OPEN_BOARD, ("classic",)))
    assert [entry["player"] for entry in board_page(db, classic, 0, 10)[1]] == ["bob"]
    problems = check(db, 60)
    assert problems == [f"the erasure of a player (pseudonym {begun.pseudonym}) was begun and not finished: "
                        f"`scoundrel erase --finish` finishes it"]

    finished = run_command(env, "erase", "--finish")
    assert (finished.returncode, finished.stdout) == (0, "scoundrel erase: 1 erasure(s) finished\n")
    assert db.archive.player_count(ERASED) == 0
    assert check(db, 60) == [] and traces(db) == []
    total, [entry] = erasing.erasure_log(db, 0, 10)
    assert total == 1 and entry["by"] == {"kind": "cli", "name": "operator"}


def test_an_erasure_stopped_midway_is_carried_on(db, monkeypatch):
    create_player(db, ERASED)
    for game in legal_games(2):
        verified(db, ERASED, game)

    def crash(*args):
        raise ConnectionError("the process died here")

    with monkeypatch.context() as patched:
        patched.setattr(erasing, "_erase_games", crash)
        with pytest.raises(ConnectionError):
            erasing.erase(db, erasing.begin_erasure(db, ERASED), ("player", "x"), 60)
    assert db.redis.hexists(keys.erasures_begun(), ERASED)  # noted: the one key naming them meanwhile
    [erased] = erasing.finish_erasures(db, ("cli", "operator"), 60)
    assert not erased.archive_left and traces(db) == [] and check(db, 60) == []


def test_the_command_refuses_in_one_line(db, env):
    for args, status, line in ((("erase",), 2, "scoundrel erase: name one player, or give --finish (not both)"),
                               (("erase", "ada", "--finish"), 2,
                                "scoundrel erase: name one player, or give --finish (not both)"),
                               (("erase", "nobody"), 1, "scoundrel erase: no player named 'nobody'")):
        refused = run_command(env, *args)
        assert (refused.returncode, refused.stdout, refused.stderr.splitlines()[-1]) == (status, "", line)


@pytest.mark.parametrize("erasure", ["begun", "finished"])
def test_a_run_archived_as_its_players_erasure_runs_is_not_kept(db, monkeypatch, erasure):
    """Retention reads a batch, and before it writes the batch to the archive its player's erasure begins,
    or runs to its end, its archive step finding nothing yet (then retention takes the row it wrote out
    again). Either way nothing of the player is left once the erasure ends, and another player's run in
    the batch stays archived."""
    for name in (ERASED, "bob"):
        create_player(db, name)
    erased_game, kept_game = legal_games(2)
    verified(db, ERASED, erased_game)
    verified(db, "bob", kept_game)
    writes = retention.write_archive

    def erased_before_the_write(database, runs):
        begun = erasing.begin_erasure(db, ERASED)
        if erasure == "finished":
            erasing.erase(db, begun, ("moderator", "mia"), 60)
        writes(database, runs)

    monkeypatch.setattr(retention, "write_archive", erased_before_the_write)
    tally = archive_old_runs(db, 0)
    if erasure == "begun":
        assert tally.archived == 2  # the erasure, carried on, finds the row by name
        erasing.finish_erasures(db, ("moderator", "mia"), 60)
    else:
        assert tally.archived == 1
    assert db.archive.player_count(ERASED) == 0 and db.archive.player_count("bob") == 1
    assert traces(db) == [] and check(db, 60) == []
