"""``scoundrel check``: compare the boards with a recomputation from the stored runs."""

import sys

from settings import Settings


def run(args) -> int:
    from store import Database
    from store.consistency import check
    from store.database import BULK_TIMEOUT

    db = Database.from_settings(Settings.from_env(), timeout=BULK_TIMEOUT)
    db.archive.upgrade()
    problems = check(db, args.pending_limit)
    if problems:
        print(f"scoundrel check: {len(problems)} problem(s)", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print("scoundrel check: the boards match the runs; every run is in Redis or the archive, not both; "
          "no run pending too long")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check", help="check the boards against the stored runs",
        description="Recompute every board from the stored runs and compare; check every run is in Redis or "
                    "the archive, not both, and every board place names a run in Redis; report runs pending "
                    "too long. Exits 1 with a report on any mismatch. Redis: REDIS_URL; the archive: "
                    "SCOUNDREL_ARCHIVE_URL.")
    parser.add_argument("--pending-limit", type=float, default=Settings.from_env().pending_timeout * 5,
                        help="seconds a run may be pending before it counts as stuck (default: %(default)s)")
    parser.set_defaults(func=run)
