"""Runs: accepting a submission exactly once, and recording its verdict.

Accepting a run and queueing its verification job is one MULTI/EXEC, one
round trip: ACCEPT_RUN (in ``keys``) stores the run unless the player
already submitted that game, RQ queues the job, and DROP_UNCLAIMED_JOB takes
the job back out when no run was created for it. So there is never a run
without a job or a job without a run, and the same player submitting the
same game again gets the run they already have.
"""

import hashlib
import json
import secrets
import time
from dataclasses import dataclass

from . import keys
from .audit import audit_fields
from .boards import DEALT
from .database import Database
from .listing import indexed_page
from .metrics import latency_bucket
from .packing import iso_time
from .places import board_keys

PENDING = "pending"
IDEMPOTENCY_TTL = 24 * 3600  # seconds an Idempotency-Key is remembered


class IdempotencyConflict(Exception):
    """An Idempotency-Key was reused with a different submission."""


def now_ms() -> int:
    return int(time.time() * 1000)


def fingerprint(seed: str, variant: str, moves: list[str]) -> str:
    """What makes two submissions the same game."""
    return hashlib.sha256(f"{variant}\n{seed}\n{' '.join(moves)}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class DealtGame:
    """What makes a run a dealt game's (FAIR-CONTRACT.md): the server dealt it card by card.

    Stored on the run as ``origin`` ``dealt``, ``game_id``, ``challenge``
    (``daily`` for the sealed daily), ``date`` (the sealed daily's UTC date)
    and ``forfeit`` (``1``: replay with the forfeit ruling). An open run
    stores none of them: a run without ``origin`` is open.
    """

    game_id: str
    challenge: str = ""
    date: str = ""
    forfeit: bool = False

    def fields(self) -> dict:
        return {"origin": DEALT, "game_id": self.game_id, "challenge": self.challenge, "date": self.date,
                "forfeit": "1" if self.forfeit else ""}


@dataclass(frozen=True)
class Submission:
    """One well-formed game to accept for a player, with what the API knows of it."""

    seed: str
    variant: str
    moves: list[str]
    daily: str = ""  # the date whose daily seed this run plays, if it does
    idempotency_key: str = ""
    dealt: DealtGame | None = None  # set for a dealt game's run; None for a submitted (open) one

    def fingerprint(self) -> str:
        """What makes two submissions the same run: the game, for a dealt one (one run per game)."""
        if self.dealt:
            return f"game-{self.dealt.game_id}"
        return fingerprint(self.seed, self.variant, self.moves)


@dataclass
class _Pending:
    """A submission on its way into the MULTI: the run it would become."""

    submission: Submission
    run_id: str
    fields: dict
    outcome: int = 0  # index of the ACCEPT_RUN reply in the MULTI's replies


def _prepare(player: str, submission: Submission, submitted: int, job_id: str, request_id: str) -> _Pending:
    run_id = secrets.token_hex(8)
    fields = {
        "id": run_id, "player": player, "seed": submission.seed, "variant": submission.variant,
        "moves": " ".join(submission.moves), "status": PENDING, "submitted_ms": submitted,
        "daily": submission.daily, "request_id": request_id, "job": job_id,
        **(submission.dealt.fields() if submission.dealt else {}),
    }
    return _Pending(submission, run_id, fields)


def _accept(db: Database, pipe, player: str, pending: _Pending) -> None:
    """Queue ACCEPT_RUN for one submission in ``pipe``'s MULTI."""
    submission, run_id = pending.submission, pending.run_id
    print_ = submission.fingerprint()
    submitted = pending.fields["submitted_ms"]
    entry = audit_fields("submitted", "player", player, submitted, None, {"status": PENDING})
    idempotency = keys.idempotency(player, submission.idempotency_key) if submission.idempotency_key else None
    _eval_in(pipe, keys.ACCEPT_RUN,
             [idempotency or keys.metrics(), keys.submission(player, print_), keys.run(run_id),
              keys.player_runs(player), keys.runs(), keys.audit(run_id), keys.pending_runs(), keys.metrics()],
             [run_id, print_, submitted, IDEMPOTENCY_TTL if idempotency else "", len(pending.fields),
              *_flatten(pending.fields), *_flatten(entry)])


def _eval_in(pipe, script: str, script_keys: list[str], args: list) -> None:
    """EVAL, not EVALSHA, inside a MULTI: a Redis restarted since the script
    was loaded would answer NOSCRIPT for part of the transaction. Redis
    still caches the compiled script."""
    pipe.eval(script, len(script_keys), *script_keys, *args)


def _flatten(mapping: dict) -> list[str]:
    return [str(item) for pair in mapping.items() for item in pair]


def _queue_job(db: Database, pipe, job_id: str, runs: list[_Pending], request_id: str) -> None:
    """Queue one verification job for ``runs`` in the MULTI, dropped again if none of them is new."""
    run_ids = [pending.run_id for pending in runs]
    job = db.enqueue_verification(run_ids, request_id, pipeline=pipe, job_id=job_id)
    _eval_in(pipe, keys.DROP_UNCLAIMED_JOB, [job.key, db.queue.key, *(keys.run(run_id) for run_id in run_ids)],
             [job_id])


def _outcomes(db: Database, replies: list, batch: list[_Pending]) -> list[tuple[dict | None, bool | None]]:
    """``(run, created)`` per submission: created runs as written, existing ones read back,
    ``(None, None)`` for an Idempotency-Key conflict."""
    results, existing_ids = [], []
    for pending in batch:
        reply = [part.decode() for part in replies[pending.outcome]]
        if reply[0] == "new":
            results.append((run_view({k: str(v) for k, v in pending.fields.items()}), True))
        elif reply[0] == "existing":
            results.append((reply[1], False))
            existing_ids.append(reply[1])
        else:
            results.append((None, None))
    if existing_ids:
        with db.redis.pipeline(transaction=False) as pipe:
            for run_id in existing_ids:
                pipe.hgetall(keys.run(run_id))
            known = {fields["id"]: run_view(fields) for fields in pipe.execute() if fields}
        results = [(known.get(run) if isinstance(run, str) else run, created) for run, created in results]
    return results


def accept_runs(db: Database, player: str, submissions: list[Submission], *, request_id: str = "",
                runs_per_job: int = 1) -> list[tuple[dict | None, bool | None]]:
    """Accept well-formed submissions in one MULTI/EXEC with their verification jobs.

    Each gets ``(run, True)`` when new, ``(existing run, False)`` when the
    player already submitted that game (or that Idempotency-Key for it), or
    ``(None, None)`` when its Idempotency-Key names another game. New runs
    share a job per ``runs_per_job`` of them, so a batch needs few jobs.
    """
    submitted = now_ms()
    batch: list[_Pending] = []
    jobs: list[tuple[str, list[_Pending]]] = []
    for first in range(0, len(submissions), runs_per_job):
        job_id = secrets.token_hex(12)
        share = [_prepare(player, submission, submitted, job_id, request_id)
                 for submission in submissions[first:first + runs_per_job]]
        jobs.append((job_id, share))
        batch += share
    with db.raw.pipeline(transaction=True) as pipe:
        pipe.multi()  # explicitly, before RQ's enqueue looks for it
        for pending in batch:
            pending.outcome = len(pipe.command_stack)
            _accept(db, pipe, player, pending)
        for job_id, share in jobs:
            _queue_job(db, pipe, job_id, share, request_id)
        replies = pipe.execute()
    return _outcomes(db, replies, batch)


def submit_run(db: Database, player: str, submission: Submission, *, request_id: str = "") -> tuple[dict, bool]:
    """Accept one submission: ``(run, True)`` when new, ``(existing run, False)`` when not.

    ``request_id`` is kept with the run and its job, so the logs follow it.
    Raises ``IdempotencyConflict`` when its Idempotency-Key names another game.
    """
    [(run, created)] = accept_runs(db, player, [submission], request_id=request_id)
    if created is None:
        raise IdempotencyConflict()
    return run, created


def _optional_int(value: str | None) -> int | None:
    return int(value) if value not in (None, "") else None


def stored_moves(fields: dict) -> list[str]:
    """A stored run's move list (kept as one space-separated string)."""
    return fields["moves"].split(" ") if fields["moves"] else []


def run_view(fields: dict) -> dict:
    """A stored run as the API shows it."""
    error = fields.get("error")
    return {
        "id": fields["id"],
        "player": fields["player"],
        "seed": fields["seed"],
        "variant": fields["variant"],
        "moves": stored_moves(fields),
        "status": fields["status"],
        "submitted_at": iso_time(fields.get("submitted_ms")),
        "verified_at": iso_time(fields.get("verified_ms")),
        "outcome": fields.get("outcome") or None,
        "score": _optional_int(fields.get("score")),
        "health": _optional_int(fields.get("health")),
        "error": json.loads(error) if error else None,
        "ruleset": fields.get("ruleset") or None,
        "engine": fields.get("engine") or None,
    }


def load_run(db: Database, run_id: str) -> dict | None:
    """The stored fields of a run, as strings, or None."""
    fields = db.redis.hgetall(keys.run(run_id))
    return fields or None


def get_run(db: Database, run_id: str) -> dict | None:
    fields = load_run(db, run_id)
    return run_view(fields) if fields else None


def player_runs(db: Database, player: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, runs)``: a page of the player's runs, newest first."""
    total, runs = indexed_page(db, keys.player_runs(player), keys.run, offset, limit, newest_first=True)
    return total, [run_view(fields) for fields in runs]


def _verdict_call(run: dict, verdict: dict, worker: str, at_ms: int) -> tuple[list[str], list]:
    """RECORD_VERDICT's keys and arguments for one run's verdict."""
    status = verdict["status"]
    fields = {
        "status": status,
        "verified_ms": at_ms,
        "outcome": verdict.get("outcome", ""),
        "score": verdict.get("score", ""),
        "health": verdict.get("health", ""),
        "error": json.dumps(verdict["error"]) if verdict.get("error") else "",
        "ruleset": verdict.get("ruleset", ""),
        "engine": verdict.get("engine", ""),
    }
    code = (verdict.get("error") or {}).get("code", "")
    latency = max(0.0, (at_ms - int(run["submitted_ms"])) / 1000)
    script_keys = [keys.run(run["id"]), keys.audit(run["id"]), keys.pending_runs(), keys.metrics(), keys.latency(),
                   *board_keys(run)]
    args = [run["id"], worker, at_ms, f"verdicts:{status}:{code}", latency_bucket(latency), latency,
            *_flatten(fields)]
    return script_keys, args


def record_verdicts(db: Database, verdicts: list[tuple[dict, dict]], worker: str = "worker") -> list[bool]:
    """Store each ``(run, verdict)``: the verdict, its audit entry, its counts and, for
    a verified run, its board places, each run in one atomic step, all in one round trip.

    ``run`` is the stored run (``load_runs``), ``verdict`` the engine's verdict
    JSON, ``worker`` the name the audit log shows. Idempotent: False, and
    nothing changed, for a run that already has a verdict.
    """
    at_ms = now_ms()
    with db.redis.pipeline(transaction=False) as pipe:
        for run, verdict in verdicts:
            _eval_in(pipe, keys.RECORD_VERDICT, *_verdict_call(run, verdict, worker, at_ms))
        return [bool(written) for written in pipe.execute()]


def load_runs(db: Database, run_ids) -> list[dict | None]:
    """The stored fields of each run (None where there is none), in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hgetall(keys.run(run_id))
        return [fields or None for fields in pipe.execute()]
