"""``scoundrel reverify``: replay stored runs with the current engine (REDIS_URL, else the Redis scoundrel up runs).

After an engine fix, moderators re-judge what was verified before. Each
run whose verdict or score changes gets its new verdict, its player's board
places and an audit entry (actor ``cli``) in one atomic step; unchanged runs
are left as they are. Changed runs are printed, one line each, as they are
found; pending runs are skipped (their workers judge them).
"""

import getpass
import sys
from datetime import UTC, date, datetime

from scoundrel.wording import plural

from .connecting import add_operator_options, connect
from .progress import progress_bar


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "reverify", help="replay stored runs with the current engine and update verdicts and boards",
        description="Replay stored runs (in the Redis at REDIS_URL, else the one scoundrel up runs) "
                    "with the current engine; print and record every run whose verdict or score changes.",
    )
    parser.add_argument("--all", action="store_true", help="every run")
    parser.add_argument("--variant", choices=("classic", "easy", "hard"), help="only runs of this variant")
    parser.add_argument("--since", type=_day, metavar="DATE",
                        help="only runs submitted on or after DATE (YYYY-MM-DD, UTC)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_operator_options(parser)
    parser.set_defaults(func=run, parser=parser)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not a date: {text!r}") from None


_day.__name__ = "date"  # argparse names the type in its error: "invalid date value"


def run(args) -> int:
    if args.all == bool(args.variant or args.since):
        args.parser.error("choose --all, or --variant and/or --since")

    from domain.errors import NoSuchRun, RunPending
    from store import load_run
    from store.base import BULK_TIMEOUT
    from store.moderation import run_ids
    from verification import reverify_run

    db = connect(args, timeout=BULK_TIMEOUT)
    since_ms = None
    if args.since:
        since_ms = int(datetime.combine(args.since, datetime.min.time(), UTC).timestamp() * 1000)
    selected = run_ids(db, since_ms)
    actor = f"cli:{getpass.getuser()}"
    bar = _progress_bar(len(selected)) if sys.stderr.isatty() and not args.quiet else None
    checked = changed = skipped = 0
    try:
        for run_id in selected:
            if bar is not None:
                bar.update()
            if args.variant:
                stored = load_run(db, run_id)
                if stored is None or stored.variant != args.variant:
                    continue
            try:
                result = reverify_run(db, run_id, "cli", actor, log_unchanged=False)
            except RunPending:
                skipped += 1
                continue
            except NoSuchRun:
                continue
            checked += 1
            if result["changed"]:
                changed += 1
                _print_change(result, bar)
    finally:
        if bar is not None:
            bar.close()
    print(f"{checked} {plural('run', checked)} re-verified: {changed} changed, {checked - changed} unchanged"
          + (f", {skipped} pending skipped" if skipped else ""))
    return 0


def _verdict_text(summary: dict) -> str:
    if summary["status"] == "verified":
        return f"verified {summary['outcome']} score {summary['score']}"
    if summary["status"] == "rejected":
        return f"rejected {summary['error']}"
    return summary["status"]


def _print_change(result: dict, bar) -> None:
    line = f"{result['run_id']}\t{_verdict_text(result['before'])} -> {_verdict_text(result['after'])}"
    if bar is not None:
        bar.write(line, file=sys.stdout)
    else:
        print(line, flush=True)


def _progress_bar(total: int):
    return progress_bar(total, " runs")
