"""A case at the desk: everything a moderator weighs about one run, and the actions they take on it.

What the page shows comes from the store functions the API's moderator views
use (the run, its audit log, disputes, flags, reports, sanctions), plus the
gaps between a dealt game's moves against the timing flag's limits
(``verification.move_timing``), the player's clairvoyance tallies, and the
deal's par with its line once the deal is public.

Two moderators on one case: each action's form carries how many audit
entries its page showed (``seen``). An action whose run has, since then, an
entry by a moderator is not applied: its moderator is told in a sentence who
acted first and when (``Conflict``). The store's own refusals catch the
moment in between (a dispute resolved twice, a restore of a run no longer
void, a flag dismissed twice) and are told the same way, from what the
store holds: nothing is applied twice.
"""

from dataclasses import dataclass
from datetime import datetime
from statistics import median

from marshmallow import ValidationError

from domain.errors import AlreadyResolved, AlreadyVoid, FlagDismissed, NotInError, NotSanctioned, NotVoid, RunPending
from domain.run import Run
from domain.sealing import shown
from schemas.sanctions import BanSchema, HideSchema
from store import get_run, player_runs, requeue_run
from store.base import iso_time
from store.desk import Taken, cases_taken, release_case
from store.moderation import (
    DECISIONS,
    dismiss_flag,
    get_dispute,
    get_flag,
    player_tallies,
    resolve_dispute,
    restore_run,
    runs_flags,
    void_run,
)
from store.runs import dealt_move_times, run_audit_log
from store.sanctions import REPORT_OPEN, ban, ban_of, hide, hiding_of, list_reports, unban, unhide
from verification import reverify_run
from verification.move_timing import spread

from . import charts
from .context import db, referee, revealed
from .desk_records import aware
from .par import kept_par

RECENT_RUNS = 10
NOTE_LIMIT = 1000  # characters of a note or reason, as the API takes them
ACTED = {"voided": "voided", "restored": "restored", "upheld": "upheld a dispute of", "reverified": "re-verified",
         "flag_dismissed": "dismissed a flag of", "requeued": "re-queued"}  # an audit event, as a sentence says it


# a change of the run itself with a reason: the store's operation, its refusal when another moderator made
# it first, and the audit event it leaves
RUN_CHANGES = {"void": (void_run, AlreadyVoid, "voided"), "restore": (restore_run, NotVoid, "restored")}


class Conflict(Exception):
    """An action not applied, because another moderator (or the same, elsewhere) acted first: the sentence."""


@dataclass(frozen=True)
class Case:
    """What ``/desk/runs/<id>`` shows."""

    run: Run  # as the store holds it
    public: Run  # as anyone else sees it (a sealed deal's seed hidden until it is public)
    audit: list[dict]
    disputes: list[dict]
    open_disputes: list[dict]
    flags: list  # the flags naming the run
    player_flags: list  # those naming the player's recent runs, the run's aside
    reports: list[dict]
    recent: list[Run]
    recent_total: int
    tallies: list
    gaps: charts.Gaps | None
    par: object
    ban: object
    hidden: object
    taken: Taken | None


def _when(at: str | None) -> str:
    """An ISO time as a sentence gives it: ``2026-12-06 03:20 UTC``."""
    return datetime.fromisoformat(at).strftime("%Y-%m-%d %H:%M UTC") if at else "an unknown time"


def _gaps(run: Run) -> charts.Gaps | None:
    times = dealt_move_times(db(), run.id) if run.dealt else None
    if not times:
        return None
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False) if later > earlier]
    if not gaps:
        return None
    settings = referee().settings
    return charts.gaps(gaps, median(gaps), spread(gaps), settings.flag_fast_ms, settings.flag_steady_spread,
                       settings.flag_min_moves)


def case_of(run_id: str) -> Case:
    """The case of run ``run_id``. Raises ``NoSuchRun``."""
    run = get_run(db(), run_id)
    public = shown(run, revealed)
    audit = run_audit_log(db(), run_id)
    dispute_ids = list(dict.fromkeys(entry["detail"]["dispute_id"] for entry in audit
                                     if entry["event"] == "disputed" and entry["detail"].get("dispute_id")))
    disputes = [get_dispute(db(), dispute_id) for dispute_id in dispute_ids]
    recent_total, recent = player_runs(db(), run.player, 0, RECENT_RUNS)
    reports = [*list_reports(db(), REPORT_OPEN, None, None, run_id, 0, 100)[1],
               *list_reports(db(), REPORT_OPEN, None, None, run.player, 0, 100)[1]]
    par = kept_par(public.seed, run.variant, line=True) if public.seed and run.status == "verified" else None
    flags = runs_flags(db(), list(dict.fromkeys([run_id, *(one.id for one in recent)])))
    return Case(run=run, public=public, audit=audit, disputes=disputes,
                open_disputes=[dispute for dispute in disputes if dispute["status"] == "open"],
                flags=[flag for flag in flags if run_id in flag.run_ids],
                player_flags=[flag for flag in flags if run_id not in flag.run_ids], reports=reports,
                recent=[shown(one, revealed) for one in recent],
                recent_total=recent_total, tallies=player_tallies(db(), run.player), gaps=_gaps(run), par=par,
                ban=ban_of(db(), run.player), hidden=hiding_of(db(), run.player),
                taken=cases_taken(db(), [run_id]).get(run_id))


def _acted_since(run_id: str, seen: int) -> None:
    """``Conflict`` if a moderator acted on the run after the first ``seen`` audit entries."""
    later = [entry for entry in run_audit_log(db(), run_id)[seen:] if entry["actor"]["kind"] == "moderator"]
    if later:
        first = later[0]
        raise Conflict(f"{first['actor']['name']} {ACTED.get(first['event'], first['event'])} this run at "
                       f"{_when(first['at'])}, after this page was opened; nothing was applied. "
                       "The case below is as it is now.")


