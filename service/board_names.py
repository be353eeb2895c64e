"""What the pages call each board: ``/boards/<board>`` names, titles, and the store's board behind each.

The names, as the README's Pages section lists them:

- ``classic``, ``easy``, ``hard``: the open boards (``/v1/leaderboards/<variant>``);
- ``dealt-<variant>``: the dealt boards; ``dealt-<variant>-ladder``: the ladders;
- ``daily-<YYYY-MM-DD>``: a day's open daily; ``sealed-<YYYY-MM-DD>``: its sealed daily;
- ``/boards/seed/<seed>?variant=``: everyone's best open run on one deal.

One home for the mapping both ways (a name to a board, a board to its page's
path), so the board pages, the player page and the daily page link alike.
"""

import re
from dataclasses import dataclass
from datetime import date

import scoundrel
from domain.daily_seed import DAY_PATTERN, parse_day
from store import LADDER_GAMES, Board, daily_board, dealt_board, sealed_board, seed_board, variant_board
from store.origins import DEALT

_DATE = DAY_PATTERN
_VARIANT = "|".join(scoundrel.VARIANTS)
_NAMES = re.compile(rf"^(?:(?P<open>{_VARIANT})|dealt-(?P<dealt>{_VARIANT})(?P<ladder>-ladder)?"
                    rf"|daily-(?P<daily>{_DATE})|sealed-(?P<sealed>{_DATE}))$")
_DAILY_SEED = re.compile(rf"^daily-({_DATE})-[0-9a-f]{{16}}$")  # ``daily_seed.daily_seed``'s shape


class UnknownBoard(LookupError):
    """No board has this name (404)."""


@dataclass(frozen=True)
class NamedBoard:
    """A board as the pages show it.

    ``board`` is what ``store.boards`` reads; a ladder has none (it ranks means,
    ``ladder_page``) and names its ``variant`` instead. ``day`` is set for the
    daily boards: what is on them stops changing once the day is over.
    """

    path: str
    title: str
    proves: str
    api: str
    variant: str
    board: Board | None = None
    day: date | None = None

    @property
    def is_ladder(self) -> bool:
        return self.board is None


def open_board(variant: str) -> NamedBoard:
    return NamedBoard(f"/boards/{variant}", f"{variant.capitalize()}: open runs",
                      "Each player's best verified open run: every run is legal, nothing more (the player "
                      "chose or knew the seed).", f"/v1/leaderboards/{variant}", variant, variant_board(variant))


def dealt(variant: str) -> NamedBoard:
    return NamedBoard(f"/boards/dealt-{variant}", f"{variant.capitalize()}: dealt games",
                      "Each player's best game dealt by the server card by card, the deck committed before "
                      "the first move.", f"/v1/leaderboards/dealt/{variant}", variant, dealt_board(variant))


def ladder(variant: str) -> NamedBoard:
    return NamedBoard(f"/boards/dealt-{variant}-ladder", f"{variant.capitalize()}: ladder",
                      f"Each player's mean over their last {LADDER_GAMES} dealt games, forfeits "
                      "included: neither a lucky deal nor a reroll buys a place.",
                      f"/v1/leaderboards/dealt/{variant}/ladder", variant)


def daily(day: date) -> NamedBoard:
    return NamedBoard(f"/boards/daily-{day.isoformat()}", f"Daily of {day.isoformat()}: open",
                      "Classic runs on the day's public seed submitted that day; each player's first "
                      "verified run counts.", f"/v1/daily/{day.isoformat()}/leaderboard", scoundrel.CLASSIC,
                      daily_board(day.isoformat()), day)


def sealed(day: date) -> NamedBoard:
    return NamedBoard(f"/boards/sealed-{day.isoformat()}", f"Daily of {day.isoformat()}: sealed",
                      "One deck for everyone that day, dealt by the server and unknown to all until played, "
                      "one game per player.", f"/v1/daily/{day.isoformat()}/sealed/leaderboard",
                      scoundrel.CLASSIC, sealed_board(day.isoformat()), day)


def seed(seed_text: str, variant: str) -> NamedBoard:
    suffix = "" if variant == scoundrel.CLASSIC else f"?variant={variant}"
    return NamedBoard(f"/boards/seed/{seed_text}{suffix}", f"Seed {seed_text}: {variant}",
                      "Each player's best verified open run on this one deal: everyone played the same deck.",
                      f"/v1/seeds/{seed_text}/leaderboard?variant={variant}", variant,
                      seed_board(variant, seed_text))


def named(name: str) -> NamedBoard:
    """The board called ``name`` in ``/boards/<name>``. Raises ``UnknownBoard``; for a daily
    board, ``ValueError`` for a date that does not exist and ``DayNotBegun`` for one to come."""
    match = _NAMES.match(name)
    if match is None:
        raise UnknownBoard(name)
    if match["open"]:
        return open_board(match["open"])
    if match["dealt"]:
        return ladder(match["dealt"]) if match["ladder"] else dealt(match["dealt"])
    if match["daily"]:
        return daily(parse_day(match["daily"]))
    return sealed(parse_day(match["sealed"]))


def run_boards(run: dict) -> list[NamedBoard]:
    """The boards of the day or deal a run was played on (the daily, sealed and seed boards);
    the variant's own boards are on every player page anyway."""
    if run.get("origin") == DEALT:
        return [sealed(date.fromisoformat(run["date"]))] if run.get("challenge") == "daily" and run.get("date") else []
    boards = []
    if run.get("seed") is not None:
        day = _DAILY_SEED.match(run["seed"])
        if day and run["variant"] == scoundrel.CLASSIC:
            boards.append(daily(date.fromisoformat(day[1])))
        boards.append(seed(run["seed"], run["variant"]))
    return boards
