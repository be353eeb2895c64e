"""A player's place on a board, as every board's ``/players/<name>`` answers it."""

from flask import jsonify
from flask_smorest import abort

from store import Board, board_position, find_player

from .context import db


def place_or_404(board: Board, name: str, around: int, missing: str):
    """The player's rank and the ``around`` places either side, the name in any case;
    404 with ``missing`` when unranked."""
    player = find_player(db(), name)
    found = board_position(db(), board, player, around) if player else None
    if found is None:
        abort(404, message=missing)
    return jsonify(found)