def not_of_case(run_id: str, action: str, form: dict) -> dict[str, list[str]]:
    """The errors of a dispute or flag named by the form that is not this run's (a form of another case's
    page posted here): its action would change another case than the one checked for ``Conflict``.
    Raises ``NoSuchDispute`` or ``NoSuchFlag`` for one that does not exist."""
    if action == "resolve" and get_dispute(db(), form["dispute"])["run_id"] != run_id:
        return {"dispute": ["Not a dispute of this run."]}
    if action == "dismiss" and run_id not in get_flag(db(), form["flag"]).run_ids:
        return {"flag": ["Not a flag naming this run."]}
    return {}


def act(run_id: str, seen: int, moderator: str, action: str, form: dict) -> str:
    """Apply ``action`` to the run's case for ``moderator`` (fields already checked, ``not_of_case`` too); what
    was done, in a sentence. Raises ``Conflict`` when another moderator acted first, and the store's own
    refusals."""
    _acted_since(run_id, seen)
    try:
        done = _apply(run_id, moderator, action, form)
    finally:
        release_case(db(), run_id, moderator)
    return done


def _last(run_id: str, event: str) -> dict:
    """The run's latest audit entry of ``event`` (the store has just said there is one)."""
    return next(entry for entry in reversed(run_audit_log(db(), run_id)) if entry["event"] == event)


def _apply(run_id: str, moderator: str, action: str, form: dict) -> str:
    if action == "resolve":
        try:
            dispute = resolve_dispute(db(), form["dispute"], moderator, form["decision"], form["note"])
        except AlreadyResolved:
            first = get_dispute(db(), form["dispute"])
            raise Conflict(f"{first['moderator']} resolved this dispute ({first['decision']}) at "
                           f"{_when(first['resolved_at'])}; nothing was applied.") from None
        return f"Dispute resolved: {dispute['decision']}."
    if action in RUN_CHANGES:
        change, refusal, event = RUN_CHANGES[action]
        try:
            change(db(), run_id, moderator, form["note"])
        except refusal:
            entry = _last(run_id, event)
            raise Conflict(f"{entry['actor']['name']} {event} this run at {_when(entry['at'])}; nothing was "
                           "applied.") from None
        except RunPending:
            raise Conflict("This run is pending: its worker judges it first; nothing was applied.") from None
        return f"Run {event}."
    if action == "reverify":
        run = get_run(db(), run_id)
        if run.status == "error":
            try:
                requeue_run(db(), run_id, moderator)
            except NotInError:
                raise Conflict("This run left the status error meanwhile; nothing was applied.") from None
            return "Run queued for verification again."
        try:
            changed = reverify_run(db(), run_id, "moderator", moderator)["changed"]
        except RunPending:
            raise Conflict("This run is pending: its worker judges it first; nothing was applied.") from None
        return "Re-verified: the verdict changed." if changed else "Re-verified: the verdict is unchanged."
    try:
        dismiss_flag(db(), form["flag"], moderator, form["note"])
    except FlagDismissed:
        flag = get_flag(db(), form["flag"])
        raise Conflict(f"{flag.dismissed_by} dismissed this flag at {_when(iso_time(flag.dismissed_ms))}; "
                       "nothing was applied.") from None
    return "Flag dismissed."


def checked(action: str, form) -> tuple[dict, dict[str, list[str]]]:
    """The action's fields from a posted form, and the errors of those that cannot be used (by field)."""
    errors: dict[str, list[str]] = {}
    note = form.get("note", "").strip()
    if len(note) > NOTE_LIMIT:
        errors["note"] = [f"At most {NOTE_LIMIT} characters."]
    fields = {"note": note}
    if action == "resolve":
        fields |= {"dispute": form.get("dispute", ""), "decision": form.get("decision", "")}
        if not fields["dispute"]:
            errors["dispute"] = ["Missing."]
        if fields["decision"] not in DECISIONS:
            errors["decision"] = [f"One of: {', '.join(DECISIONS)}."]
    if action in ("void", "restore") and not note:
        errors["note"] = [f"Say why the run is {action}ed."]
    if action == "dismiss":
        fields["flag"] = form.get("flag", "")
        if not fields["flag"]:
            errors["flag"] = ["Missing."]
    return fields, errors


SANCTIONS = ("ban", "unban", "hide", "unhide")  # what a case does to its run's player


def sanction(run_id: str, moderator: str, action: str, form) -> tuple[str | None, dict[str, list[str]]]:
    """Ban, unban, hide or unhide the run's player, as the API does (``BanSchema``, ``HideSchema``; an end
    typed without an offset is UTC): ``(what was done, {})`` or ``(None, errors)``. Lifting what is not there
    (lifted meanwhile) raises ``Conflict``."""
    player = get_run(db(), run_id).player
    if action in ("unban", "unhide"):
        try:
            (unban if action == "unban" else unhide)(db(), player, moderator)
        except NotSanctioned as missing:
            raise Conflict(f"{missing} (lifted meanwhile?); nothing was applied.") from None
        return f"{player} {action}ned." if action == "unban" else f"{player} shown again.", {}
    fields = {"reason": form.get("reason", "")}
    if action == "ban" and form.get("until"):
        fields["until"] = aware(form["until"])
    try:
        body = (BanSchema if action == "ban" else HideSchema)().load(fields)
    except ValidationError as invalid:
        return None, invalid.normalized_messages()
    if action == "hide":
        hide(db(), player, moderator, body["reason"])
        return f"{player} hidden.", {}
    until = body["until"]
    ban(db(), player, moderator, body["reason"], None if until is None else int(until.timestamp() * 1000))
    return f"{player} banned.", {}
