"""``/v1/leaderboards``: each player's best verified run per variant."""

from flask import jsonify
from flask_smorest import abort

import scoundrel
from schemas.paging import AroundArgs, PageArgs
from schemas.runs import BoardPageSchema, BoardPositionSchema
from store import board_page, board_position, find_player, variant_board

from .api import Blueprint, error_response
from .context import db

blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards", description="Rankings")


def _known_variant(variant: str) -> str:
    if variant not in scoundrel.VARIANTS:
        abort(404, message=f"No board {variant!r}; the variants are {', '.join(scoundrel.VARIANTS)}.")
    return variant


@blp.route("/<variant>")
@blp.arguments(PageArgs(), location="query")
@blp.response(200, BoardPageSchema)
@error_response(blp, 404, "No such board")
def page(page_args, variant):
    """A page of the board: rank, player, best score, the run behind it."""
    total, entries = board_page(db(), variant_board(_known_variant(variant)), page_args["offset"], page_args["limit"])
    # Already in the documented shape: a Response skips the schema's dump, the
    # costliest part of a 100-entry page (issue 6's rankings benchmark).
    return jsonify(variant=variant, total=total, entries=entries)


@blp.route("/<variant>/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, BoardPositionSchema)
@error_response(blp, 404, "No such board, or the player is not on it")
def position(args, variant, name):
    """A player's rank and the places around it (the player's own included); the name in any case."""
    board = variant_board(_known_variant(variant))
    player = find_player(db(), name)
    found = board_position(db(), board, player, args["around"]) if player else None
    if found is None:
        abort(404, message=f"{name!r} has no verified {variant} run on the board.")
    return jsonify(found)
