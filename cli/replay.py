"""``scoundrel replay``: a game move by move, as a table to audit.

Exit status: 0 for a verified game (won or lost), 1 for a rejected one,
2 for input that is not a well-formed submission (its errors on stderr).
"""

import sys

import scoundrel
from settings import Settings

from .trace_table import SUIT_SYMBOLS, TraceTable


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a game and print its step trace as a table",
        description=(
            "Replay the moves on the dungeon dealt from SEED and print one row per move: the room before "
            "it, the move, health, weapon (with its last kill), cards left in the dungeon and what the "
            "move did; then the verdict. Exit 0 verified, 1 rejected, 2 invalid input."
        ),
        epilog="Moves may also be given as one quoted argument: scoundrel replay abc 'S8b C5b H6'",
    )
    parser.add_argument("seed", metavar="SEED", nargs="?", help="the seed (not with --file)")
    parser.add_argument("moves", metavar="MOVE", nargs="*", help="moves in the notation: flee, H5, D7, S8w, C5b")
    parser.add_argument("--variant", choices=scoundrel.VARIANTS, help="classic (the default), easy or hard")
    parser.add_argument(
        "--file", metavar="F",
        help="read the submission from F instead ('-': standard input): one JSON object, "
             "or JSON Lines (the first line)",
    )
    parser.add_argument("--ascii", action="store_true", help="card codes (S8) instead of suit symbols (♠8)")
    parser.set_defaults(func=run, usage_error=parser.error)


def run(args) -> int:
    from schemas import load_submission

    if args.file is not None:
        if args.seed is not None or args.variant is not None:
            args.usage_error("--file takes the seed, moves and variant from the file; give no SEED, MOVE or --variant")
        try:
            text = sys.stdin.read() if args.file == "-" else _read(args.file)
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            print(f"scoundrel replay: cannot read {args.file}: {reason}", file=sys.stderr)
            return 2
        submission, errors = _first_submission(text)
    else:
        if args.seed is None:
            args.usage_error("give SEED and MOVEs, or --file")
        moves = [move for argument in args.moves for move in argument.replace(",", " ").split()]
        submission, errors = load_submission(
            {"seed": args.seed, "moves": moves, "variant": args.variant or scoundrel.CLASSIC}
        )
    if errors:
        print("scoundrel replay: invalid submission", file=sys.stderr)
        for line in error_lines(errors, submission_moves=None if args.file else moves):
            print(f"  {line}", file=sys.stderr)
        return 2
    assert submission is not None  # no errors: the schema loaded it
    seed, moves, variant = submission["seed"], submission["moves"], submission["variant"]
    verdict = scoundrel.replay(seed, moves, variant, trace=True)
    symbols = not args.ascii and _can_print(SUIT_SYMBOLS)
    table = TraceTable(symbols=symbols, color=sys.stdout.isatty() and Settings.from_env().color)
    print("\n".join(table.render(seed, variant, moves, verdict)))
    return 0 if verdict.status == "verified" else 1


def _can_print(symbols: dict) -> bool:
    """Whether stdout's encoding has the suit symbols (a Latin-1 terminal has not: it gets codes)."""
    try:
        "".join(symbols.values()).encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _read(path: str) -> str:
    with open(path, encoding="utf-8-sig") as source:
        return source.read()


def _first_submission(text: str) -> tuple[dict | None, dict | None]:
    """A whole-file JSON submission, else the first non-blank line of a JSON Lines file."""
    from .submissions import load_json_submission

    submission, errors = load_json_submission(text)
    if errors and "_schema" in errors and text.strip():
        first = next(line for line in text.splitlines() if line.strip())
        if first.strip() != text.strip():
            return load_json_submission(first)
    return submission, errors


def error_lines(errors: dict, submission_moves: list[str] | None = None) -> list[str]:
    """``field: message`` lines; a bad move reads ``moves[3] 'S8x': message``."""
    lines = []
    for field, messages in errors.items():
        if isinstance(messages, dict):  # per-item errors of a list, keyed by index
            for index, item_messages in messages.items():
                name = f"{field}[{index}]"
                if field == "moves" and submission_moves is not None:
                    name += f" {submission_moves[int(index)]!r}"
                lines += [f"{name}: {message}" for message in item_messages]
        else:
            lines += [f"{field}: {message}" for message in messages]
    return lines
