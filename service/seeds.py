"""``/v1/seeds/<seed>/par``: a deal's par (what perfect play scores on it). Its board, everyone's best open
run on it, is a registry board (``service.boards``)."""

from dataclasses import asdict

import scoundrel
from schemas.paging import DealArgs
from schemas.par import SeedParSchema

from .api import Blueprint, error_response
from .errors import abort
from .par import par_of

blp = Blueprint("seeds", __name__, url_prefix="/v1/seeds", description="Boards of one deal")


def valid_seed(seed: str) -> str:
    if not scoundrel.is_valid_seed(seed):
        abort(404, message="No such seed: a seed is 1-64 characters from A-Z a-z 0-9 _ -.")
    return seed


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
    found = par_of(valid_seed(seed), args["variant"])
    return {"seed": seed, "variant": args["variant"], **asdict(found)}
