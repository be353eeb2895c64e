"""The rest of moderation at the desk: the moderators' log (filtered as the API filters it), the erasures' log,
tournaments (created, ended early), webhooks (registered) and players' reports (closed), read and written through
the same store functions and schemas as their API endpoints."""

from datetime import UTC, datetime

from marshmallow import ValidationError

from domain.tournaments import STATES
from schemas.reports import ReportClosingSchema
from schemas.tournaments import TournamentCreateSchema, TournamentEndSchema
from schemas.webhooks import WebhookCreateSchema
from store.privacy import erasure_log
from store.sanctions import LogFilter, close_report, get_report, moderation_log
from store.tournaments import end_tournament, tournaments_in
from store.webhooks import create_webhook, deliveries, webhook_page

from .context import db
from .tournaments import new_tournament, tournament_view
from .webhooks import refusal

LOG_PAGE = 50


def log_page(only: LogFilter, page: int) -> tuple[int, list[dict]]:
    """``(total, entries)``: page ``page`` (from 1) of the moderators' log, newest first, those ``only``
    admits (the API's filter)."""
    return moderation_log(db(), (page - 1) * LOG_PAGE, LOG_PAGE, only)


def close_report_from(report_id: str, form, moderator: str) -> tuple[str | None, dict[str, list[str]]]:
    """Close a report from the desk's form with its decision and note (the API's schema and operation): ``(what
    was done, {})``, or ``(None, errors)``. Raises ``NoSuchReport``, or ``ReportClosed``."""
    try:
        body = ReportClosingSchema().load({"decision": form.get("decision", ""), "note": form.get("note", "")})
    except ValidationError as invalid:
        return None, invalid.normalized_messages()
    closed = close_report(db(), report_id, moderator, body["decision"], body["note"])
    return f"Report of the {closed['kind']} {closed['target']} closed: {closed['decision']}.", {}


def closed_by(report_id: str) -> str:
    """The sentence telling a moderator who closed the report first, and when."""
    closed = get_report(db(), report_id)
    return f"{closed['moderator']} closed this report first, at {closed['closed_at']}: {closed['decision']}."


def erasures_page(page: int) -> tuple[int, list[dict]]:
    """A page of the erasures finished, newest first (pseudonyms only: the names are gone)."""
    return erasure_log(db(), (page - 1) * LOG_PAGE, LOG_PAGE)


def tournaments_listed() -> dict[str, tuple[int, list[dict]]]:
    """The first page of the tournaments of each state, as the API shows them."""
    listed = {}
    for state in STATES:
        total, found = tournaments_in(db(), state, 0, LOG_PAGE)
        listed[state] = (total, [tournament_view(one) for one in found])
    return listed


def aware(text: str) -> str:
    """A ``datetime-local`` field's value (no offset) read as UTC, as the form says; ISO 8601 with its offset
    as given."""
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return text  # the schema names it
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).isoformat()


def create_tournament_from(form, moderator: str) -> tuple[dict | None, dict[str, list[str]]]:
    """A tournament from the desk's form (the API's schema checks it): ``(it, {})``, or ``(None, errors)``."""
    fields = {name: value for name, value in form.items() if name not in ("csrf",) and value != ""}
    for name in ("starts_at", "ends_at"):
        if name in fields:
            fields[name] = aware(fields[name])
    fields["join_required"] = "join_required" in form
    try:
        body = TournamentCreateSchema().load(fields)
    except ValidationError as invalid:
        return None, invalid.normalized_messages()
    return tournament_view(new_tournament(body, moderator)), {}


def end_tournament_from(tournament_id: str, form, moderator: str) -> tuple[str | None, dict[str, list[str]]]:
    """End a running tournament now from the desk's form (the API's schema and operation): ``(what was done,
    {})``, or ``(None, errors)``. Raises ``NoSuchTournament`` or ``TournamentRefusal``."""
    try:
        body = TournamentEndSchema().load({"reason": form.get("reason", "")})
    except ValidationError as invalid:
        return None, invalid.normalized_messages()
    ended = end_tournament(db(), tournament_id, moderator, body["reason"])
    return f"Ended {ended.title} now: its games in play are forfeited; it settles with the next pass.", {}


def webhooks_listed() -> list[dict]:
    """Every webhook with its latest deliveries."""
    _, hooks = webhook_page(db(), 0, 100)
    return [{"hook": hook, "deliveries": deliveries(db(), hook.id)} for hook in hooks]


def register_webhook_from(form, moderator: str) -> tuple[str | None, dict[str, list[str]]]:
    """Register the form's webhook: ``(its secret, shown this once; {})``, or ``(None, errors)``."""
    try:
        body = WebhookCreateSchema().load({"url": form.get("url", ""), "events": form.getlist("events")})
    except ValidationError as invalid:
        return None, invalid.normalized_messages()
    if refused := refusal(body):
        return None, {"url": [refused]}
    _, secret = create_webhook(db(), body["url"].text, body["events"], moderator)
    return secret, {}
