"""The audit log: every change of a run, oldest first, in a Redis stream per run.

Entries are only ever appended, each in the same atomic step as the change
it records (the Lua scripts in ``store/lua``, ``accept_run`` for a submission), so the
log and the run never disagree.
"""

import json

from . import keys
from .database import Database
from .packing import iso_time


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
    """Every audit entry of the run, oldest first."""
    return [_entry_view(entry_id, fields) for entry_id, fields in db.redis.xrange(keys.audit(run_id))]
