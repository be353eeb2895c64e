"""A player's place on a board, as every board's ``/players/<name>`` answers it."""

from flask import jsonify

from store import Board, board_position

from .context import db
from .errors import abort
from .players import player_named


def place_or_404(board: Board, name: str, around: int, missing: str):
    """The player's rank and the ``around`` places either side, the name in any case;
    404 with ``missing`` when unranked."""
    player = player_named(name)
    found = board_position(db(), board, player, around) if player else None
    if found is None:
        abort(404, message=missing)
    return jsonify(found)
