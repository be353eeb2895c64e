"""Issue 11: the archive with its real processes. The archiver killed mid-move loses nothing and archives
nothing twice; the workers move old runs on their own timer (a worker process forked from this one, beside
the in-process stack); processes upgrading one archive at once all succeed. (What a command does to the
archive, without a process of its own, is ``test_retention.py``'s and ``test_layouts_and_migrations.py``'s.)

``tests.support.archive_crash`` runs ``scoundrel archive`` in a real process
and SIGKILLs it between reading the runs from Redis and writing them to the
archive, or between the archive's commit and the Redis delete; and so for a
cold seed board, and for an archived board a verdict warmed as it comes
back. Every read answers the same throughout, ``scoundrel check`` names
what a crash left in both places, and the next pass ends with each run and
each board in exactly one place.
"""

import functools
import multiprocessing
import signal
import subprocess

import pytest

from domain.boards import SEED_BOARD, BoardId
from store.archive import Archive
from store.base import keys
from store.boards.cooling import redis_places
from store.operations.consistency import check
from store.operations.retention import archive_old_runs
from store.runs.records import load_run
from tests.audit.conftest import cli, submit_final
from tests.support.archive_crash import archive_killed_at
from tests.support.commands import run_forked
from tests.support.games import games_by_score
from tests.support.waiting import until

from .conftest import archive_now, forked_command, fresh_archive_url, snapshot, submitted_final


@pytest.fixture
def player_runs(stack):
    """A new player's four verified runs on one deal: the best holds the places, and all four move."""
    name, token = stack.register()
    seed = f"fault-{name}"
    return name, seed, [run["id"] for run in submitted_final(stack, token, games_by_score(seed, 4))]


def board_reads(stack, name: str, seed: str) -> list:
    """Everything a client reads of a player's seed board: the board, their place, the page."""
    return [stack.get(f"/v1/seeds/{seed}/leaderboard").json(),
            stack.get(f"/v1/seeds/{seed}/leaderboard/players/{name}").json(),
            stack.get(f"/boards/seed/{seed}?player={name}").text]


def killed_archiver(stack, point: str, older_than: str = "0") -> subprocess.CompletedProcess:
    """``scoundrel archive`` killed at ``point``, in a process forked from this one (``run_forked``)."""
    output = stack.root / f"archiver-{point}"
    output.mkdir(exist_ok=True)
    return run_forked(functools.partial(archive_killed_at, point, "--older-than", older_than), stack.env(), output)


