"""``/v1/seeds/<seed>/…``: everyone's best open run on one deal, the fair comparison for open seeds, and the
deal's par (what perfect play scores on it)."""

from dataclasses import asdict

from flask import jsonify

import scoundrel
from domain.boards import SEED_BOARD, BoardId
from schemas.paging import DealArgs, SeedAroundArgs, SeedBoardArgs
from schemas.par import ParSchema, SeedParSchema
from schemas.runs import BoardPositionSchema, SeedBoardSchema
from store import seed_board

from .api import Blueprint, error_response
from .board_listing import board_listing
from .errors import abort
from .par import beside_par, kept_par, par_of
from .places import place_or_404

blp = Blueprint("seeds", __name__, url_prefix="/v1/seeds", description="Boards of one deal")


def _valid_seed(seed: str) -> str:
    if not scoundrel.is_valid_seed(seed):
        abort(404, message="No such seed: a seed is 1-64 characters from A-Z a-z 0-9 _ -.")
    return seed


@blp.route("/<seed>/leaderboard")
@blp.arguments(SeedBoardArgs(), location="query")
@blp.response(200, SeedBoardSchema)
@error_response(blp, 404, "Not a seed, or no such player to list among")
def page(args, seed):
    """Each player's best verified open run on this seed and variant: everyone played the same deck; with the
    deal's par once kept (without its line: ``/v1/seeds/<seed>/par`` searches and shows it) and each run's
    distance from it."""
    listing = board_listing(BoardId(SEED_BOARD, (args["variant"], _valid_seed(seed))), args)
    found = kept_par(seed, args["variant"])
    if found is None:
        return jsonify(seed=seed, variant=args["variant"], **listing)
    listing["entries"] = beside_par(listing["entries"], found)
    return jsonify(seed=seed, variant=args["variant"], par=ParSchema().dump(found), **listing)


@blp.route("/<seed>/leaderboard/players/<name>")
@blp.arguments(SeedAroundArgs(), location="query")
@blp.response(200, BoardPositionSchema)
@error_response(blp, 404, "Not a seed, or the player is not on its board")
def position(args, seed, name):
    """A player's rank on the seed's board and the places around it."""
    return place_or_404(seed_board(args["variant"], _valid_seed(seed)), name, args["around"],
                        f"{name!r} has no verified open {args['variant']} run on this seed.")


@blp.route("/<seed>/par")
@blp.arguments(DealArgs(), location="query")
@blp.response(200, SeedParSchema)
@error_response(blp, 404, "Not a seed")
def deal_par(args, seed):
    """The best score perfect play reaches on this deal (the whole deck known), with a line that reaches it.

    Answered at once with what is proven so far: exact, or an interval
    (``par`` a line's score below, ``upper`` above); while ``searching``, a
    worker searches on, and asking again later shows what it proved.
    """
    found = par_of(_valid_seed(seed), args["variant"])
    return {"seed": seed, "variant": args["variant"], **asdict(found)}
