"""``/desk``: the moderators' desk, pages for moderators in the browser (docs/moderation.md).

Signing in and the checks of every request are ``desk_sessions``'; the queue
is ``desk_queue``'s, a case and its actions ``desk_case``'s, the logs,
tournaments, webhooks and closing reports ``desk_records``' (sending a
delivery again ``webhooks``', as the API's). Each view only
turns the request into those calls and their answers into a template; an
action answers with a redirect to its page (``?done=`` saying what was done)
or, refused, with the page and the sentence saying why.
"""

from flask import Blueprint, g, jsonify, make_response, render_template, request, url_for
from marshmallow import ValidationError
from werkzeug.utils import redirect

import scoundrel
from domain.errors import (
    DeliveryNotKept,
    NoSuchDelivery,
    NoSuchDispute,
    NoSuchFlag,
    NoSuchReport,
    NoSuchRun,
    NoSuchWebhook,
    ReportClosed,
)
from domain.events import EVENTS
from domain.numerals import is_ascii_number
from domain.tournaments import SCORINGS, NoSuchTournament, TournamentRefusal
from schemas.players import name_key
from schemas.sanctions import LogFilterSchema
from store import get_run
from store.desk import CASE_HELD, take_case
from store.moderation import REASONS as FLAG_REASONS
from store.runs import dealt_move_times
from store.sanctions import LOG_ACTIONS, REPORT_DECISIONS

from . import desk_sessions
from .context import db, referee
from .desk_case import SANCTIONS, Conflict, act, case_of, checked, not_of_case, sanction
from .desk_queue import PAGE_SIZE, SECTIONS, Filters, queue_page
from .desk_records import (
    LOG_PAGE,
    close_report_from,
    closed_by,
    create_tournament_from,
    end_tournament_from,
    erasures_page,
    log_page,
    register_webhook_from,
    tournaments_listed,
    webhooks_listed,
)
from .desk_sessions import DeskRefused, NotModerator, desk_page
from .replay_trace import run_replay
from .webhooks import resend_delivery

blp = Blueprint("desk", __name__, url_prefix="/desk", template_folder="templates")
ACTIONS = ("resolve", "void", "restore", "reverify", "dismiss")


class Invalid(Exception):
    """A desk request whose fields cannot be used: a 422 naming each."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("Some fields cannot be used.")
        self.errors = errors


@blp.errorhandler(DeskRefused)
def _refused(refusal: DeskRefused):
    return desk_sessions.with_policy(desk_sessions.refused(refusal))


@blp.errorhandler(Invalid)
def _invalid(invalid: Invalid):
    return desk_sessions.with_policy(make_response(render_template("desk_refused.html", invalid=invalid), 422))


@blp.errorhandler(NoSuchRun)
@blp.errorhandler(NoSuchDispute)
@blp.errorhandler(NoSuchFlag)
@blp.errorhandler(NoSuchTournament)
@blp.errorhandler(NoSuchReport)
@blp.errorhandler(NoSuchWebhook)
@blp.errorhandler(NoSuchDelivery)
def _missing(missing):
    return desk_sessions.with_policy(make_response(render_template("desk_refused.html", missing=missing), 404))


@blp.after_request
def _policy(response):
    return desk_sessions.with_policy(response)


@blp.context_processor
def _session():
    """Every desk page knows who is signed in and the CSRF token its forms carry."""
    return {"desk": g.get("desk")}


@blp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    """The sign-in form; posted, a session for the moderator whose token it carries."""
    if request.method == "GET":
        return render_template("desk_sign_in.html", ended=bool(request.args.get("ended")), hours=_hours())
    desk_sessions.check_origin()
    try:
        return desk_sessions.begin(request.form.get("token", ""))
    except NotModerator as refused:
        return render_template("desk_sign_in.html", refused=str(refused), hours=_hours()), 401


def _hours() -> float:
    return referee().settings.desk_session_hours


@blp.route("/sign-out", methods=["POST"])
@desk_page
def sign_out():
    return desk_sessions.finish()


def _filters() -> tuple[Filters, dict[str, list[str]]]:
    errors: dict[str, list[str]] = {}
    variant = request.args.get("variant") or None
    if variant is not None and variant not in scoundrel.VARIANTS:
        errors["variant"] = [f"One of: {', '.join(scoundrel.VARIANTS)}."]
    player = request.args.get("player") or None
    if player is not None and name_key(player) is None:
        errors["player"] = ["Not a player's name."]
    return Filters(request.args.get("board") or None, variant, player), errors


def _page_asked() -> tuple[int, dict[str, list[str]]]:
    """``?page=`` (1 if not given), and its error unless it is a whole number from 1 (the page then 1)."""
    page = request.args.get("page", "1")
    if is_ascii_number(page) and int(page) >= 1:
        return int(page), {}
    return 1, {"page": ["A whole number from 1."]}


@blp.route("")
@desk_page
def queue():
    """The queue: a section's page (``?section=``, ``?kind=`` of flags, ``?page=``), filtered (``?board=``,
    ``?variant=``, ``?player=``)."""
    filters, errors = _filters()
    section = request.args.get("section", "disputes")
    if section not in SECTIONS:
        errors["section"] = [f"One of: {', '.join(SECTIONS)}."]
    kind = request.args.get("kind") or None
    if kind is not None and kind not in FLAG_REASONS:
        errors["kind"] = [f"One of: {', '.join(FLAG_REASONS)}."]
    page, refused = _page_asked()
    errors.update(refused)
    if errors:
        raise Invalid(errors)
    found = queue_page(section, kind, filters, page)
    return render_template("desk_queue.html", found=found, done=request.args.get("done"), sections=SECTIONS,
                           filters=filters, kind=kind,
                           page=page, pages=max(1, -(-found.total // PAGE_SIZE)), flag_reasons=FLAG_REASONS,
                           variants=scoundrel.VARIANTS, report_decisions=REPORT_DECISIONS)


def _case_page(run_id: str, status: int = 200, done: str | None = None, conflict: str | None = None):
    return render_template("desk_case.html", case=case_of(run_id), done=done, conflict=conflict,
                           held_minutes=CASE_HELD // 60_000, report_decisions=REPORT_DECISIONS), status


@blp.route("/runs/<run_id>")
@desk_page
def case(run_id):
    """A run's case: the replay, the verdict, the timing, the player, the audit log, and the actions."""
    return _case_page(run_id, done=request.args.get("done"))


