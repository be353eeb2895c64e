"""``/v1/runs``: submitting a game and reading a run."""

from flask import g, request, url_for
from flask_smorest import Blueprint, abort

import scoundrel
from schemas import SubmissionSchema
from schemas.runs import RunSchema
from store import IdempotencyConflict, get_run, requeue_run, submit_run

from .api import error_response
from .auth import moderator_required, player_required
from .context import db, referee
from .daily_seed import daily_seed, today
from .request_log import request_id

blp = Blueprint("runs", __name__, url_prefix="/v1/runs", description="Submitted runs and their verdicts")

MAX_IDEMPOTENCY_KEY = 255


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable():
        abort(422, message="Bad Idempotency-Key header.",
              errors={"Idempotency-Key": [f"Must be 1-{MAX_IDEMPOTENCY_KEY} printable characters."]})
    return key


def _daily_date(submission: dict) -> str | None:
    """Today's date if the run plays today's daily seed in the ranked variant."""
    if submission["variant"] != scoundrel.CLASSIC:
        return None
    day = today()
    secret = referee().daily_secret()
    return day.isoformat() if submission["seed"] == daily_seed(secret, day) else None


@blp.route("", methods=["POST"])
@blp.doc(security=[{"bearerAuth": []}])
@player_required
@blp.arguments(SubmissionSchema)
@blp.response(202, RunSchema, description="Accepted; verification is queued")
@blp.alt_response(200, schema=RunSchema, description="The same game was already submitted by this player")
@error_response(blp, 401, "No or wrong player token")
def submit(submission):
    """Submit a game for verification."""
    try:
        run, created = submit_run(
            db(), g.player, submission, idempotency_key=_idempotency_key(), daily=_daily_date(submission),
            request_id=request_id(),
        )
    except IdempotencyConflict:
        abort(422, message="This Idempotency-Key was used for a different submission.",
              errors={"Idempotency-Key": ["Already used for a different submission."]})
    headers = {"Location": url_for("runs.show", run_id=run["id"])}
    return run, (202 if created else 200), headers


@blp.route("/<run_id>")
@blp.response(200, RunSchema)
@error_response(blp, 404, "No such run")
def show(run_id):
    """A run with its status and, once verified or rejected, its verdict."""
    run = get_run(db(), run_id)
    if run is None:
        abort(404, message=f"No run {run_id!r}.")
    return run


@blp.route("/<run_id>/requeue", methods=["POST"])
@blp.doc(security=[{"bearerAuth": []}])
@moderator_required
@blp.response(202, RunSchema, description="Pending again; verification is queued")
@error_response(blp, 401, "No or wrong moderator token")
@error_response(blp, 403, "A player's token, not a moderator's")
@error_response(blp, 404, "No such run")
@error_response(blp, 409, "The run is not in error")
def requeue(run_id):
    """Queue verification again for a run whose verification failed (status ``error``)."""
    if get_run(db(), run_id) is None:
        abort(404, message=f"No run {run_id!r}.")
    if not requeue_run(db(), run_id):
        abort(409, message="Only a run in error can be re-queued.")
    return get_run(db(), run_id), 202, {"Location": url_for("runs.show", run_id=run_id)}
