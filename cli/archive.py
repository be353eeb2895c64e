"""``scoundrel archive``: move old finished runs from Redis to the archive now.

The workers do the same on their own every ``SCOUNDREL_ARCHIVE_INTERVAL``
seconds; this is for an operator who wants it done at once, or with
another age (``--older-than``). Redis: ``REDIS_URL``, else the one
``scoundrel up`` runs; the archive: ``SCOUNDREL_ARCHIVE_URL``, else SQLite
in the data directory. Its schema is brought up to date first.
"""

import sys

from scoundrel.wording import plural
from settings import Settings

from .connecting import add_operator_options, connect
from .progress import progress_bar


def register(subparsers) -> None:
    settings = Settings.from_env()
    parser = subparsers.add_parser(
        "archive", help="move finished runs older than N days, and boards cold as long, to the archive",
        description="Move verified, rejected and void runs submitted more than DAYS days ago from Redis to the "
                    "archive (SCOUNDREL_ARCHIVE_URL, else SQLite in the data directory), in batches; then every "
                    "seed board and season's dealt board with no place newer than that, and bring back the "
                    "archived boards a verdict placed on since. Safe to interrupt and run again.")
    parser.add_argument("--older-than", type=_days, default=settings.hot_days, metavar="DAYS",
                        help="archive runs submitted more than DAYS days ago (default: SCOUNDREL_HOT_DAYS, "
                             "%(default)g)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_operator_options(parser)
    parser.set_defaults(func=run)


def _days(text: str) -> float:
    days = float(text)
    if not days >= 0:
        raise ValueError(text)
    return days


_days.__name__ = "number of days"  # argparse names the type in its error


def run(args) -> int:
    from store.base import BULK_TIMEOUT
    from store.operations import archive_old_runs, due

    db = connect(args, timeout=BULK_TIMEOUT, upgrade_archive=True)
    bar = None
    try:
        total = due(db, args.older_than)
        if sys.stderr.isatty() and not args.quiet:
            bar = progress_bar(total, " runs")
        tally = archive_old_runs(db, args.older_than, progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
        db.close()
    print(f"{tally.archived} {plural('run', tally.archived)} archived; "
          f"kept in Redis: {tally.unfinished} pending or in error, {tally.returned} back from the archive since, "
          f"{tally.changed} changed meanwhile "
          f"(of {tally.examined} older than {args.older_than:g} days); "
          f"{tally.boards.cooled} cold {plural('board', tally.boards.cooled)} archived, "
          f"{tally.boards.brought_back} brought back, {tally.boards.changed} changed meanwhile")
    return 0

