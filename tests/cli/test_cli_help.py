"""Every command, option and argument of ``scoundrel`` says what it is in ``--help``."""

import argparse

from cli.main import build_parser


def parsers(parser: argparse.ArgumentParser, path: str = "scoundrel"):
    """``parser`` and every subcommand's parser under it, with the command line that reaches it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                yield from parsers(subparser, f"{path} {name}")


def test_every_option_and_argument_has_a_help_line():
    unexplained = [
        f"{path} {action.option_strings[0] if action.option_strings else action.metavar or action.dest}"
        for path, parser in parsers(build_parser())
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction)
        and action.help != argparse.SUPPRESS and not (action.help or "").strip()
    ]
    assert unexplained == []


def test_every_subcommand_has_a_help_line():
    unexplained = [
        f"{path} {choice.dest}"
        for path, parser in parsers(build_parser())
        for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        for choice in action._choices_actions if not (choice.help or "").strip()
    ]
    assert unexplained == []


def test_the_walk_reaches_nested_actions():
    reached = {path for path, _ in parsers(build_parser())}
    assert {"scoundrel api", "scoundrel moderator add", "scoundrel server-key revoke"} <= reached
