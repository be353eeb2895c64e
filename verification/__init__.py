"""Judging stored runs with the current engine: the verification job's replay and re-verification.

Domain code that the worker (``worker.jobs``), the API (``POST
/v1/runs/<id>/reverify``) and ``scoundrel reverify`` all use, so none of
them imports another's package. The verdict, the player's board places and
the audit entry change together (``store.moderation.restoring``).
"""

import scoundrel
from domain.errors import RunPending
from domain.run import PENDING, Run
from store import Database
from store.moderation import record_reverification
from store.runs import hot_run, load_run, stored_fields, verdict_differs, verdict_summary


def judge(run: Run) -> dict:
    """The current engine's verdict JSON for a stored run: R18 for a dealt game its player forfeited."""
    return scoundrel.replay(run.seed or "", list(run.moves or ()), run.variant, forfeit=run.forfeit).to_dict()


def reverify_run(db: Database, run_id: str, actor_kind: str, actor: str, *, log_unchanged: bool = True) -> dict:
    """``{"run_id", "changed", "before", "after"}`` for run ``run_id``.

    An archived run comes back to Redis first. Raises ``NoSuchRun``, or
    ``RunPending`` for a run its worker has not judged yet. Without ``log_unchanged`` an unchanged verdict is neither
    written nor logged.
    """
    run = hot_run(db, run_id)
    if run.status == PENDING:
        raise RunPending()
    verdict = judge(run)
    before = stored_fields(run)
    if log_unchanged or verdict_differs(before, verdict):
        changed = record_reverification(db, run, verdict, actor_kind, actor, log_unchanged=log_unchanged)
    else:
        changed = False
    return {"run_id": run_id, "changed": changed, "before": verdict_summary(before),
            "after": verdict_summary(stored_fields(load_run(db, run_id) or run))}
