"""A verification worker whose every job sleeps first, so a fault test can kill it mid-job.

Test-only, and kept out of the service: ``python -m tests.support.slow_worker
SECONDS`` runs ``scoundrel worker`` with ``worker.jobs.verify_runs`` wrapped
to sleep ``SECONDS`` before verifying. RQ looks a job's function up by name
when it runs it, and the worker (a ``SimpleWorker``) runs jobs in this very
process, so every job it takes runs the wrapper.
"""

import functools
import sys
import time
from collections.abc import Callable

import worker.jobs
from cli.main import main


def delayed(seconds: float, job: Callable[..., dict[str, str]]) -> Callable[..., dict[str, str]]:
    """``job``, sleeping ``seconds`` before it starts."""

    @functools.wraps(job)
    def sleeping_first(*run_ids: str) -> dict[str, str]:
        time.sleep(seconds)
        return job(*run_ids)

    return sleeping_first


if __name__ == "__main__":
    worker.jobs.verify_runs = delayed(float(sys.argv[1]), worker.jobs.verify_runs)
    sys.exit(main(["worker", *sys.argv[2:]]))
