"""Reports: a player reports a run or a player to the moderators, who work through the queue and close each
with a decision; and a signed-in player's own reports and disputes (``/v1/players/<name>/reports``,
``/disputes``)."""

from flask import g, url_for

from schemas.moderation import DisputeSchema
from schemas.paging import PageArgs
from schemas.reports import ReportClosingSchema, ReportCreateSchema, ReportListArgs, ReportPageSchema, ReportSchema
from store.moderation import dispute_view
from store.privacy import disputes_filed
from store.runs import get_run
from store.sanctions import (
    REPORTED_PLAYER,
    REPORTED_RUN,
    ReportTarget,
    close_report,
    file_report,
    list_reports,
    reports_filed,
)

from .api import Blueprint, error_response
from .auth import BEARER, moderator_endpoint, own, player_required
from .context import db
from .errors import abort
from .players import registered

blp = Blueprint("reports", __name__, url_prefix="/v1", description="Players' reports of runs and players")

_FILED = [(409, "An open report of yours names this already (report_id)"),
          (429, "The most reports one may file in an hour (retry_at)"), (401, "No or wrong player token")]


def _filed(target: ReportTarget, body: dict):
    report = file_report(db(), g.player, target, body["reason"], body["text"])
    return report, 201, {"Location": url_for("reports.filed", name=g.player)}


def _documented(view):
    for status, description in _FILED:
        view = error_response(blp, status, description)(view)
    return view


@blp.route("/runs/<run_id>/reports", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.arguments(ReportCreateSchema())
@blp.response(201, ReportSchema)
@error_response(blp, 404, "No such run")
@_documented
def report_run(body, run_id):
    """Report a run to the moderators (a reason from the list, and a text): one open report of a run per
    player, and at most ten reports an hour."""
    return _filed(ReportTarget(REPORTED_RUN, get_run(db(), run_id).id), body)


@blp.route("/players/<name>/reports", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.arguments(ReportCreateSchema())
@blp.response(201, ReportSchema)
@error_response(blp, 404, "No such player")
@error_response(blp, 422, "Reporting oneself")
@_documented
def report_player(body, name):
    """Report a player to the moderators (an offensive name, a bot…), as a run is reported."""
    player = registered(name)
    if player == g.player:
        abort(422, message="You may not report yourself.")
    return _filed(ReportTarget(REPORTED_PLAYER, player), body)


@blp.route("/players/<name>/reports")
@blp.doc(security=BEARER)
@player_required
@blp.arguments(PageArgs(), location="query")
@blp.response(200, ReportPageSchema)
@error_response(blp, 401, "No or wrong player token")
@error_response(blp, 403, "Another player's token")
def filed(page, name):
    """The reports the player filed, newest first, each with its decision once a moderator closed it."""
    own(name)
    total, found = reports_filed(db(), g.player, page["offset"], page["limit"])
    return {"total": total, "reports": found}


@blp.route("/players/<name>/disputes")
@blp.doc(security=BEARER)
@player_required
@blp.response(200, DisputeSchema(many=True))
@error_response(blp, 401, "No or wrong player token")
@error_response(blp, 403, "Another player's token")
def disputes_of(name):
    """The disputes the player filed, open and resolved, oldest first, each with its decision once resolved."""
    own(name)
    return [dispute_view(fields) for fields in disputes_filed(db(), g.player)]


@blp.route("/reports")
@moderator_endpoint(blp)
@blp.arguments(ReportListArgs(), location="query")
@blp.response(200, ReportPageSchema)
def queue(args):
    """The reports with a status (default open), oldest first, filtered by ``kind``, ``reason`` or ``target``."""
    total, found = list_reports(db(), args["status"], args["kind"], args["reason"], args["target"],
                                        args["offset"], args["limit"])
    return {"total": total, "reports": found}


@blp.route("/reports/<report_id>/close", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(ReportClosingSchema())
@blp.response(200, ReportSchema)
@error_response(blp, 404, "No such report")
@error_response(blp, 409, "Closed already")
def close(body, report_id):
    """Close a report with a decision (actioned or dismissed) and a note the reporter reads."""
    return close_report(db(), report_id, g.moderator, body["decision"], body["note"])
