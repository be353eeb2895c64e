"""What the pages call each board: ``/boards/<board>`` names, titles, and the store's board behind each.

The names, as docs/pages.md lists them:

- ``classic``, ``easy``, ``hard``: the open boards (``/v1/leaderboards/<variant>``);
- ``dealt-<variant>``: the dealt boards; ``dealt-<variant>-ladder``: the ladders;
- ``dealt-<variant>-<season>`` and ``dealt-<variant>-<season>-ladder``: a season's (``2026-12``, ``2026-W49``);
- ``daily-<YYYY-MM-DD>``: a day's open daily; ``sealed-<YYYY-MM-DD>``: its sealed daily;
- ``/boards/seed/<seed>?variant=``: everyone's best open run on one deal.

One home for the mapping both ways (a name to a board, a board to its page's
path), so the board pages, the player page and the daily page link alike.
The paths and which boards a run is on are the registry's (``domain.boards``);
the titles and what each board proves are the pages' own.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import scoundrel
from domain.boards import (
    DAILY_BOARD,
    DEALT_BOARD,
    LADDER,
    OPEN_BOARD,
    SEALED_BOARD,
    SEASON_BOARD,
    SEASON_LADDER,
    SEED_BOARD,
    TOURNAMENT_BOARD,
    TOURNAMENT_SUM_BOARD,
    BoardId,
    Order,
    boards_of,
    tournament_board,
)
from domain.daily_seed import DAY_PATTERN, parse_day
from domain.run import Run
from domain.seasons import SEASON_PATTERN, Season, parse_season
from domain.tournaments import BEST, SUM
from store import LADDER_GAMES, Board
from store.boards.pages import ranking

_DATE = DAY_PATTERN
_VARIANT = "|".join(scoundrel.VARIANTS)
_NAMES = re.compile(rf"^(?:(?P<open>{_VARIANT})|dealt-(?P<dealt>{_VARIANT})(?:-(?P<season>{SEASON_PATTERN}))?"
                    rf"(?P<ladder>-ladder)?"
                    rf"|daily-(?P<daily>{_DATE})|sealed-(?P<sealed>{_DATE}))$")


class UnknownBoard(LookupError):
    """No board has this name (404)."""


@dataclass(frozen=True)
class NamedBoard:
    """A board as the pages show it.

    ``board`` is what ``store.boards.pages`` reads; a ladder has none (it ranks means,
    ``ladder_page``) and is ``ladder`` instead. ``day`` is set for the daily
    boards: what is on them stops changing once the day is over; ``season``
    for a season's boards.
    ``of`` is the board of the registry it shows (a friends' view reads any).
    """

    path: str
    title: str
    proves: str
    api: str
    variant: str
    board: Board | None = None
    day: date | None = None
    ladder: BoardId | None = None
    season: Season | None = None
    of: BoardId | None = None

    @property
    def is_ladder(self) -> bool:
        return self.ladder is not None


def _named(board: BoardId, title: str, proves: str, variant: str, day: date | None = None,
           season: Season | None = None) -> NamedBoard:
    latest = board.board.order is Order.LATEST
    return NamedBoard(board.page, title, proves, board.api, variant, None if latest else ranking(board), day,
                      board if latest else None, season, board)


def open_board(variant: str) -> NamedBoard:
    return _named(BoardId(OPEN_BOARD, (variant,)), f"{variant.capitalize()}: open runs",
                  "Each player's best verified open run: every run is legal, nothing more (the player "
                  "chose or knew the seed).", variant)


def dealt(variant: str) -> NamedBoard:
    return _named(BoardId(DEALT_BOARD, (variant,)), f"{variant.capitalize()}: dealt games",
                  "Each player's best game dealt by the server card by card, the deck committed before "
                  "the first move.", variant)


def ladder(variant: str) -> NamedBoard:
    return _named(BoardId(LADDER, (variant,)), f"{variant.capitalize()}: ladder",
                  f"Each player's mean over their last {LADDER_GAMES} dealt games, forfeits "
                  "included: neither a lucky deal nor a reroll buys a place.", variant)


def season_dealt(variant: str, season: Season) -> NamedBoard:
    return _named(BoardId(SEASON_BOARD, (variant, season.id)), f"{variant.capitalize()}: dealt games, {season.id}",
                  f"Each player's best dealt game that ended in season {season.id}.", variant, season=season)


def season_ladder(variant: str, season: Season) -> NamedBoard:
    return _named(BoardId(SEASON_LADDER, (variant, season.id)), f"{variant.capitalize()}: ladder, {season.id}",
                  f"Each player's mean over their last {LADDER_GAMES} dealt games that ended in season "
                  f"{season.id}, forfeits included.", variant, season=season)


def season_boards(season: Season) -> list[NamedBoard]:
    """A season's boards: each variant's dealt board and ladder."""
    return [board for variant in scoundrel.VARIANTS
            for board in (season_dealt(variant, season), season_ladder(variant, season))]


def daily(day: date) -> NamedBoard:
    return _named(BoardId(DAILY_BOARD, (day.isoformat(),)), f"Daily of {day.isoformat()}: open",
                  "Classic runs on the day's public seed submitted that day; each player's first "
                  "verified run counts.", scoundrel.CLASSIC, day)


def sealed(day: date) -> NamedBoard:
    return _named(BoardId(SEALED_BOARD, (day.isoformat(),)), f"Daily of {day.isoformat()}: sealed",
                  "One deck for everyone that day, dealt by the server and unknown to all until played, "
                  "one game per player.", scoundrel.CLASSIC, day)


def seed(seed_text: str, variant: str) -> NamedBoard:
    return _named(BoardId(SEED_BOARD, (variant, seed_text)), f"Seed {seed_text}: {variant}",
                  "Each player's best verified open run on this one deal: everyone played the same deck.", variant)


def tournament(tournament_id: str, variant: str = scoundrel.CLASSIC, title: str = "",
               scoring: str = BEST) -> NamedBoard:
    proves = ("Each entrant's best game of the tournament, dealt by the server." if scoring == BEST else
              "The sum of each entrant's best game on each of the tournament's sealed deals, dealt by the server.")
    return _named(tournament_board(tournament_id, scoring), title or f"Tournament {tournament_id}", proves, variant)


# The boards of a day, a deal or a tournament, by kind, from their key parts.
_OF_RUNS: dict[str, Callable[..., NamedBoard]] = {
    DAILY_BOARD.kind: lambda day: daily(date.fromisoformat(day)),
    SEALED_BOARD.kind: lambda day: sealed(date.fromisoformat(day)),
    SEED_BOARD.kind: lambda variant, seed_text: seed(seed_text, variant),
    TOURNAMENT_BOARD.kind: tournament,
    TOURNAMENT_SUM_BOARD.kind: lambda tournament_id: tournament(tournament_id, scoring=SUM),
}


def named(name: str) -> NamedBoard:
    """The board called ``name`` in ``/boards/<name>``. Raises ``UnknownBoard``; for a daily
    board, ``ValueError`` for a date that does not exist and ``DayNotBegun`` for one to come;
    for a season's, ``ValueError`` for a season that cannot exist (whether the service has it is
    the page's to ask)."""
    match = _NAMES.match(name)
    if match is None:
        raise UnknownBoard(name)
    if match["open"]:
        return open_board(match["open"])
    if match["dealt"] and match["season"]:
        season = parse_season(match["season"])
        return (season_ladder if match["ladder"] else season_dealt)(match["dealt"], season)
    if match["dealt"]:
        return ladder(match["dealt"]) if match["ladder"] else dealt(match["dealt"])
    if match["daily"]:
        return daily(parse_day(match["daily"]))
    return sealed(parse_day(match["sealed"]))


def run_boards(run: Run) -> list[NamedBoard]:
    """The boards of the day, deal or tournament a run counts on (the daily, sealed, seed and tournament boards);
    the variant's own boards are on every player page anyway, and so are the seasons' (a week's league
    board is its cohorts', on the leagues page)."""
    return [_OF_RUNS[board.board.kind](*board.parts) for board in boards_of(run) if board.board.kind in _OF_RUNS]
