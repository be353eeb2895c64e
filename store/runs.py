"""Runs: accepting a submission exactly once, and recording its verdict.

Accepting a run and queueing its verification job is one MULTI/EXEC, so
there is never a run without a job or a job without a run. The same player
submitting the same game again gets the run they already have.
"""

import hashlib
import json
import secrets
import time

from redis.exceptions import WatchError

from . import keys
from .audit import audit_fields
from .database import Database
from .packing import iso_time, pack

PENDING = "pending"
IDEMPOTENCY_TTL = 24 * 3600  # seconds an Idempotency-Key is remembered


class IdempotencyConflict(Exception):
    """An Idempotency-Key was reused with a different submission."""


def now_ms() -> int:
    return int(time.time() * 1000)


def fingerprint(seed: str, variant: str, moves: list[str]) -> str:
    """What makes two submissions the same game."""
    return hashlib.sha256(f"{variant}\n{seed}\n{' '.join(moves)}".encode()).hexdigest()[:32]


def submit_run(
    db: Database,
    player: str,
    submission: dict,
    *,
    idempotency_key: str | None = None,
    daily: str | None = None,
    request_id: str = "",
) -> tuple[dict, bool]:
    """Accept a well-formed submission: ``(run, True)`` when new, ``(existing run, False)`` when not.

    ``daily`` is the date whose daily seed this run plays, if it does;
    ``request_id`` is kept with the run and its job, so the logs follow it.
    Raises ``IdempotencyConflict`` when ``idempotency_key`` already names another submission.
    """
    seed, variant, moves = submission["seed"], submission["variant"], submission["moves"]
    print_ = fingerprint(seed, variant, moves)
    submission_key = keys.submission(player, print_)
    idempotency_key = keys.idempotency(player, idempotency_key) if idempotency_key else None
    watched = [submission_key] + ([idempotency_key] if idempotency_key else [])
    with db.raw.pipeline() as pipe:
        while True:
            try:
                pipe.watch(*watched)
                existing = _existing_run_id(pipe, submission_key, idempotency_key, print_)
                if existing is not None:
                    pipe.reset()
                    db.redis.hincrby(keys.metrics(), "submissions:duplicate", 1)
                    return get_run(db, existing), False
                run_id = secrets.token_hex(8)
                submitted = now_ms()
                pipe.multi()
                pipe.set(submission_key, run_id)
                if idempotency_key:
                    pipe.set(idempotency_key, f"{run_id} {print_}", ex=IDEMPOTENCY_TTL)
                pipe.hset(keys.run(run_id), mapping={
                    "id": run_id, "player": player, "seed": seed, "variant": variant,
                    "moves": " ".join(moves), "status": PENDING, "submitted_ms": submitted, "daily": daily or "",
                    "request_id": request_id,
                })
                pipe.zadd(keys.player_runs(player), {run_id: submitted})
                pipe.zadd(keys.runs(), {run_id: submitted})
                pipe.xadd(keys.audit(run_id), audit_fields("submitted", "player", player, submitted,
                                                           None, {"status": PENDING}))
                pipe.zadd(keys.pending_runs(), {run_id: submitted})
                pipe.hincrby(keys.metrics(), "submissions:accepted", 1)
                job = db.enqueue_verification(run_id, request_id, pipeline=pipe)
                pipe.hset(keys.run(run_id), "job", job.id)
                pipe.execute()
                return get_run(db, run_id), True
            except WatchError:
                continue  # a concurrent identical submission won; the next pass finds its run


def _existing_run_id(pipe, submission_key: str, idempotency_key: str | None, print_: str) -> str | None:
    if idempotency_key:
        held = pipe.get(idempotency_key)
        if held is not None:
            run_id, held_print = held.decode().split(" ")
            if held_print != print_:
                raise IdempotencyConflict()
            return run_id
    existing = pipe.get(submission_key)
    return existing.decode() if existing is not None else None


def _optional_int(value: str | None) -> int | None:
    return int(value) if value not in (None, "") else None


def run_view(fields: dict) -> dict:
    """A stored run as the API shows it."""
    error = fields.get("error")
    return {
        "id": fields["id"],
        "player": fields["player"],
        "seed": fields["seed"],
        "variant": fields["variant"],
        "moves": fields["moves"].split(" ") if fields["moves"] else [],
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
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.player_runs(player))
        pipe.zrevrange(keys.player_runs(player), offset, offset + limit - 1)
        total, run_ids = pipe.execute()
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hgetall(keys.run(run_id))
        runs = [run_view(fields) for fields in pipe.execute() if fields]
    return total, runs


def record_verdict(db: Database, run: dict, verdict: dict, worker: str = "worker") -> bool:
    """Store a verdict, its audit entry and, for a verified run, its board places, in one atomic step.

    ``run`` is the stored run (``load_run``), ``verdict`` the engine's verdict
    JSON, ``worker`` the name the audit log shows. Idempotent: False, and
    nothing changed, if the run already has one.
    """
    status = verdict["status"]
    verified = now_ms()
    fields = {
        "status": status,
        "verified_ms": verified,
        "outcome": verdict.get("outcome", ""),
        "score": verdict.get("score", ""),
        "health": verdict.get("health", ""),
        "error": json.dumps(verdict["error"]) if verdict.get("error") else "",
        "ruleset": verdict.get("ruleset", ""),
        "engine": verdict.get("engine", ""),
    }
    packed = pack(verdict["score"], int(run["submitted_ms"])) if status == "verified" else ""
    daily = run.get("daily") or ""
    pairs = [str(item) for pair in fields.items() for item in pair]
    written = db.record_verdict_script(
        keys=[
            keys.run(run["id"]),
            keys.board(run["variant"]),
            keys.board_runs(run["variant"]),
            keys.daily_board(daily or "none"),
            keys.daily_runs(daily or "none"),
            keys.audit(run["id"]),
        ],
        args=[run["id"], str(packed), "1" if daily else "", run["player"], worker, verified, *pairs],
    )
    return bool(written)
