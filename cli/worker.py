"""``scoundrel worker``: an RQ worker on the verification queue."""

from settings import Settings


def run(args) -> int:
    from worker.runner import run_worker

    run_worker(Settings.from_env(), burst=args.burst)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("worker", help="run a verification worker (RQ)",
                                   description="Verify queued runs. Redis: REDIS_URL.")
    parser.add_argument("--burst", action="store_true", help="stop once the queue is empty")
    parser.set_defaults(func=run)
