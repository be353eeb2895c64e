"""A player's place on a board as Redis holds it, in its sorted set or as its sole place (``Board.sole``)."""

from domain.boards import BoardId
from store.archive import BoardPlace
from store.boards.cooling import redis_places


def place_of(db, board: BoardId, player: str) -> BoardPlace | None:
    """``player``'s place on ``board`` in Redis (rank key and run id), or None."""
    return next((place for place in redis_places(db, [board])[0] if place.player == player), None)


def holds_place(db, board: BoardId, player: str) -> bool:
    return place_of(db, board, player) is not None
