"""``scoundrel archive`` killed (SIGKILL, no clean-up) at a step of its move, for the fault tests.

Test-only, and kept out of the service: ``archive_killed_at(POINT, *ARGS)`` (or ``python -m
tests.support.archive_crash POINT [ARGS...]``) runs ``scoundrel archive ARGS`` with
``store.operations.retention.write_archive`` (step 2: write the batch to the archive
and commit) wrapped to kill the process at ``POINT``:

- ``before-write``: the runs were read from Redis, nothing is written yet;
- ``after-commit``: the archive committed the batch, Redis still holds it;

or, for the boards that cool (``store.boards.cooling``), at

- ``boards-after-commit``: the archive committed a batch of cold boards, Redis still holds them;
- ``bring-back-before-delete``: a warm board's archived places are back in Redis, still in the archive.
"""

import functools
import os
import signal
import sys

import store.boards.cooling
import store.operations.retention
from cli.main import main

POINTS = ("before-write", "after-commit", "boards-after-commit", "bring-back-before-delete")


def _killed_at(point: str, write):
    @functools.wraps(write)
    def write_then_die(db, runs):
        if point == "before-write":
            os.kill(os.getpid(), signal.SIGKILL)
        write(db, runs)
        if point == "after-commit":
            os.kill(os.getpid(), signal.SIGKILL)

    return write_then_die


def _die(*_) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _then_die(step):
    @functools.wraps(step)
    def step_then_die(*args):
        step(*args)
        _die()

    return step_then_die


def kill_at(point: str) -> None:
    """Kill this process at ``point`` of the moves that ``scoundrel archive`` makes from now on."""
    if point not in POINTS:
        sys.exit(f"unknown point {point!r}")
    store.boards.cooling.LOCK_SECONDS = 1  # the lock it dies holding frees the next pass at once
    if point == "boards-after-commit":
        store.boards.cooling.write_boards = _then_die(store.boards.cooling.write_boards)
    elif point == "bring-back-before-delete":
        store.boards.cooling.drop_archived = _die
    else:
        store.operations.retention.write_archive = _killed_at(point, store.operations.retention.write_archive)


def archive_killed_at(point: str, *args: str) -> None:
    """``scoundrel archive -q ARGS``, killed at ``point``."""
    kill_at(point)
    sys.exit(main(["archive", "-q", *args]))


if __name__ == "__main__":
    archive_killed_at(*sys.argv[1:])
