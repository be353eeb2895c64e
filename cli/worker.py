"""``scoundrel worker``: an RQ worker on the verification queue; ``--check``, whether one here is alive.

``--check`` is the worker container's health check (docker-compose.yml): a
worker that beats is running and reaches Redis, so a registration of this
host with a heartbeat younger than ``SCOUNDREL_WORKER_TTL`` is exactly a live,
connected worker. The host is the container's (each has a hostname of its
own, so ``--scale worker=N`` checks each worker by itself).
"""

import os
import socket
import sys

from .connecting import add_data_dir_option, settings_for
from .quick_exit import exit_now


def run(args) -> int:
    if args.check:
        return check(args)
    from worker.runner import run_worker

    settings = settings_for(args, default_redis=True)
    # Each job reads the settings again, in its own work-horse process: pin the Redis found here.
    os.environ["REDIS_URL"] = settings.redis_url
    run_worker(settings, burst=args.burst)
    if not args.burst:
        exit_now(0)  # stopped (SIGTERM): leave at once, so scoundrel up and an orchestrator need not wait
    return 0


def check(args) -> int:
    """0 when a worker on this host beat within the worker TTL, else 1 and one line saying what is missing."""
    from store import Database
    from store.queue import beating_on
    from worker.registry import JOBS

    settings = settings_for(args, default_redis=True)
    host = socket.gethostname()
    db = Database.from_settings(settings, JOBS)
    try:
        beating = beating_on(db, settings.worker_ttl, host)
    finally:
        db.close()
    if not beating:
        print(f"scoundrel worker --check: no worker on {host} has beaten in the last {settings.worker_ttl} s "
              f"(SCOUNDREL_WORKER_TTL)", file=sys.stderr)
        return 1
    print(f"{beating} worker{'' if beating == 1 else 's'} alive on {host}")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("worker", help="run a verification worker (RQ)",
                                   description="Verify queued runs. Redis: REDIS_URL, else the one scoundrel up runs.")
    add_data_dir_option(parser)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--burst", action="store_true", help="stop once the queue is empty")
    mode.add_argument("--check", action="store_true",
                      help="start no worker: exit 0 if a worker on this host beat within SCOUNDREL_WORKER_TTL "
                           "(alive and connected to Redis), else 1 (a container's health check)")
    parser.set_defaults(func=run)
