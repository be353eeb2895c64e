"""The options of the commands that rewrite the store in batches (``migrate``, ``move-off-cluster``): a
dry run unless ``--apply``, the batch's size, and ``-q`` for no progress bar."""

import argparse


def add_bulk_options(parser: argparse.ArgumentParser, apply_help: str, batch_help: str) -> None:
    """``--apply`` (``apply_help``: what it does), ``--batch N`` (``batch_help``) and ``-q``."""
    parser.add_argument("--apply", action="store_true", help=apply_help)
    parser.add_argument("--batch", type=_batch, default=None, metavar="N", help=batch_help)
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _batch(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value