@pytest.mark.parametrize("point", ["before-write", "after-commit"])
def test_a_killed_archiver_loses_nothing_and_archives_nothing_twice(stack, db, player_runs, point):
    name, seed, movable = player_runs
    before = {run_id: snapshot(stack, run_id) for run_id in movable}
    boards_before = board_reads(stack, name, seed)

    killed = killed_archiver(stack, point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr

    for run_id, seen in before.items():
        assert load_run(db, run_id) is not None, "Redis keeps every run until the archive holds it"
        assert snapshot(stack, run_id) == seen
    in_archive = db.archive.load(movable)
    checked = cli(stack, "check")
    if point == "before-write":
        assert in_archive == {}
        assert checked.returncode == 0, checked.stderr
    else:
        assert set(in_archive) == set(movable)
        assert checked.returncode == 1
        for run_id in movable:
            assert f"run {run_id} is both in Redis and in the archive" in checked.stderr

    archive_now(stack)
    for run_id in movable:
        assert load_run(db, run_id) is None
    assert set(db.archive.load(movable)) == set(movable)
    assert db.archive.player_count(name) == len(movable)
    for run_id, seen in before.items():
        assert snapshot(stack, run_id) == seen
    assert board_reads(stack, name, seed) == boards_before
    listing = stack.get(f"/v1/players/{name}/runs").json()
    assert listing["total"] == 4 and [run["id"] for run in listing["runs"]] == list(reversed(movable))
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr


def test_a_board_move_killed_after_the_commit_leaves_both_copies_read_alike(stack, db, player_runs):
    name, seed, _ = player_runs
    before = board_reads(stack, name, seed)
    killed = killed_archiver(stack, "boards-after-commit")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    seed_board = BoardId(SEED_BOARD, ("classic", seed))
    assert redis_places(db, [seed_board])[0]  # its one place (``Board.sole``), still in Redis
    assert db.archive.board_places("seed", f"classic:{seed}")
    assert board_reads(stack, name, seed) == before
    assert check(db, 3600) == []
    archive_old_runs(db, 0)
    assert redis_places(db, [seed_board]) == [[]]
    assert [place.player for place in db.archive.board_places("seed", f"classic:{seed}")] == [name]
    assert board_reads(stack, name, seed) == before


def test_a_board_killed_coming_back_leaves_both_copies_read_alike(stack, db, player_runs):
    """A verdict on an archived board warms it; the pass bringing it back dies before taking it out of the
    archive: both copies hold the same places, and the next pass ends the move."""
    name, seed, runs = player_runs
    archive_old_runs(db, 0)
    _, late = stack.register()
    submit_final(stack, late, games_by_score(seed, 4)[1])
    before = board_reads(stack, name, seed)
    killed = killed_archiver(stack, "bring-back-before-delete", "30")  # nothing that old: no run moves
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert db.redis.zcard(keys.board_places("seed", ("classic", seed))) == 2
    assert db.archive.board_places("seed", f"classic:{seed}")
    assert board_reads(stack, name, seed) == before
    assert check(db, 3600) == []
    assert archive_old_runs(db, 30).boards.brought_back == 1
    assert db.archive.board_places("seed", f"classic:{seed}") == []
    assert board_reads(stack, name, seed) == before
    assert before[0]["entries"][0]["run_id"] == runs[-1]
    assert check(db, 3600) == []


# the workers' own timer: retention runs without anyone asking

def test_workers_move_old_runs_on_their_own(in_process_pool):
    """A worker process (``scoundrel worker``, forked from this one) with its archiving timer set short moves the
    runs of a stack of this process: the API and the verdicts are the stack's, the timer the worker's own."""
    with in_process_pool.using() as stack:
        db = stack.database()
        try:
            token = stack.register("fay")[1]
            low, high = games_by_score("scheduled", 2)
            low_id, high_id = (run["id"] for run in submitted_final(stack, token, [low, high]))
            worker = forked_command({**stack.env(), "SCOUNDREL_HOT_DAYS": "0", "SCOUNDREL_ARCHIVE_INTERVAL": "0.5"},
                                    "worker")
            try:
                # a pass may take one run and the board before the other run's turn: wait for the whole move
                until(lambda: not redis_places(db, [BoardId(SEED_BOARD, ("classic", "scheduled"))])[0]
                      and len(db.archive.load([low_id, high_id])) == 2, "the worker's timer moving both runs", 30)
            finally:
                worker.terminate()  # SIGTERM: the worker's warm shutdown
                worker.join(timeout=30)
            assert worker.exitcode == 0
            assert set(db.archive.load([low_id, high_id])) == {low_id, high_id}
            assert load_run(db, low_id) is None and load_run(db, high_id) is None
            assert stack.get(f"/v1/runs/{low_id}").json()["status"] == "verified"
            assert stack.get("/v1/seeds/scheduled/leaderboard").json()["entries"][0]["run_id"] == high_id
        finally:
            db.close()


def upgrade(archive_url: str) -> None:
    archive = Archive(archive_url)
    try:
        archive.upgrade()
    finally:
        archive.dispose()


def test_processes_upgrading_at_once_all_succeed(tmp_path, archive_url):
    """Four processes, each with its own connection, forked from this one (which has imported the archive's
    code already: started anew, each spent most of a second of CPU importing it), so they start within
    milliseconds of each other. A failing one prints its traceback to this test's captured stderr."""
    archive_url = fresh_archive_url(archive_url, tmp_path)
    processes = [multiprocessing.get_context("fork").Process(target=upgrade, args=(archive_url,)) for _ in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
    archive = Archive(archive_url)
    try:
        assert list(archive.run_ids()) == []
    finally:
        archive.dispose()
