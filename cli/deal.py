"""``scoundrel deal SEED``: the dungeon a seed deals (deal-v1), top first."""

import sys

import scoundrel


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "deal",
        help="print the 44 cards a seed deals, top first",
        description="Print the dungeon dealt from SEED (deal-v1): 44 card codes, top first, space-separated.",
        epilog="A seed that starts with '-' goes after '--': scoundrel deal -- -x1",
    )
    parser.add_argument("seed", metavar="SEED", help=scoundrel.SEED_RULE)
    parser.set_defaults(func=run)
    usage_error = parser.error

    def error_with_hint(message: str):
        # `scoundrel deal -x1` reads -x1 as an option, so SEED looks missing: say how to give it.
        if "SEED" in message:
            message += " (a seed that starts with '-' goes after '--': scoundrel deal -- -x1)"
        usage_error(message)

    parser.error = error_with_hint  # type: ignore[method-assign]


def run(args) -> int:
    if not scoundrel.is_valid_seed(args.seed):
        print(f"scoundrel deal: invalid seed {args.seed!r}: {scoundrel.SEED_MESSAGE}", file=sys.stderr)
        return 2
    print(" ".join(scoundrel.deal(args.seed)))
    return 0
