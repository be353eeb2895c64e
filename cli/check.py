"""``scoundrel check``: compare the boards with a recomputation from the stored runs."""

import argparse
import sys

from settings import Settings

from .connecting import add_operator_options, connect


def _seconds(text: str) -> float:
    """A number of seconds above zero (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def run(args) -> int:
    from store.base import BULK_TIMEOUT
    from store.operations import check, migrate, place_on_seed_boards

    from .migrate import found

    db = connect(args, timeout=BULK_TIMEOUT, upgrade_archive=True)
    if args.place_seed_boards:
        print(f"scoundrel check: {place_on_seed_boards(db)} seed board place(s) recomputed")
    old_layout = migrate(db, apply=False)
    problems = []
    if old_layout.anything:
        problems.append(f"{found(old_layout)}: the store reads only today's; run scoundrel migrate "
                        f"(it shows what it would change), then scoundrel migrate --apply")
    problems += check(db, args.pending_limit)
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
        description="Report runs and keys of an older layout (scoundrel migrate rewrites them); recompute every "
                    "board from the stored runs and compare; check every run is in Redis or "
                    "the archive, not both, and every board place names a run in Redis; report runs pending "
                    "too long. Exits 1 with a report on any mismatch. Redis: REDIS_URL, else the one scoundrel "
                    "up runs; the archive: SCOUNDREL_ARCHIVE_URL, else SQLite in the data directory.")
    parser.add_argument("--pending-limit", type=_seconds, default=Settings.from_env().pending_timeout * 5,
                        help="seconds a run may be pending before it counts as stuck (default: %(default)s)")
    parser.add_argument("--place-seed-boards", action="store_true",
                        help="first put every verified open run on its deal's seed board, as the verdict does: "
                             "once, for runs verified before seed boards existed")
    add_operator_options(parser)
    parser.set_defaults(func=run)
