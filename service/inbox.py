"""``/v1/players/<name>/inbox``: the rewards a player's competitions granted them, each claimed once
(``store.rewards``; docs/tournaments.md). For the player themselves, a studio's token signing them in, or
a studio's server key; the moderators list the claimed rewards a void flagged."""

from schemas.paging import PageArgs
from schemas.rewards import FlaggedPageSchema, InboxSchema, RewardSchema
from store.rewards import claim, flagged_rewards, player_inbox

from .api import Blueprint, error_response
from .auth import BEARER, moderator_endpoint
from .context import db
from .players import account_holder

blp = Blueprint("inbox", __name__, url_prefix="/v1",
                description="Rewards: what a tournament, a league week or a season granted each player, claimed once")


@blp.route("/players/<player:name>/inbox")
@blp.doc(security=BEARER)
@blp.response(200, InboxSchema)
@error_response(blp, 401, "No or wrong token")
@error_response(blp, 403, "Another player's token, or a moderator's")
@error_response(blp, 404, "No such player")
def listing(name):
    """The player's rewards, newest first, claimed or not."""
    player, _, _ = account_holder(name)
    return {"player": player, "items": player_inbox(db(), player)}


@blp.route("/players/<player:name>/inbox/<reward_id>/claim", methods=["POST"])
@blp.doc(security=BEARER)
@blp.response(200, RewardSchema)
@error_response(blp, 401, "No or wrong token")
@error_response(blp, 403, "Another player's token, or a moderator's")
@error_response(blp, 404, "No such player, or no such reward in their inbox")
@error_response(blp, 409, "Claimed already (reason already_claimed)")
def claim_one(name, reward_id):
    """Claim a reward: once (the studio pays it out on this answer, or on its ``reward.claimed`` webhook)."""
    player, _, _ = account_holder(name)
    return claim(db(), player, reward_id)


@blp.route("/rewards/flagged")
@moderator_endpoint(blp)
@blp.arguments(PageArgs(), location="query")
@blp.response(200, FlaggedPageSchema)
def flagged(args):
    """Claimed rewards a void or restore later no longer granted as claimed, newest first: never taken back."""
    total, flags = flagged_rewards(db(), args["offset"], args["limit"])
    return {"total": total, "flags": flags}
