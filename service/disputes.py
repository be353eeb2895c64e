"""Disputes: players flag a run, moderators uphold it or void it."""

from flask import g, url_for
from flask_smorest import abort

from schemas.moderation import (
    DisputeCreateSchema,
    DisputeListArgs,
    DisputePageSchema,
    DisputeSchema,
    ResolutionSchema,
)
from store.disputes import (
    AlreadyResolved,
    NoSuchDispute,
    NoSuchRun,
    RunPending,
    file_dispute,
    list_disputes,
    resolve_dispute,
)

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
    try:
        dispute = file_dispute(db(), run_id, g.player, body["reason"])
    except NoSuchRun:
        abort(404, message=f"No run {run_id!r}.")
    return dispute, 201, {"Location": url_for("disputes.listing", status="open")}


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
    try:
        return resolve_dispute(db(), dispute_id, g.moderator, body["decision"], body["note"])
    except NoSuchDispute:
        abort(404, message=f"No dispute {dispute_id!r}.")
    except AlreadyResolved:
        abort(409, message="This dispute is resolved already; a decision is final.")
    except RunPending:
        abort(409, message="The run has no verdict yet; resolve the dispute once it has one.")
