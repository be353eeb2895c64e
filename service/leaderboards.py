"""``/v1/leaderboards``: each player's best verified run per variant, open and dealt, and the ladder."""

from flask import jsonify

import scoundrel
from domain.boards import DEALT_BOARD, LADDER, OPEN_BOARD, BoardId
from schemas.paging import AroundArgs, BoardArgs
from schemas.runs import BoardPageSchema, BoardPositionSchema, LadderPageSchema, LadderPositionSchema
from store import LADDER_GAMES, dealt_board, ladder_position, variant_board, variant_ladder

from .api import Blueprint, error_response
from .board_listing import board_listing
from .context import db
from .errors import abort
from .places import place_or_404
from .players import player_named

blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards", description="Rankings")


def known_variant(variant: str) -> str:
    if variant not in scoundrel.VARIANTS:
        abort(404, message=f"No board {variant!r}; the variants are {', '.join(scoundrel.VARIANTS)}.")
    return variant


@blp.route("/<variant>")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, BoardPageSchema)
@error_response(blp, 404, "No such board, or no such player to list among")
def page(page_args, variant):
    """A page of the board: rank, player, best score, the run behind it (``among``: a friends' view)."""
    listing = board_listing(BoardId(OPEN_BOARD, (known_variant(variant),)), page_args)
    # Already in the documented shape: a Response skips the schema's dump, the
    # costliest part of a 100-entry page (the rankings benchmark, `bench/rankings.py`).
    return jsonify(variant=variant, **listing)


@blp.route("/<variant>/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, BoardPositionSchema)
@error_response(blp, 404, "No such board, or the player is not on it")
def position(args, variant, name):
    """A player's rank and the places around it (the player's own included); the name in any case."""
    return place_or_404(variant_board(known_variant(variant)), name, args["around"],
                        f"{name!r} has no verified {variant} run on the board.")


@blp.route("/dealt/<variant>")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, BoardPageSchema)
@error_response(blp, 404, "No such board, or no such player to list among")
def dealt_page(page_args, variant):
    """A page of the dealt board: each player's best game the server dealt card by card."""
    return jsonify(variant=variant, **board_listing(BoardId(DEALT_BOARD, (known_variant(variant),)), page_args))


@blp.route("/dealt/<variant>/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, BoardPositionSchema)
@error_response(blp, 404, "No such board, or the player is not on it")
def dealt_position(args, variant, name):
    """A player's rank on the dealt board and the places around it."""
    return place_or_404(dealt_board(known_variant(variant)), name, args["around"],
                        f"{name!r} has no verified dealt {variant} game on the board.")


@blp.route("/dealt/<variant>/ladder")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, LadderPageSchema)
@error_response(blp, 404, "No such board, or no such player to list among")
def ladder(page_args, variant):
    """The ladder: each player's mean score over their last 20 finished dealt games (forfeits
    included), for players with at least 20."""
    return jsonify(variant=variant, **board_listing(BoardId(LADDER, (known_variant(variant),)), page_args))


@blp.route("/dealt/<variant>/ladder/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, LadderPositionSchema)
@error_response(blp, 404, "No such board, or the player is not on it")
def ladder_place(args, variant, name):
    """A player's rank on the ladder and the places around it."""
    player = player_named(name)
    found = ladder_position(db(), variant_ladder(known_variant(variant)), player, args["around"]) if player else None
    if found is None:
        abort(404, message=f"{name!r} has fewer than {LADDER_GAMES} finished dealt {variant} games.")
    return jsonify(found)
