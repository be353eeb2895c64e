"""A run's boards as the store's scripts take them: each board's keys and ranking order.

Which boards a run counts on is the registry's to say (``domain.boards``);
this maps each of them to its Redis keys (``store.base.keys``) for one player, in
the shape every placing script reads (``lua/_placement.lua``): the keys in
KEYS, and per board an ARGV item ``<order>:<how many keys>:<closing value>:<name>``.
The scripts apply the order and never decide which boards a run is on. A
board of a kind kept as its sole place while it has one (``domain.boards.Board.sole``)
has the hash holding it as its third key, the board's name its field. A
board that closes (a season's, ``domain.boards.Board.closed_by``) has the set
of closed values as its last key and its own value after the count (empty
for a board that never closes): the scripts leave it alone once that value
is in the set. The board's name (``domain.boards.BoardId.name``) is what an
event about the board names it by.
"""

from dataclasses import dataclass

from domain.boards import BoardId, Order, boards_of, deal_boards
from domain.run import Run
from store.base import keys


@dataclass(frozen=True)
class Placement:
    """One board of one player: a best or first board's places and the hash naming their runs (then the
    hash of sole places, a kind kept so), or a latest board's places, the player's window and the game
    counts, or a sum board's places and runs, then the places and runs of each board it adds up; then, for
    a board that closes, the set of closed values."""

    board: BoardId
    keys: tuple[str, ...]

    @property
    def spec(self) -> str:
        """The board's ARGV item: its order, how many of KEYS are its own, what closes it, and its name."""
        return f"{self.board.board.order.value}:{len(self.keys)}:{self.board.closer or ''}:{self.board.name}"


def board_keys(board: BoardId) -> tuple[str, ...]:
    """A best or first board's keys in Redis: its places, the hash naming their runs, and for a kind kept as
    its sole place while it has one (``domain.boards.Board.sole``) the hash holding that place."""
    kind, parts = board.board.kind, board.parts
    sole = (keys.sole_places(board.name),) if board.board.sole else ()
    return keys.board_places(kind, parts), keys.board_holders(kind, parts), *sole


def placement(board: BoardId, player: str) -> Placement:
    """The keys of ``player``'s place on ``board``."""
    kind, parts = board.board.kind, board.parts
    closes = () if board.board.closed_by is None else (keys.closed(board.board.closed_by),)
    if board.board.order is Order.LATEST:
        return Placement(board, (keys.board_places(kind, parts), keys.board_window(kind, parts, player),
                                 keys.board_games(kind, parts), *closes))
    if board.board.order is Order.SUM:
        added = [key for deal in deal_boards(board)
                 for key in (keys.board_places(deal.board.kind, deal.parts), keys.board_holders(deal.board.kind,
                                                                                               deal.parts))]
        return Placement(board, (keys.board_places(kind, parts), keys.board_holders(kind, parts), *added))
    return Placement(board, (*board_keys(board), *closes))


def placements(run: Run) -> list[Placement]:
    """Every board ``run`` counts on once verified, as the scripts take them."""
    return [placement(board, run.player) for board in boards_of(run)]


def script_args(boards: list[Placement]) -> tuple[list[str], list[str]]:
    """The boards' KEYS, and their ARGV: how many boards, then each one's ``spec``."""
    return [key for board in boards for key in board.keys], [str(len(boards)), *(board.spec for board in boards)]
