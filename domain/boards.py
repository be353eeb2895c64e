"""Which boards a run counts on: one declarative entry per kind of board, listed once in ``BOARDS``.

Every place that asks "which boards does this run count on" reads the
registry: placing a verdict and recomputing a player's places (the store's
scripts get the keys and orders of ``boards_of``), ``scoundrel check``,
retention's "which boards may leave Redis", the pages' boards of a run; and
every reader of a board: an entry carries its URLs, its title and what it
proves, from which the service registers its API and names its page
(``service.boards``, ``service.board_names``). So a new kind of board is one
entry here; ``store`` maps each entry's kind and key parts to its Redis keys.

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
    """One kind of board, and everything a reader of it sees: its API, its page, its title.

    ``kind`` names it (and its keys, ``store.base.keys.board_places``); ``key``
    lists the run's fields whose values name one board of the kind (its
    parts). ``params`` names those parts as its URLs do (``day`` for the
    ``daily`` field), the same order; ``api`` and ``page`` are its JSON's and
    its page's URLs as format strings of them (a part after ``?`` is a query
    parameter), ``title`` and ``proves`` what its page heads it with (``{Variant}``:
    the variant capitalized). The service registers every board's views from
    these (``service.boards``): a page (with ``?among=`` and ``?around=``) at
    ``api``, a player's place at ``api``'s path + ``/players/<name>``; each entry
    shaped by its ``order`` (a ladder's places are means).
    ``cools``: a board of the kind that no verdict changed for
    ``SCOUNDREL_HOT_DAYS`` leaves Redis for the archive as a whole, as its
    runs do (``store.boards.cooling``): a kind with a board per deal, the long
    tail, and a season's board, frozen once its season closes. Only a best or
    first board may cool (a ladder's windows stay hot, and a sum board adds up
    boards it reads in Redis).
    ``closed_by``: the key part (``season``) whose close freezes the board,
    for a board that closes.
    ``sole``: a board of the kind holding one player's place is kept as a field of a hash it shares with
    others (``store.base.keys.sole_places``), not in its own two keys, until a second player's place
    comes, and again once a removal leaves it one (a kind with a board per deal: most deals are played
    by one player). Only a best or first board may be kept so.
    ``scoring``: for boards sharing one URL (a tournament's standings), the
    scoring of the tournament whose standings this kind is.
    """

    kind: str
    counts: Callable[[Run], bool]
    key: tuple[str, ...]
    order: Order
    api: str
    page: str
    title: str
    proves: str
    params: tuple[str, ...] = ()
    cools: bool = False
    closed_by: str | None = None
    sole: bool = False
    scoring: str | None = None

    def __post_init__(self) -> None:
        if self.sole and self.order not in (Order.BEST, Order.FIRST):
            raise ValueError(f"a {self.order.value} board cannot be kept as its sole place")
        if not self.params:
            object.__setattr__(self, "params", self.key)

    def parts(self, run: Run) -> tuple[str, ...]:
        """The parts of the key of the board of this kind that ``run`` counts on."""
        return tuple([getattr(run, field) for field in self.key])

    @property
    def per_variant(self) -> bool:
        """One board per variant (not per day or deal): every player page lists them all."""
        return self.key == ("variant",)

    @property
    def api_path(self) -> str:
        """``api`` without its query: boards whose ``api_path`` match share their routes."""
        return self.api.partition("?")[0]


@dataclass(frozen=True, slots=True)
class BoardId:
    """One board: a kind of board and the parts of its key (``Board.parts``)."""

    board: Board
    parts: tuple[str, ...]

    @property
    def named_parts(self) -> dict[str, str]:
        """The parts by the names its URLs give them (``Board.params``)."""
        return dict(zip(self.board.params, self.parts, strict=True))

    def _filled(self, template: str) -> str:
        named = self.named_parts
        return template.format(**named, **{name.capitalize(): value.capitalize() for name, value in named.items()})

    @property
    def page(self) -> str:
        return self._filled(self.board.page)

    @property
    def api(self) -> str:
        return self._filled(self.board.api)

    @property
    def title(self) -> str:
        return self._filled(self.board.title)

    @property
    def proves(self) -> str:
        return self._filled(self.board.proves)

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


OPEN_BOARD = Board(
    "open", lambda run: not run.dealt, ("variant",), Order.BEST,
    api="/v1/leaderboards/{variant}", page="/boards/{variant}", title="{Variant}: open runs",
    proves="Each player's best verified open run: every run is legal, nothing more (the player chose or knew "
           "the seed).")
DAILY_BOARD = Board(
    "daily", lambda run: not run.dealt and run.daily is not None, ("daily",), Order.FIRST, params=("day",),
    api="/v1/daily/{day}/leaderboard", page="/boards/daily-{day}", title="Daily of {day}: open",
    proves="Classic runs on the day's public seed submitted that day; each player's first verified run counts.")
SEED_BOARD = Board(
    "seed", lambda run: not run.dealt and run.seed is not None, ("variant", "seed"), Order.BEST,
    api="/v1/seeds/{seed}/leaderboard?variant={variant}", page="/boards/seed/{seed}?variant={variant}",
    title="Seed {seed}: {variant}",
    proves="Each player's best verified open run on this one deal: everyone played the same deck.", cools=True,
    sole=True)
DEALT_BOARD = Board(
    "dealt", lambda run: run.dealt, ("variant",), Order.BEST,
    api="/v1/leaderboards/dealt/{variant}", page="/boards/dealt-{variant}", title="{Variant}: dealt games",
    proves="Each player's best game dealt by the server card by card, the deck committed before the first move.")
LADDER = Board(
    "ladder", lambda run: run.dealt, ("variant",), Order.LATEST,
    api="/v1/leaderboards/dealt/{variant}/ladder", page="/boards/dealt-{variant}-ladder", title="{Variant}: ladder",
    proves=f"Each player's mean over their last {LADDER_GAMES} dealt games, forfeits included: neither a lucky "
           "deal nor a reroll buys a place.")
SEALED_BOARD = Board(
    "sealed", lambda run: run.sealed_daily, ("date",), Order.FIRST, params=("day",),
    api="/v1/daily/{day}/sealed/leaderboard", page="/boards/sealed-{day}", title="Daily of {day}: sealed",
    proves="One deck for everyone that day, dealt by the server and unknown to all until played, one game per "
           "player.")
SEASON_BOARD = Board(
    "season", lambda run: run.dealt and run.season is not None, ("variant", "season"), Order.BEST,
    api="/v1/seasons/{season}/leaderboards/dealt/{variant}", page="/boards/dealt-{variant}-{season}",
    title="{Variant}: dealt games, {season}", proves="Each player's best dealt game that ended in season {season}.",
    closed_by="season", cools=True)
SEASON_LADDER = Board(
    "season-ladder", lambda run: run.dealt and run.season is not None, ("variant", "season"), Order.LATEST,
    api="/v1/seasons/{season}/leaderboards/dealt/{variant}/ladder", page="/boards/dealt-{variant}-{season}-ladder",
    title="{Variant}: ladder, {season}",
    proves=f"Each player's mean over their last {LADDER_GAMES} dealt games that ended in season {{season}}, "
           "forfeits included.", closed_by="season")
LEAGUE_BOARD = Board(
    "league", counted_in_leagues, ("week",), Order.BEST,
    api="/v1/leagues/{week}", page="/leagues?week={week}", title="Leagues of {week}",
    proves="Each player's best counted game of the week (a classic dealt game), every cohort together.", cools=True)


def _scored(scoring: str) -> Callable[[Run], bool]:
    """Whether a verified run counts on the boards of a tournament that scores so."""
    return lambda run: run.dealt and run.tournament is not None and run.scoring == scoring


_STANDINGS = "/v1/tournaments/{tournament_id}/standings"
_TOURNAMENT_PAGE = "/tournaments/{tournament_id}"
TOURNAMENT_BOARD = Board(
    "tournament", _scored(BEST), ("tournament",), Order.BEST, params=("tournament_id",), api=_STANDINGS,
    page=_TOURNAMENT_PAGE, title="Tournament {tournament_id}",
    proves="Each entrant's best game of the tournament, dealt by the server.", cools=True, scoring=BEST)
# A tournament that scores the sum of each entrant's best game on each deal: a best board per deal, then the sum.
TOURNAMENT_DEAL_BOARD = Board(
    "tournament-deal", _scored(SUM), ("tournament", "tournament_deal"), Order.BEST, params=("tournament_id", "deal"),
    api=_STANDINGS + "?deal={deal}", page=_TOURNAMENT_PAGE, title="Tournament {tournament_id}, deal {deal}",
    proves="Each entrant's best game on this sealed deal of the tournament, dealt by the server.", cools=True,
    scoring=SUM)
TOURNAMENT_SUM_BOARD = Board(
    "tournament-sum", _scored(SUM), ("tournament",), Order.SUM, params=("tournament_id",), api=_STANDINGS,
    page=_TOURNAMENT_PAGE, title="Tournament {tournament_id}",
    proves="The sum of each entrant's best game on each of the tournament's sealed deals, dealt by the server.",
    scoring=SUM)

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


def board_named(name: str) -> BoardId:
    """The board a ``BoardId.name`` names (as the public log's leaves name a run's boards); raises ValueError
    for a name no kind of board in the registry has. A key's last part may hold ``:`` (a seed)."""
    kind, _, rest = name.partition(":")
    board = next((board for board in BOARDS if board.kind == kind), None)
    parts = tuple(rest.split(":", len(board.key) - 1)) if board is not None else ()
    if board is None or len(parts) != len(board.key) or not all(parts):
        raise ValueError(f"no board is named {name!r}")
    return BoardId(board, parts)
