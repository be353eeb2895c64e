"""Issue 11: the archiver killed mid-move loses nothing and archives nothing twice.

``tests.support.archive_crash`` runs ``scoundrel archive`` in a real process
and SIGKILLs it between reading the runs from Redis and writing them to the
archive, or between the archive's commit and the Redis delete. Every read
answers the same throughout, ``scoundrel check`` names what a crash left in
both places, and the next pass ends with each run in exactly one place.
"""

import signal
import subprocess
import sys
import time

import pytest

from store.runs import load_run
from tests.audit.conftest import cli, submit_final
from tests.support.games import games_by_score

from .conftest import archive_now, snapshot


@pytest.fixture
def player_runs(stack):
    """A new player's four verified runs: the best holds the place, the other three can move."""
    name, token = stack.register()
    runs = []
    for game in games_by_score(f"fault-{name}", 4):
        runs.append(submit_final(stack, token, game))
        time.sleep(0.005)
    return name, [run["id"] for run in runs[:-1]], runs[-1]["id"]


def killed_archiver(stack, point: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.support.archive_crash", point, "--older-than", "0"],
                          env=stack.env(), capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("point", ["before-write", "after-commit"])
def test_a_killed_archiver_loses_nothing_and_archives_nothing_twice(stack, db, player_runs, point):
    name, movable, holder = player_runs
    before = {run_id: snapshot(stack, run_id) for run_id in [*movable, holder]}

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
    assert load_run(db, holder) is not None and db.archive.load([holder]) == {}
    for run_id, seen in before.items():
        assert snapshot(stack, run_id) == seen
    listing = stack.get(f"/v1/players/{name}/runs").json()
    assert listing["total"] == 4 and [run["id"] for run in listing["runs"]] == [holder, *reversed(movable)]
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr
