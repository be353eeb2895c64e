"""Disputes: players flag a run, moderators uphold it or void it."""

from flask import g, url_for

from schemas.moderation import (
    DisputeCreateSchema,
    DisputeListArgs,
    DisputePageSchema,
    DisputeSchema,
    ResolutionSchema,
)
from store.moderation import OPEN, file_dispute, list_disputes, resolve_dispute

from .api import Blueprint
from .auth import BEARER, moderator_endpoint, player_required
from .context import db

blp = Blueprint("disputes", __name__, url_prefix="/v1", description="Disputes of runs, settled by moderators")


@blp.route("/runs/<run_id>/disputes", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.arguments(DisputeCreateSchema())
@blp.response(201, DisputeSchema)
@blp.alt_response(401, description="No or wrong player token")
@blp.alt_response(404, description="No such run")
def file(body, run_id):
    """Dispute a run (any player may); a moderator will uphold or void it."""
    dispute = file_dispute(db(), run_id, g.player, body["reason"])
    return dispute, 201, {"Location": url_for("disputes.listing", status=OPEN)}


@blp.route("/disputes")
@moderator_endpoint(blp)
@blp.arguments(DisputeListArgs(), location="query")
@blp.response(200, DisputePageSchema)
def listing(args):
    """Disputes with a status (default open), oldest first."""
    total, disputes = list_disputes(db(), args["status"], args["offset"], args["limit"])
    return {"status": args["status"], "total": total, "disputes": disputes}


@blp.route("/disputes/<dispute_id>/resolve", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(ResolutionSchema())
@blp.response(200, DisputeSchema)
@blp.alt_response(404, description="No such dispute")
@blp.alt_response(409, description="Already resolved, or a void of a run that has no verdict yet")
def resolve(body, dispute_id):
    """Uphold the run, or void it: off every board, the player's next best run takes the place."""
    return resolve_dispute(db(), dispute_id, g.moderator, body["decision"], body["note"])
