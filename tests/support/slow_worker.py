"""A verification worker whose every job (or every dispatch) sleeps first, so a fault test can kill it mid-job
(or between reading the intake's head and taking it).

Test-only, and kept out of the service: ``python -m tests.support.slow_worker
JOB_SECONDS [DISPATCH_SECONDS]`` runs ``scoundrel worker`` with
``worker.jobs.verify_runs`` wrapped to sleep ``JOB_SECONDS`` before
verifying, and ``store.queue.intake.take`` to sleep ``DISPATCH_SECONDS`` before
taking the runs its dispatcher read. RQ looks a job's function up by name
when it runs it, and the worker (a ``SimpleWorker``) runs jobs in this very
process, so every job it takes runs the wrapper; its dispatcher calls
``take`` by its module's name too.
"""

import functools
import sys
import time
from collections.abc import Callable
from typing import Any

import store.queue.intake
import worker.jobs
from cli.main import main


def delayed(seconds: float, job: Callable[..., Any]) -> Callable[..., Any]:
    """``job``, sleeping ``seconds`` before it starts."""

    @functools.wraps(job)
    def sleeping_first(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return job(*args, **kwargs)

    return sleeping_first


if __name__ == "__main__":
    job_delay, dispatch_delay = float(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    if job_delay:
        worker.jobs.verify_runs = delayed(job_delay, worker.jobs.verify_runs)
    if dispatch_delay:
        store.queue.intake.take = delayed(dispatch_delay, store.queue.intake.take)
    sys.exit(main(["worker"]))
