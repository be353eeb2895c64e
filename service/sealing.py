"""A sealed daily run keeps its deal secret until its UTC day is over.

Its moves name the cards in the order they came up, so until the day is
over they are as secret as its seed: every view of the run a non-moderator
gets shows both as null, and its replay is refused. Moderators see all.
"""

from datetime import date

from .daily_seed import revealed


def is_sealed(run: dict) -> bool:
    """A sealed daily game's run whose day is not over yet."""
    return run.get("challenge") == "daily" and not revealed(date.fromisoformat(run["date"]))


def shown(run: dict, moderator: bool = False) -> dict:
    """The run as this reader may see it."""
    if moderator or not is_sealed(run):
        return run
    return {**run, "seed": None, "moves": None}