@blp.route("/runs/<run_id>/replay")
@desk_page
def replay(run_id):
    """The run's replay for the desk's viewer, as the API gives it a moderator (a dealt game's move times)."""
    return jsonify(run_replay(get_run(db(), run_id), dealt_move_times(db(), run_id)))


@blp.route("/runs/<run_id>/take", methods=["POST"])
@desk_page
def take(run_id):
    """Take the case: the other moderators see who is on it until they act or it is released by itself."""
    get_run(db(), run_id)
    take_case(db(), run_id, g.moderator)
    return redirect(url_for("desk.case", run_id=run_id, done="You are on this case."), 303)


@blp.route("/runs/<run_id>/player/<action>", methods=["POST"])
@desk_page
def player_action(run_id, action):
    """Ban, unban, hide or unhide the case's player, as the API does; in the moderators' log."""
    if action not in SANCTIONS:
        raise Invalid({"action": [f"One of: {', '.join(SANCTIONS)}."]})
    try:
        done, errors = sanction(run_id, g.moderator, action, request.form)
    except Conflict as conflict:
        return _case_page(run_id, 409, conflict=str(conflict))
    if errors:
        raise Invalid(errors)
    return redirect(url_for("desk.case", run_id=run_id, done=done), 303)


@blp.route("/runs/<run_id>/<action>", methods=["POST"])
@desk_page
def action(run_id, action):
    """Resolve a dispute, void, restore, re-verify, dismiss a flag: applied once, in the audit log under the
    moderator's name."""
    if action not in ACTIONS:
        raise Invalid({"action": [f"One of: {', '.join(ACTIONS)}."]})
    fields, errors = checked(action, request.form)
    seen = request.form.get("seen", "")
    if not is_ascii_number(seen):
        errors["seen"] = ["Missing: send the form from the case's page."]
    if errors:
        raise Invalid(errors)
    get_run(db(), run_id)
    if elsewhere := not_of_case(run_id, action, fields):
        raise Invalid(elsewhere)
    try:
        done = act(run_id, int(seen), g.moderator, action, fields)
    except Conflict as conflict:
        return _case_page(run_id, 409, conflict=str(conflict))
    return redirect(url_for("desk.case", run_id=run_id, done=done), 303)


