"""A function run in a process forked from this one, for the tests and the benchmarks.

A process of its own, as a command started anew is, without the most of a
second of CPU that importing the service costs a new one: the process it is
forked from has imported the service already.
"""

import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path


def fork(run: Callable[[], object], env: dict, out: Path, err: Path) -> int:
    """The id of a process forked from this one that runs ``run()`` with ``env`` added to its environment, in a
    session of its own, what it prints in the files ``out`` and ``err``; its exit status is ``SystemExit``'s code,
    else 0, or 1 for an exception (its traceback on ``err``). It never returns into the caller's code."""
    sys.stdout.flush()  # what this process has buffered is printed once, by this process
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    status = 1
    try:
        os.setsid()
        for path, fd in ((out, 1), (err, 2)):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        sys.stdout, sys.stderr = open(1, "w", closefd=False), open(2, "w", closefd=False)
        os.environ.update(env)
        run()
        status = 0
    except SystemExit as leaving:
        status = leaving.code if isinstance(leaving.code, int) else int(leaving.code is not None)
        if isinstance(leaving.code, str):
            print(leaving.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
