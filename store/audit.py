"""The audit log: every change of a run, oldest first, in a Redis stream per run.

Entries are only ever appended, each in the same atomic step as the change
it records (the Lua scripts in ``store/lua``, ``accept_run`` for a submission), so the
log and the run never disagree.
"""

import json

from . import keys
from .database import Database
from .packing import iso_time, parse_iso_time


def audit_fields(event: str, actor_kind: str, actor: str, at_ms: int,
                 before: dict | None, after: dict | None, detail: dict | None = None) -> dict:
    """One entry's stream fields, as the Lua scripts write them too."""
    return {
        "event": event, "actor_kind": actor_kind, "actor": actor, "at": at_ms,
        "before": json.dumps(before), "after": json.dumps(after), "detail": json.dumps(detail or {}),
    }


def _entry_view(entry_id: str, fields: dict) -> dict:
    detail = json.loads(fields.get("detail") or "{}")
    return {
        "id": entry_id,
        "event": fields["event"],
        "actor": {"kind": fields["actor_kind"], "name": fields["actor"]},
        "at": iso_time(fields["at"]),
        "before": json.loads(fields["before"]),
        "after": json.loads(fields["after"]),
        # Lua's cjson writes an empty table as {} and Python as {}, but be lenient with []
        "detail": detail if isinstance(detail, dict) else {},
    }


def audit_log(db: Database, run_id: str) -> list[dict]:
    """Every audit entry of the run in Redis, oldest first (``store.history.run_audit_log``: archived too)."""
    [entries] = audit_logs(db, [run_id])
    return entries


def audit_logs(db: Database, run_ids: list[str]) -> list[list[dict]]:
    """Every audit entry of each run in Redis, oldest first, in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.xrange(keys.audit(run_id))
        return [[_entry_view(entry_id, fields) for entry_id, fields in stream] for stream in pipe.execute()]


def stored_entry(entry: dict) -> tuple[str, dict]:
    """``(stream id, stream fields)`` of an entry as ``audit_log`` shows it: the way back into Redis."""
    return entry["id"], audit_fields(entry["event"], entry["actor"]["kind"], entry["actor"]["name"],
                                     parse_iso_time(entry["at"]), entry["before"], entry["after"], entry["detail"])
