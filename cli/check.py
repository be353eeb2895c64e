"""``scoundrel check``: compare the boards with a recomputation from the stored runs."""

import os
import sys


def run(args) -> int:
    from service.config import Settings
    from store import Database
    from store.consistency import check

    settings = Settings.from_env()
    db = Database(settings.redis_url, settings.queue, settings.job_timeout, socket_timeout=30.0)
    problems = check(db, args.pending_limit)
    if problems:
        print(f"scoundrel check: {len(problems)} problem(s)", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print("scoundrel check: the boards match the runs; no run pending too long")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check", help="check the boards against the stored runs",
        description="Recompute every board from the stored runs and compare; report runs pending too long. "
                    "Exits 1 with a report on any mismatch. Redis: REDIS_URL.")
    parser.add_argument("--pending-limit", type=float, default=float(os.environ.get("SCOUNDREL_PENDING_TIMEOUT", 60)) * 5,
                        help="seconds a run may be pending before it counts as stuck (default: %(default)s)")
    parser.set_defaults(func=run)
