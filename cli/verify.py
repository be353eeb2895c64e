"""``scoundrel verify [FILE]``: one verdict per submission, in input order.

Input is JSON Lines, one submission ``{"seed", "moves", "variant"}`` a line.
Output line N is the verdict for input line N, so the two can be read side
by side; that is why every line gets a verdict, a blank line and a line
that is not JSON included (both ``invalid``). Output is written as it is
judged, one flushed line per submission, so the command also works as a
co-process that is fed a line and waits for its answer.
"""

import codecs
import json
import os
import stat
import sys
from collections import Counter

from .progress import progress_bar

STATUSES = ("verified", "rejected", "invalid")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="judge JSON Lines submissions, one verdict JSON per line",
        description=(
            "Read submissions, one JSON object {seed, moves, variant} per line, from FILE or standard "
            "input, and print one verdict JSON per line in input order. Malformed lines (blank lines "
            "included) get an 'invalid' verdict; the command exits 0 whatever the input holds."
        ),
    )
    parser.add_argument("file", metavar="FILE", nargs="?", default="-",
                        help="JSON Lines file; '-' or none: standard input")
    chatter = parser.add_mutually_exclusive_group()
    chatter.add_argument(
        "--summary", action="store_true", help="print the count per status on stderr even when stderr is not a terminal"
    )
    chatter.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    parser.set_defaults(func=run)


def run(args) -> int:
    try:
        source = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as error:
        print(f"scoundrel verify: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    interactive = sys.stderr.isatty() and not args.quiet
    with source:
        counts = _verify_stream(source, sys.stdout, _progress_bar(source) if interactive else None)
    if interactive or args.summary:
        print(summary(counts), file=sys.stderr)
    return 0


def _verify_stream(source, out, bar) -> Counter:
    from .submissions import verdict_for_line

    counts: Counter = Counter()
    try:
        for number, line in enumerate(source):
            if number == 0:
                line = line.removeprefix(codecs.BOM_UTF8)
            verdict = verdict_for_line(line)
            counts[verdict["status"]] += 1
            out.write(json.dumps(verdict) + "\n")
            out.flush()
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    return counts


def summary(counts: Counter) -> str:
    """``10000 submissions: 9000 verified, 900 rejected, 100 invalid``."""
    total = sum(counts.values())
    noun = "submission" if total == 1 else "submissions"
    return f"{total} {noun}: " + ", ".join(f"{counts[status]} {status}" for status in STATUSES)


def _progress_bar(source):
    return progress_bar(_line_count(source), " submissions")


def _line_count(source) -> int | None:
    """Lines in a regular file, counted ahead for the bar's total; None for a pipe or a terminal."""
    try:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            return None
        start = source.tell()
    except (OSError, ValueError):
        return None
    lines, last = 0, b"\n"
    while chunk := source.read(1 << 20):
        lines += chunk.count(b"\n")
        last = chunk[-1:]
    source.seek(start)
    return lines + (last != b"\n")
