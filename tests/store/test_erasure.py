"""Issue 33, item 4, the store's part: an erasure whose archive share is longer than a request erases is
finished by ``scoundrel erase --finish``; one stopped midway (a crash) is carried on from where it stopped; the
command's refusals are one line. On a throwaway Redis with an archive of its own. Issue 44, item 4: what an
erasure deleted is gone from the files too, the archive's and Redis' append-only file."""

import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from cli.redis_server import RedisServer
from domain.boards import OPEN_BOARD, BoardId
from store import Database, Submission, create_player, find_player, load_runs, record_verdicts, submit_run
from store.base import keys
from store.base.service_mark import mark_service
from store.boards.pages import board_page, ranking
from store.operations import retention
from store.operations.consistency import check
from store.operations.retention import archive_old_runs
from store.privacy import erasure as erasing
from store.queue.intake import dispatch
from tests.support.commands import run_command
from tests.support.games import legal_games
from verification import judge
from worker.registry import JOBS

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
    assert dispatch(db) == 1  # out of the intake, whose entry copies the run, as a dispatcher takes it
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


def file_bytes(*paths: Path) -> bytes:
    """What the files hold, those of them that exist: a SQLite database and its write-ahead log, say."""
    return b"".join(path.read_bytes() for path in paths if path.exists())


def sqlite_built_without_secure_delete(database: Database) -> None:
    """The archive's SQLite as most builds have it, deleted content left in place unless asked (Debian's
    build zeroes it by default): each new connection begins with ``secure_delete`` off."""
    sa.event.listen(database.archive.engine, "connect",
                    lambda connection, record: connection.execute("PRAGMA secure_delete=OFF"), insert=True)
    database.archive.engine.dispose()


def test_the_archive_file_keeps_no_trace_of_an_erased_players_runs(db, tmp_path):
    """Issue 44, item 4: the archive's pages freed by the erasure are zeroed, its write-ahead log emptied; a
    ``grep -a`` of the file finds neither the name nor a run id, a seed or a move of the audit log."""
    sqlite_built_without_secure_delete(db)
    for name in (ERASED, "bob"):
        create_player(db, name)
    for game in legal_games(3):
        verified(db, ERASED, game)
    verified(db, "bob", legal_games(4)[3])
    erased_ids = [run.id for batch in erasing.personal_data.run_batches(db, ERASED) for run in batch]
    [bob_run] = [run.id for batch in erasing.personal_data.run_batches(db, "bob") for run in batch]
    archive_old_runs(db, 0)
    files = (tmp_path / "archive.sqlite3", tmp_path / "archive.sqlite3-wal")
    traces_of_erased = [ERASED.encode(), *(run_id.encode() for run_id in erased_ids),
                        *(game["seed"].encode() for game in legal_games(3))]
    held = file_bytes(*files)
    assert all(trace in held for trace in traces_of_erased)  # what the erasure must take out

    erasing.erase(db, erasing.begin_erasure(db, ERASED), ("moderator", "mia"), 60)
    left = file_bytes(*files)
    assert [trace for trace in traces_of_erased if trace in left] == []
    assert bob_run.encode() in left and db.archive.player_count("bob") == 1  # the rest of the archive is whole


class AppendOnlyRedis(RedisServer):
    """A Redis keeping an append-only file whose RDB preamble is uncompressed: a name left in it is there
    to be read as bytes, as ``grep -a`` would. Every write is in the file before Redis answers it
    (``appendfsync always``): with the service's ``everysec`` Redis may hold a write back while an fsync
    runs, and the file would not yet hold what the test just wrote."""

    def command(self) -> list[str]:
        return [*super().command(), "--rdbcompression", "no", "--appendfsync", "always"]


@pytest.mark.parametrize("erased", [(ERASED,), (ERASED, "yvette")])
def test_redis_rewrites_its_append_only_file_once_an_erasure_is_done(tmp_path, erased):
    """Issue 44, item 4: the append-only file holds every write since its last rewrite, the erased players'
    names among them; an erasure asks for one rewrite, after which the file holds what Redis does. Erasures
    finished together (``scoundrel erase --finish``) ask once, when all are done: Redis refuses a second
    while the first runs, and the first would hold the players erased after it began."""
    server = AppendOnlyRedis(tmp_path / "redis", persistent=True).start()
    database = Database(server.url, JOBS, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3")
    try:
        database.archive.upgrade()
        for name in (*erased, "bob"):
            create_player(database, name)
        for name, game in zip(erased, legal_games(len(erased)), strict=True):
            verified(database, name, game)
        aof = tmp_path / "redis" / "appendonlydir"
        assert all(name.encode() in file_bytes(*aof.iterdir()) for name in erased)
        rewrites = int(database.redis.info("persistence")["aof_rewrites"])

        if len(erased) == 1:
            erasing.erase(database, erasing.begin_erasure(database, ERASED), ("moderator", "mia"), 60)
        else:
            for name in erased:
                erasing.begin_erasure(database, name)
            erasing.finish_erasures(database, ("cli", "operator"), 60)
        persistence = database.redis.info("persistence")
        assert (persistence["aof_rewrite_in_progress"] or persistence["aof_rewrite_scheduled"]
                or persistence["aof_rewrites"] > rewrites), "no rewrite of the append-only file was asked for"
        deadline = time.monotonic() + 30
        while True:  # until Redis says the rewrite it was asked for is done
            persistence = database.redis.info("persistence")
            if not (persistence["aof_rewrite_in_progress"] or persistence["aof_rewrite_scheduled"]):
                break
            assert time.monotonic() < deadline, "the append-only file's rewrite did not end"
            time.sleep(0.05)
        assert persistence["aof_rewrites"] == rewrites + 1 and persistence["aof_last_bgrewrite_status"] == "ok"
        rewritten = file_bytes(*aof.iterdir())
        assert [name for name in erased if name.encode() in rewritten] == [] and b"bob" in rewritten
    finally:
        database.close()
        server.stop()


def test_the_command_says_what_became_of_a_player_with_or_without_runs(db, env):
    """Issue 44, item 13: a player with no runs held no place for a pseudonym to keep."""
    for name in ("ada", ERASED):
        create_player(db, name)
    verified(db, ERASED, legal_games(1)[0])
    said = {}
    for name in ("ada", ERASED):
        erased = run_command(env, "erase", name)
        _, [entry] = erasing.erasure_log(db, 0, 1)
        said[name] = (erased.returncode, erased.stdout, entry["pseudonym"])
    ada_pseudonym, erased_pseudonym = said["ada"][2], said[ERASED][2]
    assert said["ada"][:2] == (0, f"scoundrel erase: ada erased; they had no runs, so no place keeps them (the "
                                  f"log of erasures names them {ada_pseudonym})\n")
    assert said[ERASED][:2] == (0, f"scoundrel erase: {ERASED} erased; 1 run(s); a place kept on a past season's "
                                   f"standings or a closed day's sealed board shows as {erased_pseudonym}\n")
