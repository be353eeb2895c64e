"""Moderators' changes to a run: restoring a voided run, recording a re-verification.

Each is one Lua script that changes the run, its audit entry and the
player's board places together (see ``places``).
"""

import json

from . import keys
from .database import Database
from .places import board_keys, call_with_player_runs
from .runs import now_ms


class NotVoid(Exception):
    """Only a void run can be restored."""


class RunPending(Exception):
    """The run has no verdict yet: the worker judges it first."""


def _run_keys(run: dict) -> list[str]:
    return [keys.run(run["id"]), keys.audit(run["id"]), *board_keys(run)]


def restore_run(db: Database, run: dict, moderator: str) -> None:
    """Undo a void: the run is back to its verdict, the player's places recomputed. Raises ``NotVoid``."""
    answer = call_with_player_runs(db, db.restore_run_script, _run_keys(run), [moderator, now_ms()], run["player"])
    if answer == "not_void":
        raise NotVoid(run["id"])


def verdict_differs(run: dict, verdict: dict) -> bool:
    """Whether ``verdict`` (engine JSON) differs from the run's stored one in status, outcome, score, health or error."""
    stored_error = json.loads(run["error"]).get("code") if run.get("error") else None
    new_error = (verdict.get("error") or {}).get("code")
    status = run.get("voided_status") or run["status"]
    return (
        status != verdict["status"]
        or (run.get("outcome") or None) != verdict.get("outcome")
        or (run.get("score") or None) != _text(verdict.get("score"))
        or (run.get("health") or None) != _text(verdict.get("health"))
        or stored_error != new_error
    )


def _text(value) -> str | None:
    return None if value is None else str(value)


def record_reverification(db: Database, run: dict, verdict: dict, actor_kind: str, actor: str,
                          *, log_unchanged: bool = True) -> bool:
    """Write the current engine's ``verdict`` over the stored one; True if it changed.

    The audit log gets a ``reverified`` entry (for an unchanged verdict only
    with ``log_unchanged``). Raises ``RunPending`` for a run still waiting for its worker.
    """
    at = now_ms()
    fields = {
        "status": verdict["status"],
        "outcome": verdict.get("outcome") or "",
        "score": _text(verdict.get("score")) or "",
        "health": _text(verdict.get("health")) or "",
        "error": json.dumps(verdict["error"]) if verdict.get("error") else "",
        "ruleset": verdict.get("ruleset", ""),
        "engine": verdict.get("engine", ""),
        "reverified_ms": at,
    }
    pairs = [str(item) for pair in fields.items() for item in pair]
    answer = call_with_player_runs(
        db, db.reverify_run_script, _run_keys(run),
        [actor_kind, actor, at, "1" if log_unchanged else "", *pairs], run["player"],
    )
    if answer == "pending":
        raise RunPending(run["id"])
    return answer == "changed"


def run_ids(db: Database, since_ms: int | None = None) -> list[str]:
    """Every run id, oldest first (submitted at or after ``since_ms``, if given)."""
    return db.redis.zrangebyscore(keys.runs(), since_ms if since_ms is not None else "-inf", "+inf")
