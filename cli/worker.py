"""``scoundrel worker``: an RQ worker on the verification queue."""

import os

from .connecting import add_data_dir_option, settings_for
from .quick_exit import exit_now


def run(args) -> int:
    from worker.runner import run_worker

    settings = settings_for(args, default_redis=True)
    # Each job reads the settings again, in its own work-horse process: pin the Redis found here.
    os.environ["REDIS_URL"] = settings.redis_url
    run_worker(settings, burst=args.burst)
    if not args.burst:
        exit_now(0)  # stopped (SIGTERM): leave at once, so scoundrel up and an orchestrator need not wait
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("worker", help="run a verification worker (RQ)",
                                   description="Verify queued runs. Redis: REDIS_URL, else the one scoundrel up runs.")
    add_data_dir_option(parser)
    parser.add_argument("--burst", action="store_true", help="stop once the queue is empty")
    parser.set_defaults(func=run)
