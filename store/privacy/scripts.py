"""The wrappers of an erasure's and a forced rename's Lua scripts (how a wrapper reads: ``store.lua``)."""

from typing import Any

from domain.boards import BoardId
from store.base import keys
from store.lua import LuaScript

_ERASE_PLACES = LuaScript("erase_places")
_RENAME_PLAYER = LuaScript("rename_player")


def erase_places(client: Any, boards: list[BoardId], kept: list[bool], *, player: str, pseudonym: str) -> int:
    """Remove ``player``'s place on each of ``boards``, or pass it to ``pseudonym`` where ``kept``: the places
    they held."""
    board_keys = [key for board in boards for key in (
        keys.board_places(board.board.kind, board.parts), keys.board_holders(board.board.kind, board.parts),
        keys.board_games(board.board.kind, board.parts), keys.board_window(board.board.kind, board.parts, player),
        keys.sole_places(board.name))]
    named = [item for board, keep in zip(boards, kept, strict=True)
             for item in ("keep" if keep else "drop", board.name if board.board.sole else "")]
    return int(_ERASE_PLACES.run(client, board_keys, [player, pseudonym, *named]))


def rename_player(client: Any, player: str, new: str, move_keys: list[str], move_values: list[str],
                  moves: int) -> str:
    """Make a rename's ``moves`` (``store.privacy.renaming.Moves``: the player's hash, the new name's hash and
    its spelling's key first in ``move_keys``): 'renamed', 'gone' or 'taken'."""
    return str(_RENAME_PLAYER.run(client, move_keys, [player, new, moves, *move_values]))
