"""``/v1/runs/<id>/…``: a run's replay and audit log, and the moderators' restore and re-verify."""

from flask import g

from domain.sealing import is_sealed
from schemas.moderation import AuditLogSchema, ReplaySchema, ReverificationSchema
from schemas.runs import RunSchema
from store import get_run
from store.moderation import DISMISSED_EVENT, restore_run
from store.runs import dealt_move_times, run_audit_log
from verification import reverify_run

from .api import Blueprint, error_response
from .auth import is_moderator, moderator_endpoint
from .context import db, revealed
from .errors import abort
from .replay_trace import run_replay

blp = Blueprint("moderation", __name__, url_prefix="/v1/runs",
                description="Replays, audit logs, restoring and re-verifying runs")


@blp.route("/<run_id>/replay")
@blp.response(200, ReplaySchema)
@error_response(blp, 404, "No such run")
@error_response(blp, 403, "A sealed daily run whose day is not over, for anyone but a moderator")
def replay(run_id):
    """The run move by move, replayed now with the current engine (a pending run too).

    A dealt game's run shows each move's server time to moderators
    (``move_times``). A sealed daily run is replayed for others once its
    UTC day is over (403 before).
    """
    run = get_run(db(), run_id)
    moderator = is_moderator()
    if is_sealed(run, revealed) and not moderator:
        abort(403, message="A sealed daily run is replayed once its day (UTC) is over.")
    return run_replay(run, dealt_move_times(db(), run_id) if moderator else None)


@blp.route("/<run_id>/audit-log")
@blp.response(200, AuditLogSchema)
@error_response(blp, 404, "No such run")
def audit(run_id):
    """Every change of the run, oldest first; public, as runs are.

    A flag's dismissal is shown to moderators only: that a run was flagged,
    and for what, would tell a bot's author which of its habits was seen.
    """
    entries = run_audit_log(db(), run_id)
    if not is_moderator():
        entries = [entry for entry in entries if entry["event"] != DISMISSED_EVENT]
    return {"run_id": run_id, "entries": entries}


@blp.route("/<run_id>/restore", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(200, RunSchema)
@blp.alt_response(404, description="No such run")
@blp.alt_response(409, description="The run is not void")
def restore(run_id):
    """Undo a void: the run is back to its verdict and its player's places are recomputed."""
    restore_run(db(), run_id, g.moderator)
    return get_run(db(), run_id)


@blp.route("/<run_id>/reverify", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(200, ReverificationSchema)
@blp.alt_response(404, description="No such run")
@blp.alt_response(409, description="The run is still pending")
def reverify(run_id):
    """Replay the run with the current engine; the verdict and boards follow, the audit log says if it changed."""
    result = reverify_run(db(), run_id, "moderator", g.moderator)
    return {**result, "run": get_run(db(), run_id)}
