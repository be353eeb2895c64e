"""Which boards a run counts on: one declarative entry per kind of board, listed once in ``BOARDS``.

Every place that asks "which boards does this run count on" reads the
registry: placing a verdict and recomputing a player's places (the store's
scripts get the keys and orders of ``boards_of``), ``scoundrel check``,
retention's "which boards may leave Redis", the pages' boards of a run. So a
new kind of board is one entry here; ``store`` maps each entry's kind and
key parts to its Redis keys.

A board ranks each player once, by its ``Order``: their best run, their
first, the sum of their latest ``LADDER_GAMES`` (the ladder), or the sum of
their places on the boards it adds up (a ``sum`` tournament's deals). Only
verified runs are placed; ``counts`` says which runs, once verified, count
on a kind of board, and ``key`` which of the run's fields tell its boards
apart (two runs are on the same board when those fields match).

A board of a season (``domain.seasons``) closes: ``closed_by`` names the key
part whose value, once closed, freezes it (``store.boards.seasons``); from then on
no script changes it, whatever verdict, void or recompute comes.
"""

import enum
from collections.abc import Callable
from dataclasses import dataclass

from scoundrel import CLASSIC

from .leagues import counts as counted_in_leagues
from .run import Run
from .tournaments import BEST, MAX_DEALS, SUM

LADDER_GAMES = 20  # a player's ladder mean is over their last this many finished dealt games


class Order(enum.Enum):
    """How a board ranks a player's runs (the store's scripts apply it, ``lua/_placement.lua``)."""

    BEST = "best"  # the player's best run: the higher score, at equal scores the earlier submission
    FIRST = "first"  # the player's earliest-submitted run, whatever its score
    LATEST = "latest"  # the sum of the player's latest LADDER_GAMES runs, once they have that many
    SUM = "sum"  # the sum of the player's places on the boards of each deal (a tournament's, ``sum`` scoring)


def percentile(above: int, total: int) -> float:
    """The share of a board, in percent, at or below a place that ``above`` of its ``total`` places beat.

    Ties: a place is beaten only by a strictly higher score (the ladder: a
    higher mean), so places with equal scores share one percentile, whatever
    their ranks (which tell equal scores apart by the earlier submission).
    Rounded down to two decimals, so a place never reads better than it is.
    """
    return 10_000 * (total - above) // total / 100


