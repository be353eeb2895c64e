"""``scoundrel migrate``: rewrite every run and key of an older layout into the one the store reads.

Without ``--apply`` it only reports what it would change (a count per
kind) and changes nothing; with it, it rewrites (``store.operations.migration``).
Safe to interrupt and run again (it carries on), to run twice (the second
run finds nothing), and beside running workers and the API. Redis:
``REDIS_URL``, else the one ``scoundrel up`` runs. The archive's rows are
brought to today's layout by its schema migrations, which each process
applies when it starts (``store.archive.Archive.upgrade``); this command
applies them too, first, since a run owed its board places has them
recomputed from its player's archived runs as well.
"""

import sys

from scoundrel.wording import plural

from .bulk_options import add_bulk_options
from .connecting import add_operator_options, connect
from .progress import progress_bar


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "migrate", help="rewrite the runs and keys of an older layout (a dry run without --apply)",
        description="Find every run and key Redis holds in an older layout (an id field in a run's hash, moves "
                    "spelt out, an audit stream, the index of every run, a name without its lower-case spelling, "
                    "a seed board place not naming its run; the previous release's step keys: runs whose board "
                    "places were still owed, the boards' version hashes and sets of runs being placed, its "
                    "other marks; ids in the intake of runs erased while they waited) and report a count per kind, "
                    "changing nothing; with --apply, rewrite each "
                    "into today's layout, each run in one atomic step (a run owed its places gets its player's "
                    "places recomputed from all their runs, as a restore does; then the step keys are deleted; the "
                    "runs erased while waiting in the intake are taken out of it). "
                    "Safe to interrupt and run again, and beside running workers and the API.")
    add_bulk_options(parser, apply_help="rewrite what is found (without it: only report)",
                     batch_help="run keys read and rewritten together (default: 500)")
    add_operator_options(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from store.base import BULK_TIMEOUT
    from store.operations import MIGRATION_BATCH, migrate, run_count

    db = connect(args, timeout=BULK_TIMEOUT, upgrade_archive=True)
    bar = None
    try:
        if sys.stderr.isatty() and not args.quiet:
            bar = progress_bar(run_count(db), " runs")
        tally = migrate(db, apply=args.apply, batch=args.batch or MIGRATION_BATCH,
                        progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
        db.close()
    print(summary(tally, args.apply), file=sys.stderr if tally.changed else sys.stdout)
    return 1 if tally.changed else 0


def found(tally) -> str:
    """What of an older layout ``tally`` found: ``2 runs of an older layout (…) and the index of every run``."""
    parts = []
    if tally.old:
        parts.append(f"{tally.old} {plural('run', tally.old)} of an older layout ({tally.kinds()})")
    if tally.run_index:
        parts.append("the index of every run")
    if tally.unspelt_names:
        parts.append(f"{tally.unspelt_names} player or moderator {plural('name', tally.unspelt_names)} "
                     f"without their lower-case spelling")
    if tally.name_flags:
        parts.append(f"{tally.name_flags} {plural('flag', tally.name_flags)} of names spelt")
    if tally.unnamed_places:
        parts.append(f"{tally.unnamed_places} seed board {plural('place', tally.unnamed_places)} "
                     f"not naming their run")
    if tally.lone_boards:
        parts.append(f"{tally.lone_boards} seed {plural('board', tally.lone_boards)} of one place "
                     f"in {'its' if tally.lone_boards == 1 else 'their'} own keys")
    if tally.unmarked_boards:
        parts.append(f"{tally.unmarked_boards} seed {plural('board', tally.unmarked_boards)} in "
                     f"{'its' if tally.unmarked_boards == 1 else 'their'} own keys with no mark saying so")
    if tally.owed_runs:
        parts.append(f"{tally.owed_runs} ended {plural('game', tally.owed_runs)} whose run "
                     f"{'was' if tally.owed_runs == 1 else 'were'} still to be accepted")
    if tally.owed_places:
        parts.append(f"{tally.owed_places} {plural('run', tally.owed_places)} whose board places "
                     f"{'was' if tally.owed_places == 1 else 'were'} still owed")
    if tally.board_versions:
        parts.append(f"{tally.board_versions} board version {plural('hash', tally.board_versions, 'hashes')}")
    if tally.placed_sets:
        parts.append(f"{tally.placed_sets} board {plural('set', tally.placed_sets)} of runs being placed")
    if tally.step_marks:
        parts.append(f"{tally.step_marks} other {plural('key', tally.step_marks)} of the older layout's steps")
    if tally.gone_waiting:
        parts.append(f"{tally.gone_waiting} {plural('run', tally.gone_waiting)} erased while waiting in the intake")
    if tally.indexed_waiting:
        parts.append(f"{tally.indexed_waiting} {plural('run', tally.indexed_waiting)} waiting in the intake "
                     f"and in the index of pending runs too")
    if tally.hashed_bans:
        parts.append(f"{tally.hashed_bans} {plural('ban', tally.hashed_bans)} in the older layout's hash of bans")
    if tally.filter_marks:
        parts.append("an archived-runs filter of an older layout")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def summary(tally, applied: bool) -> str:
    """One line: what was found of an older layout and, with ``--apply``, what was rewritten."""
    looked = f"of {tally.examined} {plural('run', tally.examined)} in Redis"
    if not tally.anything:
        return f"scoundrel migrate: nothing to change: every run is in today's layout ({looked})"
    found_text = found(tally)
    if not applied:
        return f"scoundrel migrate: would rewrite {found_text} {looked}; nothing changed: run it with --apply"
    line = f"scoundrel migrate: rewrote {found_text} {looked}"
    if tally.changed:
        line += (f"; {tally.changed} {plural('run', tally.changed)} kept changing meanwhile and "
                 f"{'was' if tally.changed == 1 else 'were'} left: run it again")
    return line
