"""The audit log: every change of a run, oldest first, in the run's own hash.

Entries are only ever appended, each in the same atomic step as the change
it records (the Lua scripts in ``store/lua``, ``accept_run`` for a submission), so the
log and the run never disagree.

The log is the run hash's ``log`` field, a few dozen bytes an entry (a Redis
stream per run would cost 4.7 KB). Entries are separated by ``ENTRY``,
their fields by ``FIELD``: event, actor kind, actor, time, before, after,
detail, and the entry's id only where it is not ``<time>-<position>``.
What the run itself says is left out: the actor when it is the run's
player (""), the time as ms after the submission, ``before`` when it is
the previous entry's ``after`` (""; null for the first), the last entry's
``after`` when it is the run's snapshot as it stands (""; written out
when the next entry comes), a detail of {} (""), trailing empty fields.
The submission's entry, the same in every new run, is ``SUBMITTED``.
A snapshot (``before``/``after``) is ``JSON_MARK`` and JSON, or compact: the comma-joined
fields of ``lua/_audit.lua``'s ``snapshot`` (status, outcome, score,
health, error code, and voided_status for a void run; "" for null), or a
bare status for ``{"status": …}``. ``lua/_audit.lua`` writes the same
encoding; a test holds the two to it.
"""

import json
from collections.abc import Mapping

from store.base import keys
from store.base.database import Database
from store.base.packing import iso_time, parse_iso_time
from store.runs.verdicts import stored_int

ENTRY = "\x1e"  # ASCII record separator: JSON and names never hold control characters unescaped
FIELD = "\x1f"  # ASCII unit separator
JSON_MARK = "="  # begins a snapshot kept as JSON: one of a shape the compact form has no room for
SUBMITTED = "s"  # the entry of a run's submission by its player: a new run's whole log, whatever the run
_SUBMITTED_FIELDS = FIELD.join(["submitted", "player", "", "0", "", "pending"])
_SNAPSHOT = ("status", "outcome", "score", "health", "error")
_NUMBERS = ("score", "health")
SERVER_KEY = "server_key"  # the actor kind of a run a studio's server key submitted for its player


def submitted_entry(server_key: str = "") -> str:
    """A new run's log: its submission, by its player (``SUBMITTED``) or by ``server_key`` for them."""
    return FIELD.join(["submitted", SERVER_KEY, server_key, "0", "", "pending"]) if server_key else SUBMITTED


# what reading a log needs of its run: the log, what it leaves out, the fields of the run's snapshot
_LOG_FIELDS = ("log", "player", "submitted_ms", "status", "outcome", "score", "health", "error", "voided_status")


def _compact(snapshot: dict | None) -> str | None:
    """A snapshot's compact form, or None when it has not the shape that allows one."""
    if not isinstance(snapshot, dict):
        return None
    if list(snapshot) == ["status"] and isinstance(snapshot["status"], str) and _plain(snapshot["status"]):
        return snapshot["status"]
    names = [*_SNAPSHOT, "voided_status"] if snapshot.get("status") == "void" else list(_SNAPSHOT)
    if sorted(snapshot) != sorted(names):
        return None
    parts = []
    for name in names:
        value = snapshot[name]
        if value is None:
            parts.append("")
        elif name in _NUMBERS and type(value) is int:
            parts.append(str(value))
        elif name not in _NUMBERS and isinstance(value, str) and _plain(value):
            parts.append(value)
        else:
            return None
    while len(parts) > 2 and parts[-1] == "":
        parts.pop()
    return ",".join(parts)


def _plain(text: str) -> bool:
    """A value the compact form can hold: not empty (that is null), no comma, not ``JSON_MARK`` first."""
    return text != "" and "," not in text and not text.startswith(JSON_MARK)


def _snapshot_text(snapshot: dict | None) -> str:
    compact = _compact(snapshot)
    return compact if compact is not None else JSON_MARK + json.dumps(snapshot, separators=(",", ":"))


def _snapshot(text: str) -> dict | None:
    if text.startswith(JSON_MARK):
        return json.loads(text[len(JSON_MARK):])
    if "," not in text:
        return {"status": text}
    parts = text.split(",")
    names = [*_SNAPSHOT, "voided_status"] if parts[0] == "void" else list(_SNAPSHOT)
    parts += [""] * (len(names) - len(parts))
    return {name: (int(value) if name in _NUMBERS else value) if value != "" else None
            for name, value in zip(names, parts, strict=True)}


