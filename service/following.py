"""``/v1/players/<name>/following``: the players a player follows, whom their friends' views rank them among."""

from flask import g

from schemas.following import FollowingPageSchema
from schemas.paging import PageArgs
from schemas.players import name_key
from store.accounts import follow, following_page, unfollow

from .api import Blueprint, error_response
from .auth import BEARER, own, player_required
from .context import db
from .errors import abort
from .players import player_named, registered

blp = Blueprint("following", __name__, url_prefix="/v1/players", description="Whom players follow")


@blp.route("/<name>/following/<other>", methods=["PUT"])
@blp.doc(security=BEARER)
@player_required
@blp.response(204, description="Followed (following again changes nothing)")
@error_response(blp, 422, "Following oneself (errors under other)")
@error_response(blp, 409, "Following the most players one may already (most)")
@error_response(blp, 404, "No player to follow of that name")
@error_response(blp, 403, "Another player's token")
@error_response(blp, 401, "No or wrong player token")
def follow_player(name, other):
    """Follow a player: boards listed ``?among=<name>`` rank them with you. Names in any case."""
    own(name)
    followed = registered(other)
    if followed == g.player:
        abort(422, message="You are always among your own friends' view; follow other players.",
              errors={"other": ["Not yourself."]})
    follow(db(), g.player, followed)


@blp.route("/<name>/following/<other>", methods=["DELETE"])
@blp.doc(security=BEARER)
@player_required
@blp.response(204, description="Not followed now (whether or not they were)")
@error_response(blp, 403, "Another player's token")
@error_response(blp, 401, "No or wrong player token")
def unfollow_player(name, other):
    """Stop following a player; the name in any case."""
    own(name)
    if name_key(other) is not None:  # text that is no name is followed by no one
        unfollow(db(), g.player, player_named(other) or other)


@blp.route("/<name>/following")
@blp.arguments(PageArgs(), location="query")
@blp.response(200, FollowingPageSchema)
@error_response(blp, 404, "No such player")
def following_of(page, name):
    """The players a player follows, the latest followed first; the name in any case."""
    player = registered(name)
    total, entries = following_page(db(), player, page["offset"], page["limit"])
    return {"player": player, "total": total, "entries": entries}
