"""``scoundrel``: the entry point that gathers every subcommand.

Adding a command is one module with ``register(subparsers)`` (it adds its
subparser and sets ``func(args) -> int``) and one line in ``COMMANDS``.
Every run imports every command module, so a module imports its heavy
dependencies (Flask, RQ, the service) inside ``func``, not at the top:
``scoundrel deal`` should not wait for a web framework to load.
"""

import argparse
import os
import sys

from . import api, archive, check, deal, moderator, replay, reverify, up, verify, worker

COMMANDS = (deal, verify, replay, api, worker, up, moderator, check, reverify, archive)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scoundrel",
        description="Scoundrel Referee: deal, verify and replay games of the ruleset scoundrel-1.",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`scoundrel verify big.jsonl | head`): stop quietly,
        # and keep Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
