"""``/v1/flags``: games and players the workers flagged for a moderator's look, and their dismissal."""

from flask import g, url_for

from schemas.flags import DismissalSchema, FlagListArgs, FlagPageSchema, FlagSchema
from store.base import iso_time
from store.moderation import CLAIRVOYANT, SHARED_ADDRESS, Flag, dismiss_flag, flag_page, run_flags

from .api import Blueprint
from .auth import moderator_endpoint
from .context import db

blp = Blueprint("flags", __name__, url_prefix="/v1/flags",
                description="Flags for moderators: games played at machine speed or in a machine's rhythm, "
                            "one address playing the sealed daily under several names, and players choosing "
                            "as if they saw the dealt deck")


def _replay(run_id: str) -> str:
    return url_for("pages.viewer", run_id=run_id)


def flag_entry(flag: Flag) -> dict:
    """A flag as the API shows it: its run's replay linked, its dismissal once there is one."""
    entry: dict = {"id": flag.id, "reason": flag.reason, "status": flag.status}
    if flag.run_id is not None:
        entry |= {"run_id": flag.run_id, "replay": _replay(flag.run_id)}
    detail = flag.detail
    if flag.reason == SHARED_ADDRESS:
        detail = {**detail, "runs": [{"player": player, "run_id": run_id, "replay": _replay(run_id)}
                                     for player, run_id in zip(flag.players, flag.run_ids, strict=True)]}
    if flag.reason == CLAIRVOYANT:
        detail = {**detail, "runs": [{"run_id": run_id, "replay": _replay(run_id)} for run_id in flag.run_ids]}
    dismissed = None
    if flag.dismissed_by is not None:
        dismissed = {"moderator": flag.dismissed_by, "at": iso_time(flag.dismissed_ms), "note": flag.note}
    return entry | {"players": flag.players, "detail": detail, "created_at": iso_time(flag.created_ms),
                    "dismissed": dismissed}


@blp.route("")
@moderator_endpoint(blp)
@blp.arguments(FlagListArgs(), location="query")
@blp.response(200, FlagPageSchema)
def listing(args):
    """Flags, newest first: of one reason, status or run if asked; dismissed ones stay, with their dismissal."""
    reason, status = args.get("reason"), args.get("status")
    if "run_id" in args:
        found = [flag for flag in run_flags(db(), args["run_id"])
                 if reason in (None, flag.reason) and status in (None, flag.status)]
        total, flags = len(found), found[args["offset"]:args["offset"] + args["limit"]]
    else:
        total, flags = flag_page(db(), reason, status, args["offset"], args["limit"])
    return {"total": total, "entries": [flag_entry(flag) for flag in flags]}


@blp.route("/<flag_id>/dismiss", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(DismissalSchema())
@blp.response(200, FlagSchema, description="Dismissed: the flag stays, with who, when and the note")
@blp.alt_response(404, description="No such flag")
@blp.alt_response(409, description="Dismissed already")
def dismiss(body, flag_id):
    """Dismiss a flag after a look: it stays listed as dismissed, and a run's audit log records it."""
    return flag_entry(dismiss_flag(db(), flag_id, g.moderator, body["note"]))