@blp.route("/reports/<report_id>/close", methods=["POST"])
@desk_page
def close_report(report_id):
    """Close a player's report with a decision and a note, as the API does; in the moderators' log. Back to the
    case it was closed from (``run``), else to the queue's reports; closed already, the sentence saying who
    closed it first, with a 409."""
    run_id = request.form.get("run") or None
    try:
        done, errors = close_report_from(report_id, request.form, g.moderator)
    except ReportClosed:
        if run_id is not None:
            return _case_page(run_id, 409, conflict=closed_by(report_id))
        return render_template("desk_refused.html", conflict=closed_by(report_id)), 409
    if errors:
        raise Invalid(errors)
    if run_id is not None:
        return redirect(url_for("desk.case", run_id=run_id, done=done), 303)
    return redirect(url_for("desk.queue", section="reports", done=done), 303)


def _page_number() -> int:
    """``?page=``, or a 422 naming the field."""
    page, refused = _page_asked()
    if refused:
        raise Invalid(refused)
    return page


@blp.route("/log")
@desk_page
def log():
    """The moderators' log, newest first: of one moderator, action (``kind``) and player if asked (the API's
    filters and their checks)."""
    asked = {name: request.args[field] for name, field in (("moderator", "moderator"), ("action", "kind"),
                                                            ("player", "player")) if request.args.get(field)}
    try:
        only = LogFilterSchema().load(asked)["only"]
    except ValidationError as invalid:
        raise Invalid({"kind" if name == "action" else name: messages
                       for name, messages in invalid.normalized_messages().items()}) from None
    page = _page_number()
    total, entries = log_page(only, page)
    return render_template("desk_log.html", total=total, entries=entries, page=page, kinds=LOG_ACTIONS,
                           pages=max(1, -(-total // LOG_PAGE)), moderator=asked.get("moderator"),
                           kind=asked.get("action"), player=asked.get("player"))


@blp.route("/erasures")
@desk_page
def erasures():
    """The erasures finished, newest first: when, by whom, under which pseudonym."""
    page = _page_number()
    total, entries = erasures_page(page)
    return render_template("desk_erasures.html", total=total, entries=entries, page=page,
                           pages=max(1, -(-total // LOG_PAGE)))


def _with_form(template: str, write, shown, **context):
    """A page listing what is (``shown()``, read after any write) with a form adding to it (``write``: the
    form and the moderator to ``(what was made, {})`` or ``(None, errors)``, a 422 naming the fields)."""
    made = None
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        made, errors = write(request.form, g.moderator)
    return render_template(template, made=made, errors=errors, shown=shown(), **context), 422 if errors else 200


@blp.route("/tournaments", methods=["GET", "POST"])
@desk_page
def tournaments():
    """The tournaments of each state, with a form ending each running one now, and a form to create one (the
    API's checks)."""
    return _with_form("desk_tournaments.html", create_tournament_from, tournaments_listed,
                      variants=scoundrel.VARIANTS, scorings=SCORINGS, done=request.args.get("done"))


@blp.route("/tournaments/<tournament_id>/end", methods=["POST"])
@desk_page
def end_tournament(tournament_id):
    """End a running tournament now, as the API does; refused (ended already, not started), the page says
    why with a 409."""
    try:
        done, errors = end_tournament_from(tournament_id, request.form, g.moderator)
    except TournamentRefusal as refused:
        return render_template("desk_tournaments.html", made=None, errors={}, shown=tournaments_listed(),
                               variants=scoundrel.VARIANTS, scorings=SCORINGS, conflict=str(refused)), 409
    if errors:
        raise Invalid(errors)
    return redirect(url_for("desk.tournaments", done=done), 303)


@blp.route("/webhooks", methods=["GET", "POST"])
@desk_page
def webhooks():
    """The webhooks with their latest deliveries, each to be sent again, and a form to register one (its
    secret shown once)."""
    return _with_form("desk_webhooks.html", register_webhook_from, webhooks_listed, events=list(EVENTS),
                      done=request.args.get("done"))


@blp.route("/webhooks/<hook_id>/deliveries/<event_id>/resend", methods=["POST"])
@desk_page
def resend(hook_id, event_id):
    """Send an event to a webhook again, as the API does; its body not kept, the page says so with a 409."""
    try:
        sent = resend_delivery(hook_id, event_id)
    except DeliveryNotKept as refused:
        return render_template("desk_refused.html", conflict=str(refused)), 409
    return redirect(url_for("desk.webhooks", done=f"{sent.event} {sent.event_id} queued again."), 303)
