"""The wrappers of the boards' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from domain.boards import BoardId
from store.base import keys
from store.boards.placements import board_keys
from store.lua import LuaScript

_BOARD_PAGE = LuaScript("board_page")


_BOARD_POSITION = LuaScript("board_position")


_LADDER_PAGE = LuaScript("ladder_page")


_LADDER_POSITION = LuaScript("ladder_position")


_BOARD_AMONG = LuaScript("board_among")


_LADDER_AMONG = LuaScript("ladder_among")


_BOARD_SPREAD = LuaScript("board_spread")


_BOARD_STANDING = LuaScript("board_standing")


_SOLE_NAMES = LuaScript("sole_names")


_FORGET_BOARD = LuaScript("forget_board")
_FORGET_PLACES = LuaScript("forget_places")


_BRING_BACK_BOARD = LuaScript("bring_back_board")


def board_page(client: Any, *, places: str, runs: str, first: int, last: int, packing: str) -> list:
    """The board's total and the places scoring strictly higher than the first listed, then (player, score,
    submission ms, run id) per place from index ``first`` to ``last``, unpacked as ``packing`` (a
    ``store.base.packing.Packing``'s name) says."""
    return _BOARD_PAGE.run(client, [places, runs], [first, last, packing])


def board_position(client: Any, *, places: str, runs: str, player: str, around: int, packing: str) -> list:
    """The player's index, the window's first index, then its places as ``board_page`` (its two counts first);
    [] if unranked."""
    return _BOARD_POSITION.run(client, [places, runs], [player, around, packing])


def _ladder_keys(ladder: BoardId) -> tuple[list[str], str]:
    """A board ranking the latest: its places and game counts, and its windows' key prefix."""
    kind, parts = ladder.board.kind, ladder.parts
    return [keys.board_places(kind, parts), keys.board_games(kind, parts)], keys.board_window(kind, parts, "")


def ladder_page(client: Any, *, ladder: BoardId, first: int, last: int) -> list:
    """The ladder's total and the places with a strictly higher sum than the first listed, then (player, sum of
    the last games' scores, the latest game's submission ms, its run id, games) per place from index ``first``
    to ``last``."""
    ladder_keys, windows = _ladder_keys(ladder)
    return _LADDER_PAGE.run(client, ladder_keys, [first, last, windows])


def ladder_position(client: Any, *, ladder: BoardId, player: str, around: int) -> list:
    """The player's index, the window's first index, then its places as ``ladder_page`` (its two counts first);
    [] if not on it."""
    ladder_keys, windows = _ladder_keys(ladder)
    return _LADDER_POSITION.run(client, ladder_keys, [player, around, windows])


def board_among(client: Any, *, places: str, runs: str, players: list[str], first: int, last: int,
                packing: str) -> list:
    """How many of ``players`` have a place on the board, how many are listed (those from index ``first`` to
    ``last`` among them, best first), the board's total, each listed one's 0-based index on the board, then
    the places scoring strictly higher than each, then their places as ``board_page``."""
    return _BOARD_AMONG.run(client, [places, runs], [first, last, packing, *players])


def ladder_among(client: Any, *, ladder: BoardId, players: list[str], first: int, last: int) -> list:
    """As ``board_among``, on a board ranking the latest (a ladder), the places as ``ladder_page``."""
    ladder_keys, windows = _ladder_keys(ladder)
    return _LADDER_AMONG.run(client, ladder_keys, [first, last, windows, *players])


def board_standing(client: Any, *, places: str, player: str, span: int) -> Any:
    """The player's index on the board, rank key, the board's total and the places with a strictly higher
    value (``span``: the rank keys', ``packing``); [] if they have no place. Queued, in a pipeline."""
    return _BOARD_STANDING.run(client, [places], [player, span])


def sole_names(client: Any, hashes: list[str]) -> list[str]:
    """The names of the boards holding their one place in ``hashes`` (of ``keys.every_sole_places``)."""
    return _SOLE_NAMES.run(client, hashes, [])


def board_spread(client: Any, *, places: str, span: int, offset: int, unit: int, most: int,
                 below: int | None) -> list:
    """How the values of the rank keys in ``places`` spread: total, first bucket's low value, bucket
    width, the middle place's value, places under value ``below`` (-1 if None), then each bucket's count."""
    return _BOARD_SPREAD.run(client, [places], [span, offset, unit, most, *([] if below is None else [below])])


def _flat_places(places: list) -> list:
    """Places (``player``, ``rank_key``, ``run_id`` each) as the board scripts' ARGV reads them."""
    return [item for place in places for item in (place.player, place.rank_key, place.run_id)]


def forget_board(client: Any, *, board: BoardId, places: list) -> Any:
    """Remove a board the archive holds now from Redis if it still holds exactly ``places``
    (``archive.BoardPlace`` each, as read): 'ok', or 'changed' changing nothing."""
    return _FORGET_BOARD.run(client, list(board_keys(board)), [board.name, *_flat_places(places)])


def forget_places(client: Any, *, board: BoardId, places: list) -> int:
    """Remove a slice of a large board the archive holds now (``places``: ``archive.BoardPlace`` each, as
    read), each place only if unchanged since: how many places Redis still holds of the board."""
    return _FORGET_PLACES.run(client, list(board_keys(board)), [board.name, *_flat_places(places)])


def bring_back_board(client: Any, *, board: BoardId, places: list) -> Any:
    """Offer the archive's ``places`` of a best or first board to it in Redis, each as a verdict's run would
    be (``_placement``): the board in Redis is then the two merged."""
    return _BRING_BACK_BOARD.run(client, list(board_keys(board)),
                                 [board.board.order.value, board.name, *_flat_places(places)])
