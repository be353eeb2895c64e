"""``scoundrel archive`` killed (SIGKILL, no clean-up) at a step of its move, for the fault tests.

Test-only, and kept out of the service: ``python -m tests.support.archive_crash
POINT [ARGS...]`` runs ``scoundrel archive ARGS`` with
``store.retention.write_archive`` (step 2: write the batch to the archive
and commit) wrapped to kill the process at ``POINT``:

- ``before-write``: the runs were read from Redis, nothing is written yet;
- ``after-commit``: the archive committed the batch, Redis still holds it.
"""

import functools
import os
import signal
import sys

import store.retention
from cli.main import main


def _killed_at(point: str, write):
    @functools.wraps(write)
    def write_then_die(db, runs):
        if point == "before-write":
            os.kill(os.getpid(), signal.SIGKILL)
        write(db, runs)
        if point == "after-commit":
            os.kill(os.getpid(), signal.SIGKILL)

    return write_then_die


if __name__ == "__main__":
    point = sys.argv[1]
    if point not in ("before-write", "after-commit"):
        sys.exit(f"unknown point {point!r}")
    store.retention.write_archive = _killed_at(point, store.retention.write_archive)
    sys.exit(main(["archive", "-q", *sys.argv[2:]]))
