"""What the pages call each board: ``/boards/<board>`` names, and the board of the registry behind each.

A board's page, title and what it proves are its registry entry's
(``domain.boards``: ``Board.page``, ``title``, ``proves``); a board page's
name is its ``page`` after ``/boards/``, each part matching its pattern
here (docs/pages.md lists them: ``classic``, ``dealt-easy-ladder``,
``dealt-classic-2026-12``, ``daily-2026-03-01``…). One home for the mapping
both ways (a name to a board, a board to its page's path), so the board
pages, the player page and the daily page link alike.
"""

import re
from dataclasses import dataclass
from datetime import date

import scoundrel
from domain.boards import (
    BOARDS,
    DAILY_BOARD,
    SEALED_BOARD,
    SEED_BOARD,
    TOURNAMENT_BOARD,
    TOURNAMENT_SUM_BOARD,
    Board,
    BoardId,
    Order,
    boards_of,
)
from domain.daily_seed import DAY_PATTERN, parse_day
from domain.run import Run
from domain.seasons import SEASON_PATTERN, Season, parse_season

PREFIX = "/boards/"
# What each part of a board page's name may be.
_PATTERNS = {"variant": "|".join(scoundrel.VARIANTS), "day": DAY_PATTERN, "season": SEASON_PATTERN}


class UnknownBoard(LookupError):
    """No board has this name (404)."""


@dataclass(frozen=True)
class NamedBoard:
    """A board as the pages show it: ``of``, the board of the registry, under ``title`` (its entry's, or a
    tournament's own). ``day`` is set for a day's boards: what is on them stops changing once the day is
    over; ``season`` for a season's."""

    of: BoardId
    title: str
    day: date | None = None
    season: Season | None = None

    @property
    def path(self) -> str:
        return self.of.page

    @property
    def api(self) -> str:
        return self.of.api

    @property
    def proves(self) -> str:
        return self.of.proves

    @property
    def variant(self) -> str:
        return self.of.named_parts.get("variant", scoundrel.CLASSIC)

    @property
    def is_ladder(self) -> bool:
        """It ranks means (a ladder), not runs."""
        return self.of.board.order is Order.LATEST


def shown(board: BoardId, title: str = "") -> NamedBoard:
    """``board`` as its page shows it (``title``: one of its own, for a tournament)."""
    parts = board.named_parts
    return NamedBoard(board, title or board.title, date.fromisoformat(parts["day"]) if "day" in parts else None,
                      parse_season(parts["season"]) if "season" in parts else None)


def _name_pattern(board: Board) -> re.Pattern | None:
    """The names of a kind's board pages, for a kind whose page is ``/boards/<name>`` of parts named here."""
    name = board.page.removeprefix(PREFIX)
    if name == board.page or "?" in name or any(part not in _PATTERNS for part in board.params):
        return None
    pieces = re.split(r"\{(\w+)\}", name)  # literal text, then a part's name, and so on
    return re.compile("".join(re.escape(piece) if index % 2 == 0 else f"(?P<{piece}>{_PATTERNS[piece]})"
                              for index, piece in enumerate(pieces)))


def named(name: str) -> NamedBoard:
    """The board called ``name`` in ``/boards/<name>``. Raises ``UnknownBoard``; for a daily
    board, ``ValueError`` for a date that does not exist and ``DayNotBegun`` for one to come;
    for a season's, ``ValueError`` for a season that cannot exist (whether the service has it is
    the page's to ask)."""
    for board in BOARDS:
        pattern = _name_pattern(board)
        match = pattern.fullmatch(name) if pattern else None
        if match:
            if "day" in board.params:
                parse_day(match["day"])
            if "season" in board.params:
                parse_season(match["season"])
            return shown(BoardId(board, tuple(match[part] for part in board.params)))
    raise UnknownBoard(name)


def variant_boards(variant: str) -> list[NamedBoard]:
    """A variant's own boards (open, dealt, ladder), on every player page."""
    return [shown(BoardId(board, (variant,))) for board in BOARDS if board.per_variant]


def day_boards(day: date) -> list[NamedBoard]:
    """A day's boards: its open and sealed dailies."""
    return [shown(BoardId(board, (day.isoformat(),))) for board in BOARDS if board.params == ("day",)]


def season_boards(season: Season) -> list[NamedBoard]:
    """A season's boards: each variant's dealt board and ladder."""
    return [shown(BoardId(board, (variant, season.id))) for variant in scoundrel.VARIANTS
            for board in BOARDS if board.closed_by == "season"]


# The boards of a day, a deal or a tournament a player page lists by the runs that count on them.
_OF_RUNS = {DAILY_BOARD, SEALED_BOARD, SEED_BOARD, TOURNAMENT_BOARD, TOURNAMENT_SUM_BOARD}


def run_boards(run: Run) -> list[NamedBoard]:
    """The boards of the day, deal or tournament a run counts on (the daily, sealed, seed and tournament boards);
    the variant's own boards are on every player page anyway, and so are the seasons' (a week's league
    board is its cohorts', on the leagues page)."""
    return [shown(board) for board in boards_of(run) if board.board in _OF_RUNS]
