"""The progress bar of the commands that walk many runs or lines, drawn on stderr in a terminal."""

import os
import sys


def progress_bar(total: int | None, unit: str):
    """A tqdm bar on stderr counting ``total`` ``unit`` (e.g. " runs"; no total: a count alone)."""
    from tqdm import tqdm  # only a terminal session pays for the import

    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except OSError:
        size = os.terminal_size((0, 0))
    # A terminal that reports no size (some pseudo-terminals) still gets an 80-column bar;
    # tqdm would otherwise draw it 0 wide, or hide it below a 0-row screen.
    return tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=size.columns > 0,
                ncols=None if size.columns else 80, nrows=None if size.lines else 24)
