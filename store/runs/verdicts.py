"""A verdict as the run hash keeps it, and the parts of it that matter.

The engine's verdict JSON (``Verdict.to_dict()``) becomes run-hash fields
in one place, ``verdict_fields``, whether the worker records it or a
moderator's re-verification writes it over an older one. ``verdict_summary``
is the Python list of the fields a changed verdict differs in; Lua's is
``snapshot`` in ``lua/_audit.lua``, and a test holds the two to the same fields.
"""

import functools
import json
from dataclasses import replace

from domain.run import Run
from domain.transparency import VERDICT, Leaf
from store.base.clock import now_ms
from store.base.database import Database
from store.base.metrics import latency_bucket
from store.base.replicas import written
from store.log import leaf_of, pseudonyms
from store.runs import scripts


def _text(value: object) -> str:
    return "" if value is None else str(value)


def verdict_fields(verdict: dict) -> dict[str, str]:
    """The run-hash fields (strings; empty for none) that store an engine verdict."""
    return {
        "status": verdict["status"],
        "outcome": _text(verdict.get("outcome")),
        "score": _text(verdict.get("score")),
        "health": _text(verdict.get("health")),
        "error": json.dumps(verdict["error"]) if verdict.get("error") else "",
        "ruleset": verdict.get("ruleset", ""),
        "engine": verdict.get("engine", ""),
    }


def stored_int(value: str | None) -> int | None:
    return int(value) if value not in (None, "") else None


def verdict_summary(fields: dict) -> dict:
    """What a stored verdict says: status (a void run's verdict under it), outcome,
    score, health and error code; two verdicts that agree here are the same."""
    error = fields.get("error")
    return {
        "status": fields.get("voided_status") or fields["status"],
        "outcome": fields.get("outcome") or None,
        "score": stored_int(fields.get("score")),
        "health": stored_int(fields.get("health")),
        "error": json.loads(error).get("code") if error else None,
    }


def verdict_differs(stored: dict, verdict: dict) -> bool:
    """Whether the engine's ``verdict`` differs from the run's stored one in what matters."""
    return verdict_summary(stored) != verdict_summary(verdict_fields(verdict))


def _verdict(run: Run, verdict: dict, at_ms: int) -> scripts.Verdict:
    """``verdict`` as ``record_verdicts`` writes it for ``run``: its fields and its counts."""
    status = verdict["status"]
    code = (verdict.get("error") or {}).get("code", "")
    latency = max(0.0, (at_ms - run.submitted_ms) / 1000)
    return scripts.Verdict(run, verdict_fields(verdict),  # its time is the audit entry's (``audit.verdict_ms``)
                           f"verdicts:{status}:{code}", latency_bucket(latency), latency)


def verdict_leaf(run: Run, verdict: dict, at_ms: int, pseudonym: str) -> Leaf:
    """The public log's leaf of ``verdict`` given to pending ``run`` (``store.log``)."""
    return leaf_of(replace(run, status=verdict["status"], score=verdict.get("score"), ruleset=verdict.get("ruleset"),
                           engine=verdict.get("engine")), VERDICT, at_ms, pseudonym)


def record_verdicts(db: Database, verdicts: list[tuple[Run, dict]], worker: str = "worker") -> list[bool]:
    """Store each ``(run, verdict)``: the verdict, its audit entry, its counts and, for a verified run,
    its board places, and its leaf in the public log, all in one script (``lua/record_verdicts.lua``),
    one round trip.

    ``run`` is the pending run (``load_runs``), ``verdict`` the engine's verdict
    JSON, ``worker`` the name the audit log shows. Idempotent: False, and
    nothing changed, for a run that already has a verdict (or is gone, or renamed since ``run`` was read).
    """
    if not verdicts:
        return []
    at_ms = now_ms()
    batch = [_verdict(run, verdict, at_ms) for run, verdict in verdicts]
    named = pseudonyms(db, [run.player for run, _ in verdicts])
    leaves = [verdict_leaf(run, verdict, at_ms, named[run.player]).text_around_index() for run, verdict in verdicts]
    [replies] = written(db, db.redis, [functools.partial(scripts.record_verdicts, verdicts=batch, worker=worker,
                                                         at_ms=at_ms, leaves=leaves)])
    return [bool(reply) for reply in replies]