def top_percent(above: int, total: int) -> float:
    """The "top X %" a page shows for that place: ``100 × (above + 1) / total``, its rank with ties
    sharing the best of theirs over the board's total, rounded up (never better than it is): to a
    whole percent from 1 % on, to a tenth below that ("top 0.1 %")."""
    if 100 * (above + 1) >= total:
        return float(-(-100 * (above + 1) // total))
    return -(-1000 * (above + 1) // total) / 10


def with_share(entry: dict[str, object], above: int, total: int) -> dict[str, object]:
    """A board entry (a page's, a position's, a player's place) with ``total``, ``percentile`` and
    ``top_percent`` (``above``: the places with a strictly higher score)."""
    return {**entry, "total": total, "percentile": percentile(above, total), "top_percent": top_percent(above, total)}


@dataclass(frozen=True)
class Board:
    """One kind of board.

    ``kind`` names it (and its keys, ``store.base.keys.board_places``); ``key``
    lists the run's fields whose values name one board of the kind (its
    parts); ``page`` and ``api`` give its page's and its JSON's paths from
    those parts. ``cools``: a board of the kind that no verdict changed for
    ``SCOUNDREL_HOT_DAYS`` leaves Redis for the archive as a whole, as its
    runs do (``store.boards.cooling``): a kind with a board per deal, the long
    tail, and a season's board, frozen once its season closes. Only a best or
    first board may cool (a ladder's windows stay hot, and a sum board adds up
    boards it reads in Redis).
    ``closed_by``: the key part (``season``) whose close freezes the board,
    for a board that closes.
    """

    kind: str
    counts: Callable[[Run], bool]
    key: tuple[str, ...]
    order: Order
    page: Callable[..., str]
    api: Callable[..., str]
    cools: bool = False
    closed_by: str | None = None

    def parts(self, run: Run) -> tuple[str, ...]:
        """The parts of the key of the board of this kind that ``run`` counts on."""
        return tuple([getattr(run, field) for field in self.key])

    @property
    def per_variant(self) -> bool:
        """One board per variant (not per day or deal): every player page lists them all."""
        return self.key == ("variant",)


@dataclass(frozen=True, slots=True)
class BoardId:
    """One board: a kind of board and the parts of its key (``Board.parts``)."""

    board: Board
    parts: tuple[str, ...]

    @property
    def page(self) -> str:
        return self.board.page(*self.parts)

    @property
    def api(self) -> str:
        return self.board.api(*self.parts)

    @property
    def name(self) -> str:
        """The board's name, its kind and its key's parts (``seed:classic:abc``): what an event names it
        by, read the same whatever the registry's order when the event is sent."""
        return ":".join((self.board.kind, *self.parts))

    @property
    def closer(self) -> str | None:
        """The value of the key part whose close freezes this board (its season), for a board that closes."""
        field = self.board.closed_by
        return None if field is None else self.parts[self.board.key.index(field)]


def _seed_page(variant: str, seed: str) -> str:
    return f"/boards/seed/{seed}" + ("" if variant == CLASSIC else f"?variant={variant}")


OPEN_BOARD = Board(
    "open", lambda run: not run.dealt, ("variant",), Order.BEST,
    page=lambda variant: f"/boards/{variant}", api=lambda variant: f"/v1/leaderboards/{variant}")
DAILY_BOARD = Board(
    "daily", lambda run: not run.dealt and run.daily is not None, ("daily",), Order.FIRST,
    page=lambda day: f"/boards/daily-{day}", api=lambda day: f"/v1/daily/{day}/leaderboard")
SEED_BOARD = Board(
    "seed", lambda run: not run.dealt and run.seed is not None, ("variant", "seed"), Order.BEST,
    page=_seed_page, api=lambda variant, seed: f"/v1/seeds/{seed}/leaderboard?variant={variant}", cools=True)
DEALT_BOARD = Board(
    "dealt", lambda run: run.dealt, ("variant",), Order.BEST,
    page=lambda variant: f"/boards/dealt-{variant}", api=lambda variant: f"/v1/leaderboards/dealt/{variant}")
LADDER = Board(
    "ladder", lambda run: run.dealt, ("variant",), Order.LATEST,
    page=lambda variant: f"/boards/dealt-{variant}-ladder",
    api=lambda variant: f"/v1/leaderboards/dealt/{variant}/ladder")
SEALED_BOARD = Board(
    "sealed", lambda run: run.sealed_daily, ("date",), Order.FIRST,
    page=lambda day: f"/boards/sealed-{day}", api=lambda day: f"/v1/daily/{day}/sealed/leaderboard")
SEASON_BOARD = Board(
    "season", lambda run: run.dealt and run.season is not None, ("variant", "season"), Order.BEST,
    page=lambda variant, season: f"/boards/dealt-{variant}-{season}",
    api=lambda variant, season: f"/v1/seasons/{season}/leaderboards/dealt/{variant}", closed_by="season",
    cools=True)
SEASON_LADDER = Board(
    "season-ladder", lambda run: run.dealt and run.season is not None, ("variant", "season"), Order.LATEST,
    page=lambda variant, season: f"/boards/dealt-{variant}-{season}-ladder",
    api=lambda variant, season: f"/v1/seasons/{season}/leaderboards/dealt/{variant}/ladder", closed_by="season")

LEAGUE_BOARD = Board(
    "league", counted_in_leagues, ("week",), Order.BEST,
    page=lambda week: f"/leagues?week={week}", api=lambda week: f"/v1/leagues/{week}", cools=True)

def _tournament_page(tournament: str, *deal: str) -> str:
    return f"/tournaments/{tournament}"


def _tournament_api(tournament: str, *deal: str) -> str:
    return f"/v1/tournaments/{tournament}/standings"


def _scored(scoring: str) -> Callable[[Run], bool]:
    """Whether a verified run counts on the boards of a tournament that scores so."""
    return lambda run: run.dealt and run.tournament is not None and run.scoring == scoring


TOURNAMENT_BOARD = Board("tournament", _scored(BEST), ("tournament",), Order.BEST, page=_tournament_page,
                         api=_tournament_api, cools=True)
# A tournament that scores the sum of each entrant's best game on each deal: a best board per deal, then the sum.
TOURNAMENT_DEAL_BOARD = Board("tournament-deal", _scored(SUM), ("tournament", "tournament_deal"), Order.BEST,
                              page=_tournament_page, api=_tournament_api, cools=True)
TOURNAMENT_SUM_BOARD = Board("tournament-sum", _scored(SUM), ("tournament",), Order.SUM, page=_tournament_page,
                             api=_tournament_api)

# Every kind of board, in the order a run's boards are listed.
BOARDS: list[Board] = [OPEN_BOARD, DAILY_BOARD, SEED_BOARD, DEALT_BOARD, LADDER, SEALED_BOARD, SEASON_BOARD,
                       SEASON_LADDER, LEAGUE_BOARD, TOURNAMENT_BOARD, TOURNAMENT_DEAL_BOARD, TOURNAMENT_SUM_BOARD]


def tournament_board(tournament: str, scoring: str) -> BoardId:
    """A tournament's standings: its best board, or the sum of its deals' boards."""
    return BoardId(TOURNAMENT_SUM_BOARD if scoring == SUM else TOURNAMENT_BOARD, (tournament,))


def deal_boards(sums: BoardId) -> list[BoardId]:
    """The boards a tournament's sum board adds up: one per deal it may have (``MAX_DEALS``)."""
    return [BoardId(TOURNAMENT_DEAL_BOARD, (*sums.parts, str(deal))) for deal in range(1, MAX_DEALS + 1)]


def boards_of(run: Run) -> list[BoardId]:
    """The boards ``run`` counts on once verified, one per kind that counts it."""
    return [BoardId(board, board.parts(run)) for board in BOARDS if board.counts(run)]