def run_snapshot(fields: dict) -> dict:
    """The run's verdict as its audit entries show it now: ``snapshot`` of ``lua/_audit.lua``."""
    error = fields.get("error")
    view = {"status": fields.get("status") or None, "outcome": fields.get("outcome") or None,
            "score": stored_int(fields.get("score")), "health": stored_int(fields.get("health")),
            "error": json.loads(error)["code"] if error else None}
    if fields.get("status") == "void":
        view["voided_status"] = fields.get("voided_status") or None
    return view


def encode_entry(entry: dict, run: dict, position: int, previous_after: str | None) -> tuple[str, str]:
    """``(entry text, its after's text)``: entry number ``position`` of ``run``'s log, as the API
    shows it (``audit_log``), after an entry whose after reads ``previous_after`` (None: the first)."""
    actor = entry["actor"]
    at = parse_iso_time(entry["at"])
    offset = at - int(run["submitted_ms"])
    before = _snapshot_text(entry["before"])
    after = _snapshot_text(entry["after"])
    fields = [
        entry["event"], actor["kind"], "" if actor["kind"] == "player" and actor["name"] == run["player"]
        else actor["name"], str(offset),
        "" if before == (previous_after if previous_after is not None else _snapshot_text(None)) else before,
        after, "" if not entry["detail"] else json.dumps(entry["detail"], separators=(",", ":")),
    ]
    if entry["id"] != f"{at}-{position}":
        fields.append(entry["id"])
    while len(fields) > 1 and fields[-1] == "":
        fields.pop()
    text = FIELD.join(fields)
    return SUBMITTED if text == _SUBMITTED_FIELDS else text, after


def encode_log(entries: list[dict], run: dict) -> str:
    """The ``log`` field holding ``entries`` (as ``audit_log`` shows them) for ``run``."""
    texts, previous = [], None
    for position, entry in enumerate(entries):
        text, previous = encode_entry(entry, run, position, previous)
        texts.append(text)
    return ENTRY.join(texts)


def decode_log(log: str, run: dict) -> list[dict]:
    """The entries of ``run``'s ``log`` field, as the API shows them (``run``: its fields)."""
    entries: list[dict] = []
    previous: dict | None = None
    for position, text in enumerate(log.split(ENTRY) if log else []):
        fields = (_SUBMITTED_FIELDS if text == SUBMITTED else text).split(FIELD)
        event, kind, actor, offset, before, after, detail, *given_id = fields + [""] * (7 - len(fields))
        at = int(run["submitted_ms"]) + int(offset)
        entry = {
            "id": given_id[0] if given_id else f"{at}-{position}",
            "event": event,
            "actor": {"kind": kind, "name": actor if actor or kind != "player" else run["player"]},
            "at": iso_time(at),
            "before": _snapshot(before) if before else previous,
            # only the last entry's can be left out: the run's snapshot as it stands
            "after": _snapshot(after) if after else run_snapshot(run),
            "detail": json.loads(detail) if detail else {},
        }
        entries.append(entry)
        previous = entry["after"]
    return entries


_VERDICTS = ("verified", "rejected", "errored")  # the events that give a run its verdict time


def verdict_ms(run: Mapping[str, str]) -> int | None:
    """When the run got its verdict: its ``verified_ms`` field where it has one (a run brought back
    from the archive keeps the time the archive held), else the time of the last verdict entry of its
    log, none once it was re-queued."""
    if run.get("verified_ms"):
        return int(run["verified_ms"])
    found = None
    for text in run.get("log", "").split(ENTRY) if run.get("log") else []:
        event, _, _, offset, *_ = (_SUBMITTED_FIELDS if text == SUBMITTED else text).split(FIELD, 4) + ["", "", ""]
        if event in _VERDICTS:
            found = int(run["submitted_ms"]) + int(offset)
        elif event == "requeued":
            found = None
    return found


def archived_fields(run: dict) -> dict:
    """A run's fields as the archive keeps them: its log is the archive's audit column, so not a
    field too, save for the verdict time it held (``verdict_ms``)."""
    fields = {name: value for name, value in run.items() if name != "log"}
    at = verdict_ms(run)
    return {**fields, "verified_ms": str(at)} if at is not None else fields


def audit_log(db: Database, run_id: str) -> list[dict]:
    """Every audit entry of the run in Redis, oldest first (``store.runs.history.run_audit_log``: archived too)."""
    [entries] = audit_logs(db, [run_id])
    return entries


def audit_logs(db: Database, run_ids: list[str]) -> list[list[dict]]:
    """Every audit entry of each run in Redis, oldest first, in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hmget(keys.run(run_id), *_LOG_FIELDS)
        stored = [dict(zip(_LOG_FIELDS, values, strict=True)) for values in pipe.execute()]
    return [decode_log(run["log"] or "", run) for run in stored]
