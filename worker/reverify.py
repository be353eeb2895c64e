"""Re-verification: replay a stored run with the current engine and record the result.

Used by the moderators' ``POST /v1/runs/<id>/reverify`` (one run, at once)
and by ``scoundrel reverify`` (many runs). The verdict, the player's board
places and the audit entry change together (``store.moderation``).
"""

from store import Database, load_run
from store.moderation import RunPending, record_reverification, verdict_differs
from store.runs import stored_verdict

__all__ = ["RunPending", "reverify_run", "verdict_summary"]


def verdict_summary(fields: dict) -> dict:
    """The parts of a stored run's verdict a re-verification compares (a void run shows its verdict)."""
    from store.runs import run_view

    view = run_view(fields)
    return {
        "status": fields.get("voided_status") or view["status"],
        "outcome": view["outcome"],
        "score": view["score"],
        "health": view["health"],
        "error": (view["error"] or {}).get("code"),
    }


def reverify_run(db: Database, run_id: str, actor_kind: str, actor: str, *, log_unchanged: bool = True) -> dict | None:
    """``{"run_id", "changed", "before", "after"}`` for run ``run_id``, or None if there is none.

    Raises ``RunPending`` for a run its worker has not judged yet. Without
    ``log_unchanged`` an unchanged verdict is neither written nor logged.
    """
    run = load_run(db, run_id)
    if run is None:
        return None
    if run["status"] == "pending":
        raise RunPending(run_id)
    verdict = stored_verdict(run).to_dict()
    before = verdict_summary(run)
    if log_unchanged or verdict_differs(run, verdict):
        changed = record_reverification(db, run, verdict, actor_kind, actor, log_unchanged=log_unchanged)
    else:
        changed = False
    return {"run_id": run_id, "changed": changed, "before": before, "after": verdict_summary(load_run(db, run_id))}
