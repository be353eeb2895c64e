"""Players' reports of a run or a player, the moderators' queue of them, and their closing.

A report names its target (``run:<id>`` or ``player:<name>``), a reason from
a short list (``REASONS``) and a text. A reporter has one open report per
target at a time (filing again answers the open one), and files at most
``REPORTS_PER_HOUR`` in any hour: both checked with the write, in one script
(``lua/file_report.lua``). A moderator closes a report with a decision
(``DECISIONS``) and a note; the reporter reads their own reports, the
decision included.
"""

import secrets
from dataclasses import dataclass

from domain.errors import NoSuchReport, ReportClosed, ReportOpen, ReportsLimited
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time
from store.lua import LuaScript, flatten
from store.sanctions.sanctions import CLOSE_REPORT, log_action

REASONS = ("cheating", "bot", "offensive_name", "harassment", "other")
OPEN, CLOSED = "open", "closed"
STATUSES = (OPEN, CLOSED)
DECISIONS = ("actioned", "dismissed")  # a moderator acted on it (a ban, a void…), or found nothing to act on
RUN, PLAYER = "run", "player"  # what a report is about
REPORTS_PER_HOUR = 10
HOUR_MS = 3_600_000

_FILE_REPORT = LuaScript("file_report")


@dataclass(frozen=True)
class Target:
    """What a report is about: a run (its id) or a player (their name as registered)."""

    kind: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


def report_view(fields: dict) -> dict:
    """A stored report as the API shows it."""
    closed = fields.get("status") == CLOSED
    return {"id": fields["id"], "kind": fields["kind"], "target": fields["target"], "reporter": fields["reporter"],
            "reason": fields["reason"], "text": fields["text"], "status": fields["status"],
            "filed_at": iso_time(fields["filed_ms"]), "decision": fields.get("decision") if closed else None,
            "note": fields.get("note") if closed else None, "moderator": fields.get("moderator") if closed else None,
            "closed_at": iso_time(fields.get("closed_ms"))}


def get_report(db: Database, report_id: str) -> dict:
    """A report as the API shows it. Raises ``NoSuchReport``."""
    fields = db.redis.hgetall(keys.report(report_id))
    if not fields:
        raise NoSuchReport(report_id)
    return report_view(fields)


def file_report(db: Database, reporter: str, target: Target, reason: str, text: str) -> dict:
    """File ``reporter``'s report of ``target``. Raises ``ReportOpen`` (their open report of it) or
    ``ReportsLimited`` (``REPORTS_PER_HOUR`` filed in the last hour)."""
    report_id, at = secrets.token_hex(8), now_ms()
    fields = {"id": report_id, "kind": target.kind, "target": target.name, "reporter": reporter, "reason": reason,
              "text": text, "status": OPEN, "filed_ms": at}
    answer, value = _FILE_REPORT.run(
        db.redis, [keys.open_report(reporter, str(target)), keys.report(report_id), keys.reports(OPEN),
                   keys.reports_filed(reporter)],
        [report_id, at, at - HOUR_MS, REPORTS_PER_HOUR, *flatten(fields)])
    if answer == "open":
        raise ReportOpen(value)
    if answer == "limited":
        raise ReportsLimited(REPORTS_PER_HOUR, int(float(value)) + HOUR_MS)
    return get_report(db, report_id)


def _reports(db: Database, ids: list[str]) -> list[dict]:
    with db.redis.pipeline(transaction=False) as pipe:
        for report_id in ids:
            pipe.hgetall(keys.report(report_id))
        return [report_view(fields) for fields in pipe.execute() if fields]


def list_reports(db: Database, status: str, kind: str | None, reason: str | None, target: str | None,
                 offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, reports)``: a page of the reports with ``status`` (and ``kind``, ``reason``, ``target`` when
    given), oldest first: a queue to work through. The queue is read whole to filter it: it holds what
    moderators have yet to read, and closed reports are read a page at a time unfiltered."""
    if kind is None and reason is None and target is None:
        total = db.redis.zcard(keys.reports(status))
        return total, _reports(db, db.redis.zrange(keys.reports(status), offset, offset + limit - 1))
    found = [report for report in _reports(db, db.redis.zrange(keys.reports(status), 0, -1))
             if kind in (None, report["kind"]) and reason in (None, report["reason"])
             and target in (None, report["target"])]
    return len(found), found[offset:offset + limit]


def reports_filed(db: Database, reporter: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, reports)``: the reports ``reporter`` filed, newest first."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.reports_filed(reporter))
        pipe.zrevrange(keys.reports_filed(reporter), offset, offset + limit - 1)
        total, ids = pipe.execute()
    return total, _reports(db, ids)


def close_report(db: Database, report_id: str, moderator: str, decision: str, note: str) -> dict:
    """Close an open report with ``decision``: its reporter may report the target again. Raises
    ``NoSuchReport`` or ``ReportClosed``."""
    fields = db.redis.hgetall(keys.report(report_id))
    if not fields:
        raise NoSuchReport(report_id)
    if fields["status"] != OPEN:
        raise ReportClosed()
    closed_ms = now_ms()
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hset(keys.report(report_id), mapping={"status": CLOSED, "decision": decision, "note": note,
                                                   "moderator": moderator, "closed_ms": closed_ms})
        pipe.zrem(keys.reports(OPEN), report_id)
        pipe.zadd(keys.reports(CLOSED), {report_id: fields["filed_ms"]})
        pipe.delete(keys.open_report(fields["reporter"], str(Target(fields["kind"], fields["target"]))))
        pipe.execute()
    player = fields["target"] if fields["kind"] == PLAYER else db.redis.hget(keys.run(fields["target"]), "player")
    log_action(db, CLOSE_REPORT, player or "", moderator, closed_ms, report_id=report_id, decision=decision,
               reason=note, **({"run_id": fields["target"]} if fields["kind"] == RUN else {}))
    return get_report(db, report_id)
