"""What every board's listing answers: a page of the board, or its friends' view (``?among=<name>``).

The friends' view is that player and the players they follow, ranked among
themselves, each with their ``global_rank`` on the whole board; players
without a place are left out. One function for every kind of board of the
registry (``domain.boards``), so a board added there lists both ways.
"""

from domain.boards import BoardId
from store.accounts import followed_by
from store.boards import board_among, page_of

from .context import db
from .errors import abort
from .players import player_named


def friends_view(board: BoardId, player: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(how many have a place, entries)``: ``player`` (as registered) and those they follow on ``board``."""
    return board_among(db(), board, [player, *followed_by(db(), player)], offset, limit)


def _among_player(name: str) -> str:
    """The player ``?among=`` names, as registered, found in any case; else 404."""
    player = player_named(name)
    if player is None:
        abort(404, message=f"No player named {name!r}.")
    return player


def board_listing(board: BoardId, args: dict) -> dict:
    """``total`` and ``entries`` of a page of ``board`` (``offset``, ``limit``); with ``among``, of that
    player's friends' view, ``total`` counting its entries, and ``among`` naming the player."""
    offset, limit = args["offset"], args["limit"]
    if args["among"] is not None:
        player = _among_player(args["among"])
        total, entries = friends_view(board, player, offset, limit)
        return {"among": player, "total": total, "entries": entries}
    total, entries = page_of(db(), board, offset, limit)
    return {"total": total, "entries": entries}
