"""Runs: accepting a submission exactly once, and recording its verdict.

Accepting a submission is one script (``lua/accept_run.lua``), and a batch
one MULTI/EXEC of them, one round trip: the token checked, the
Idempotency-Key claimed, the run stored unless the player already
submitted that game (so the same player submitting the same game again
gets the run they already have), its player's run list, the pending runs,
and for a single submission the intake (``store.intake``: a dispatcher
queues one job for many of them). A batch's runs name the jobs they share,
which are queued right after, on the queue's Redis: a job never queued
(the process killed, that Redis away) leaves its runs pending, and the
sweeper queues them again (``store.pending``). So there is never a run
without a way to its verdict.
"""

import functools
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass, replace

from redis.exceptions import RedisError

from domain.errors import IdempotencyConflict
from domain.game import game_run_id
from domain.run import PENDING, Run

from . import keys, scripts
from .audit import SUBMITTED, encode_log
from .database import Database
from .errors import TokenRevoked, first_line
from .intake import IN_INTAKE
from .metrics import latency_bucket
from .origins import DEALT
from .replicas import written
from .run_records import run_from_stored, stored_fields
from .verdicts import verdict_fields

IDEMPOTENCY_TTL = 24 * 3600  # seconds an Idempotency-Key is remembered

log = logging.getLogger(__name__)


def now_ms() -> int:
    return int(time.time() * 1000)


def fingerprint(seed: str, variant: str, moves: list[str]) -> str:
    """What makes two submissions the same game."""
    return hashlib.sha256(f"{variant}\n{seed}\n{' '.join(moves)}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Dealt:
    """Where a run of a dealt game comes from (``store.games``): the fields an open run lacks."""

    game_id: str
    challenge: str = ""  # "daily" for the sealed daily
    date: str = ""  # the sealed daily's UTC date
    forfeit: bool = False  # the player gave the game up (R18)
    dealt_ms: int = 0  # when the game was dealt
    move_gaps: str = ""  # each move's server time: ms since the one before (or the deal), space-separated
    season: str = ""  # the season the game ended in (``domain.seasons``)

    @property
    def run_id(self) -> str:
        """The game's run id, the same every time: accepting it twice finds the first."""
        return game_run_id(self.game_id)

    def run(self, run: Run) -> Run:
        """``run`` as this game's run: the fields an open run lacks filled in."""
        return replace(run, origin=DEALT, game_id=self.game_id, challenge=self.challenge or None,
                       date=self.date or None, forfeit=self.forfeit, dealt_ms=self.dealt_ms, move_gaps=self.move_gaps,
                       season=self.season or None)


def move_times(dealt_ms: int, gaps: str) -> list[int]:
    """Each move's server time (ms since 1970) from the deal's time and the gaps between moves."""
    times, at = [], dealt_ms
    for gap in gaps.split(" ") if gaps else []:
        at += int(gap)
        times.append(at)
    return times


@dataclass(frozen=True)
class Submission:
    """One well-formed game to accept for a player, with what the API knows of it."""

    seed: str
    variant: str
    moves: list[str]
    daily: str = ""  # the date whose daily seed this run plays, if it does
    idempotency_key: str = ""
    dealt: Dealt | None = None  # set for the run of a dealt game

    def fingerprint(self) -> str:
        """What makes two submissions the same game: a dealt game is its own id."""
        if self.dealt is not None:
            return hashlib.sha256(f"dealt\n{self.dealt.game_id}".encode()).hexdigest()[:32]
        return fingerprint(self.seed, self.variant, self.moves)


def open_run_id(player: str, fingerprint: str) -> str:
    """An open run's id, derived from its player and game: the same game sent again is the same
    run, so no index of what a player submitted is needed. A run whose id was given at random keeps
    it, and the key naming it under its game (``submission_key``)."""
    return hashlib.sha256(f"run\n{player}\n{fingerprint}".encode()).hexdigest()[:16]


@dataclass
class _Pending:
    """A submission on its way into Redis: the run it would become, and its hash."""

    submission: Submission
    run: Run
    stored: dict[str, str]


def _prepare(player: str, submission: Submission, submitted: int, job_id: str, request_id: str) -> _Pending:
    dealt = submission.dealt
    run_id = dealt.run_id if dealt else open_run_id(player, submission.fingerprint())
    run = Run(run_id, player, submission.variant, submission.seed, PENDING, None, submitted,
              daily=submission.daily or None, moves=tuple(submission.moves), request_id=request_id, job=job_id)
    if dealt:
        run = dealt.run(run)
    stored = stored_fields(run)
    return _Pending(submission, run, {**stored, "log": SUBMITTED})


def _accept(client, player: str, pending: _Pending, archived: bool | None, to_intake: bool, token_hash: str):
    """``accept_run`` for one submission, on ``client`` or queued in a MULTI (``archived`` None: the filter answers)."""
    submission = pending.submission
    return scripts.accept_run(
        client, run_id=pending.run.id, player=player, fingerprint=submission.fingerprint(),
        submitted_ms=pending.run.submitted_ms, idempotency_key=submission.idempotency_key,
        idempotency_ttl=IDEMPOTENCY_TTL, archived=archived, to_intake=to_intake, token_hash=token_hash,
        fields=pending.stored,
    )


def _queue_jobs(db: Database, jobs: list[tuple[str, list[str]]], request_id: str) -> None:
    """Queue each ``(job id, new run ids)`` job, after the runs naming it are stored. A job not queued
    (the queue's Redis away, the process killed) leaves its runs pending, naming a job the queue lacks:
    the sweeper (``store.pending``) queues them again."""
    try:
        for job_id, run_ids in jobs:
            db.enqueue_verification(run_ids, request_id, job_id=job_id)
    except RedisError as error:
        log.warning("batch's jobs not queued; the sweeper will queue its runs",
                    extra={"error": first_line(error), "request_id": request_id})


def _outcomes(db: Database, replies: list[list[str]], batch: list[_Pending],
              archived: dict) -> list[tuple[Run, bool]]:
    """``(run, created)`` per submission (``replies``: ``accept_run``'s, in order): created runs as
    written, existing ones read back.

    Raises ``IdempotencyConflict`` when a submission's Idempotency-Key named
    another game, ``TokenRevoked`` when the token checked named no one
    (``accept_run`` then stored nothing of it).
    """
    results: list[tuple[Run | str, bool]] = []
    existing_ids = []
    for pending, reply in zip(batch, replies, strict=True):
        if reply[0] == "conflict":
            raise IdempotencyConflict()
        if reply[0] == "unauthorized":
            raise TokenRevoked()
        if reply[0] == "new":
            results.append((pending.run, True))
        else:
            results.append((reply[1], False))
            existing_ids.append(reply[1])
    known = {run_id: run_from_stored(run_id, run.fields) for run_id, run in archived.items()}
    if existing_ids:
        known.update({run.id: run for run in load_runs(db, existing_ids) if run})
    return [(known[run] if isinstance(run, str) else run, created) for run, created in results]


def _store(db: Database, player: str, batch: list[_Pending], to_intake: bool, archived: dict | None,
           token_hash: str) -> list[list[str]]:
    """``accept_run`` for each of ``batch``, in one round trip (with ``SCOUNDREL_WAIT_REPLICAS``, answered
    once that many replicas hold them: ``store.replicas``); each submission's reply. ``archived`` None:
    the archived-runs filter answers. Each script is atomic alone; a batch's are sent together."""
    def accept(pending: _Pending):
        held = None if archived is None else pending.run.id in archived
        return lambda pipe: _accept(pipe, player, pending, held, to_intake, token_hash)

    replies = written(db, db.redis, [accept(pending) for pending in batch])
    return [[str(part) for part in reply] for reply in replies]


def accept_runs(db: Database, player: str, submissions: list[Submission], *, request_id: str = "",
                runs_per_job: int | None = None, token_hash: str = "") -> list[tuple[Run, bool]]:
    """Accept well-formed submissions in one step: one script each, in one round trip.

    Each gets ``(run, True)`` when new, ``(existing run, False)`` when the
    player already submitted that game (or that Idempotency-Key for it).
    Raises ``IdempotencyConflict`` when an Idempotency-Key names another
    game (a batch's submissions carry none). New runs go onto the intake
    (``store.intake``), or, given ``runs_per_job``, share a job per that
    many of them, queued once they are stored (a batch: few jobs, at once).
    A game whose run the archive holds is that run too: a batch's are looked
    up before they are stored, a single one's only where the archived-runs
    filter says the archive may hold it (``store.archived_filter``; then its
    script runs again with the archive's answer). ``token_hash``, unless empty, is the request's token:
    when it no longer names ``player`` (revoked since the caller learnt
    whose it was) nothing is stored and ``TokenRevoked`` raised.
    """
    submitted = now_ms()
    batch: list[_Pending] = []
    if runs_per_job is None:
        batch = [_prepare(player, submission, submitted, IN_INTAKE, request_id) for submission in submissions]
    else:
        for first in range(0, len(submissions), runs_per_job):
            job_id = secrets.token_hex(12)
            batch += [_prepare(player, submission, submitted, job_id, request_id)
                      for submission in submissions[first:first + runs_per_job]]
    to_intake = runs_per_job is None
    # A batch asks the archive once for all its runs; the intake's runs ask the filter in their script,
    # and the archive only where it says "may be" (``store.archived_filter``).
    archived = None if to_intake else db.archive.load([pending.run.id for pending in batch])
    replies = _store(db, player, batch, to_intake, archived, token_hash)
    asking = [position for position, reply in enumerate(replies) if reply == ["ask_archive"]]
    if asking:
        found = db.archive.load([batch[position].run.id for position in asking])
        archived = {**(archived or {}), **found}
        again = _store(db, player, [batch[position] for position in asking], to_intake, found, token_hash)
        for position, reply in zip(asking, again, strict=True):
            replies[position] = reply
    outcomes = _outcomes(db, replies, batch, archived or {})
    if not to_intake:
        shares: dict[str, list[str]] = {}
        for pending, reply in zip(batch, replies, strict=True):
            if reply[0] == "new":
                shares.setdefault(pending.run.job or "", []).append(pending.run.id)
        _queue_jobs(db, list(shares.items()), request_id)
    return outcomes


def submit_run(db: Database, player: str, submission: Submission, *, request_id: str = "",
               token_hash: str = "") -> tuple[Run, bool]:
    """Accept one submission: ``(run, True)`` when new, ``(existing run, False)`` when not.

    ``request_id`` is kept with the run, so the logs follow it; its job is
    the intake's to queue (``store.intake``). Raises ``IdempotencyConflict``
    when its Idempotency-Key names another game, ``TokenRevoked`` as
    ``accept_runs``.
    """
    [(run, created)] = accept_runs(db, player, [submission], request_id=request_id, token_hash=token_hash)
    return run, created


def dealt_move_times(db: Database, run_id: str) -> list[int] | None:
    """Each move's server time (ms) of a dealt game's run, None for an open run."""
    dealt_ms, gaps = db.redis.hmget(keys.run(run_id), "dealt_ms", "move_gaps")
    return move_times(int(dealt_ms), gaps or "") if dealt_ms else None


def load_run(db: Database, run_id: str) -> Run | None:
    """A run in Redis, or None (``store.history``: archived runs too)."""
    fields = db.redis.hgetall(keys.run(run_id))
    return run_from_stored(run_id, fields) if fields else None


def _record_verdict(pipe, *, run: Run, verdict: dict, worker: str, at_ms: int) -> None:
    """Queue ``record_verdict`` for one run's verdict in ``pipe``."""
    status = verdict["status"]
    code = (verdict.get("error") or {}).get("code", "")
    latency = max(0.0, (at_ms - run.submitted_ms) / 1000)
    scripts.record_verdict(
        pipe, run=run, worker=worker, at_ms=at_ms, metric=f"verdicts:{status}:{code}",
        latency_bucket=latency_bucket(latency), latency=latency,
        fields=verdict_fields(verdict),  # its time is the audit entry's (``store.audit.verdict_ms``)
    )


def record_verdicts(db: Database, verdicts: list[tuple[Run, dict]], worker: str = "worker") -> list[bool]:
    """Store each ``(run, verdict)``: the verdict, its audit entry, its counts and, for
    a verified run, its board places, each run in one atomic step, all in one round trip.

    ``run`` is the pending run (``load_runs``), ``verdict`` the engine's verdict
    JSON, ``worker`` the name the audit log shows. Idempotent: False, and
    nothing changed, for a run that already has a verdict.
    """
    at_ms = now_ms()
    replies = written(db, db.redis, [functools.partial(_record_verdict, run=run, verdict=verdict, worker=worker,
                                                       at_ms=at_ms) for run, verdict in verdicts])
    return [bool(reply) for reply in replies]


def stored_hashes(db: Database, run_ids) -> list[dict[str, str] | None]:
    """Each run's hash as read, with its ``id`` (its key says it), or None where there is none, in one
    round trip: the stored form, for what keeps or compares it whole (the archive, ``remove_runs``)."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hgetall(keys.run(run_id))
        return [{"id": run_id, **fields} if fields else None
                for run_id, fields in zip(run_ids, pipe.execute(), strict=True)]


def load_runs(db: Database, run_ids) -> list[Run | None]:
    """Each run in Redis (None where there is none), in one round trip."""
    return [run_from_stored(fields["id"], fields) if fields else None for fields in stored_hashes(db, run_ids)]


def submission_key(run: Run) -> str | None:
    """The key naming an open run under its player's game (``keys.submission``), for a run whose id
    was given at random; None for a run whose id its player and game give (``open_run_id``) or a
    dealt game's: taken, their id is the duplicate check."""
    if run.dealt:
        return None
    fingerprint_ = fingerprint(run.seed or "", run.variant, list(run.moves or ()))
    if run.id == open_run_id(run.player, fingerprint_):
        return None
    return keys.submission(run.player, fingerprint_)


def remove_runs(db: Database, runs: list[dict[str, str]]) -> list[str]:
    """Remove archived runs from Redis with every key each owns, in one round trip.

    ``runs`` holds each run's hash as read (``stored_hashes``), its audit log
    among them. The one place that knows every key a run owns (its hash, its
    place in the indexes, a kept id's ``submission_key``); ``reinstate_run``
    is the way back. Each run is noted in the archived-runs filter first
    (``store.archived_filter``), so a submission of its game finds it. Per
    run 'ok', 'gone' (removed before), or 'changed' (changed since it was
    read: left as it is). Its board places stay, naming it by id.
    """
    with db.redis.pipeline(transaction=False) as pipe:
        scripts.note_archived(pipe, run_ids=[fields["id"] for fields in runs])  # before they leave Redis
        for fields in runs:
            run = run_from_stored(fields["id"], fields)
            scripts.forget_run(pipe, run=fields, submission_key=submission_key(run))
        return pipe.execute()[1:]


def reinstate_run(db: Database, run: Run, audit_entries: list[dict]) -> bool:
    """Put an archived run back into Redis: its fields (``reinstated_ms`` now), its audit
    entries (as ``store.audit.audit_log`` shows them) as its hash's log, and its indexes.

    False, writing nothing, when Redis holds the run already.
    """
    fields = stored_fields(replace(run, reinstated_ms=now_ms()))
    stored = {**fields, "log": encode_log(audit_entries, fields)}
    return scripts.reinstate_run(db.redis, run_id=run.id, player=run.player, submitted_ms=run.submitted_ms,
                                 fields=stored, submission_key=submission_key(run))
