"""Runs: accepting a submission exactly once.

Accepting a submission is one script (``lua/accept_run.lua``), and a batch
its scripts sent in one round trip: the token checked, the
Idempotency-Key claimed, the run stored unless the player already
submitted that game (so the same player submitting the same game again
gets the run they already have), its player's run list, the pending runs,
and for a single submission the intake (``store.queue.intake``: a dispatcher
queues one job for many of them). A batch's runs name the jobs they share,
which are queued right after, on the queue's Redis: a job never queued
(the process killed, that Redis away) leaves its runs pending, and the
sweeper queues them again (``store.queue.pending``). So there is never a run
without a way to its verdict.
"""

import hashlib
import logging
import secrets
from dataclasses import dataclass, replace

from redis.exceptions import RedisError

from domain.errors import IdempotencyConflict, PlayerBanned
from domain.game import game_run_id
from domain.run import PENDING, Run
from domain.sanctions import Sanction
from store.base.clock import now_ms
from store.base.database import Database
from store.base.errors import TokenRevoked, first_line
from store.base.replicas import written
from store.queue.intake import intake_entry
from store.queue.queues import enqueue_verification
from store.runs import scripts
from store.runs.audit import submitted_entry
from store.runs.origins import DEALT
from store.runs.records import load_runs, run_from_stored, stored_fields

IDEMPOTENCY_TTL = 24 * 3600  # seconds an Idempotency-Key is remembered


log = logging.getLogger(__name__)


def fingerprint(seed: str, variant: str, moves: list[str]) -> str:
    """What makes two submissions the same game."""
    return hashlib.sha256(f"{variant}\n{seed}\n{' '.join(moves)}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Dealt:
    """Where a run of a dealt game comes from (``store.games.dealt``): the fields an open run lacks."""

    game_id: str
    challenge: str = ""  # "daily" for the sealed daily
    date: str = ""  # the sealed daily's UTC date
    forfeit: bool = False  # the player gave the game up (R18)
    dealt_ms: int = 0  # when the game was dealt
    move_gaps: str = ""  # each move's server time: ms since the one before (or the deal), space-separated
    season: str = ""  # the season the game ended in (``domain.seasons``)
    tournament: str = ""  # a tournament game's tournament, deal (0: a fresh deck) and scoring
    deal: int = 0
    scoring: str = ""

    @property
    def run_id(self) -> str:
        """The game's run id, the same every time: accepting it twice finds the first."""
        return game_run_id(self.game_id)

    def run(self, run: Run) -> Run:
        """``run`` as this game's run: the fields an open run lacks filled in."""
        return replace(run, origin=DEALT, game_id=self.game_id, challenge=self.challenge or None,
                       date=self.date or None, forfeit=self.forfeit, dealt_ms=self.dealt_ms, move_gaps=self.move_gaps,
                       season=self.season or None, tournament=self.tournament or None,
                       deal=self.deal if self.tournament else None, scoring=self.scoring or None)




@dataclass(frozen=True)
class Submission:
    """One well-formed game to accept for a player, with what the API knows of it."""

    seed: str
    variant: str
    moves: list[str]
    daily: str = ""  # the date whose daily seed this run plays, if it does
    idempotency_key: str = ""
    dealt: Dealt | None = None  # set for the run of a dealt game
    server_key: str = ""  # the studio's server key that sent it for its player (its audit entry names it)

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
    entry: str  # its entry in the intake ("" for a batch's run, which has a job at once)


def _prepare(player: str, submission: Submission, submitted: int, job_id: str | None, request_id: str) -> _Pending:
    """``job_id`` None: a run for the intake, whose entry names its request and carries its fields (but its
    audit log), and whose hash names neither (``store.queue.intake``); else a batch's run, whose hash names both
    (the sweeper queues it again by them if its job is never queued)."""
    dealt = submission.dealt
    run_id = dealt.run_id if dealt else open_run_id(player, submission.fingerprint())
    run = Run(run_id, player, submission.variant, submission.seed, PENDING, None, submitted,
              daily=submission.daily or None, moves=tuple(submission.moves),
              request_id="" if job_id is None else request_id, job=job_id or "")
    if dealt:
        run = dealt.run(run)
    stored = stored_fields(run)
    entry = intake_entry(run_id, request_id, stored) if job_id is None else ""  # its job carries its fields
    return _Pending(submission, run, {**stored, "log": submitted_entry(submission.server_key)}, entry)


def new_run_fields(player: str, submission: Submission, submitted_ms: int) -> tuple[str, dict]:
    """``(run id, its hash's fields)`` of ``submission`` as a new run for the intake (its entry there:
    ``store.queue.intake.intake_entry``): for a script that stores a run along with another change (a dealt
    game's end, ``store.games.dealt``)."""
    pending = _prepare(player, submission, submitted_ms, None, "")
    return pending.run.id, pending.stored


@dataclass(frozen=True)
class _Asking:
    """What a batch's scripts are told beside its runs: whose token, whether the player's ban counts, and the
    ban found ended."""

    token_hash: str
    heeding_bans: bool
    ended_ban: str = ""


def _accept(client, player: str, pending: _Pending, archived: bool | None, asking: _Asking):
    """``accept_run`` for one submission, on ``client`` or queued in a pipeline (``archived`` None: the
    filter answers)."""
    submission = pending.submission
    return scripts.accept_run(
        client, run_id=pending.run.id, player=player, fingerprint=submission.fingerprint(),
        submitted_ms=pending.run.submitted_ms, idempotency_key=submission.idempotency_key,
        idempotency_ttl=IDEMPOTENCY_TTL, archived=archived, intake_entry=pending.entry,
        token_hash=asking.token_hash, heeding_bans=asking.heeding_bans, ended_ban=asking.ended_ban,
        fields=pending.stored,
    )


def _queue_jobs(db: Database, jobs: list[tuple[str, list[str]]], request_id: str) -> None:
    """Queue each ``(job id, new run ids)`` job, after the runs naming it are stored. A job not queued
    (the queue's Redis away, the process killed) leaves its runs pending, naming a job the queue lacks:
    the sweeper (``store.queue.pending``) queues them again."""
    try:
        for job_id, run_ids in jobs:
            enqueue_verification(db, run_ids, [request_id] * len(run_ids), job_id=job_id)
    except RedisError as error:
        log.warning("batch's jobs not queued; the sweeper will queue its runs",
                    extra={"error": first_line(error), "request_id": request_id})


def _outcomes(db: Database, replies: list[list[str]], batch: list[_Pending],
              archived: dict) -> list[tuple[Run, bool]]:
    """``(run, created)`` per submission (``replies``: ``accept_run``'s, in order): created runs as
    written, existing ones read back.

    Raises ``IdempotencyConflict`` when a submission's Idempotency-Key named
    another game, ``TokenRevoked`` when the token checked named no one,
    ``PlayerBanned`` when the player's ban is in force (``accept_run`` then
    stored nothing of it).
    """
    results: list[tuple[Run | str, bool]] = []
    existing_ids = []
    for pending, reply in zip(batch, replies, strict=True):
        if reply[0] == "conflict":
            raise IdempotencyConflict()
        if reply[0] == "unauthorized":
            raise TokenRevoked()
        if reply[0] == "banned":
            raise PlayerBanned(Sanction.from_kept(reply[1]).until_ms)
        if reply[0] == "new":
            results.append((pending.run, True))
        else:
            results.append((reply[1], False))
            existing_ids.append(reply[1])
    known = {run_id: run_from_stored(run_id, run.fields) for run_id, run in archived.items()}
    if existing_ids:
        known.update({run.id: run for run in load_runs(db, existing_ids) if run})
    return [(known[run] if isinstance(run, str) else run, created) for run, created in results]


def _ended_ban(replies: list[list[str]], at_ms: int) -> str:
    """The ban ``accept_run`` answered with (as kept) if its end had come by ``at_ms``, else "" (no ban, or
    one in force: ``_outcomes`` refuses it)."""
    banned = next((reply[1] for reply in replies if reply[0] == "banned"), None)
    return banned if banned is not None and Sanction.from_kept(banned).over(at_ms) else ""


def _store(db: Database, player: str, batch: list[_Pending], archived: dict | None,
           asking: _Asking) -> list[list[str]]:
    """``accept_run`` for each of ``batch``, in one round trip (with ``SCOUNDREL_WAIT_REPLICAS``, answered
    once that many replicas hold them: ``store.base.replicas``); each submission's reply. ``archived`` None:
    the archived-runs filter answers. Each script is atomic alone; a batch's are sent together."""
    def accept(pending: _Pending):
        held = None if archived is None else pending.run.id in archived
        return lambda pipe: _accept(pipe, player, pending, held, asking)

    replies = written(db, db.redis, [accept(pending) for pending in batch])
    return [[str(part) for part in reply] for reply in replies]


def accept_runs(db: Database, player: str, submissions: list[Submission], *, request_id: str = "",
                runs_per_job: int | None = None, token_hash: str = "",
                heeding_bans: bool = True) -> list[tuple[Run, bool]]:
    """Accept well-formed submissions in one step: one script each, in one round trip.

    Each gets ``(run, True)`` when new, ``(existing run, False)`` when the
    player already submitted that game (or that Idempotency-Key for it).
    Raises ``IdempotencyConflict`` when an Idempotency-Key names another
    game (a batch's submissions carry none). New runs go onto the intake
    (``store.queue.intake``), or, given ``runs_per_job``, share a job per that
    many of them, queued once they are stored (a batch: few jobs, at once).
    A game whose run the archive holds is that run too: a batch's are looked
    up before they are stored, a single one's only where the archived-runs
    filter says the archive may hold it (``store.runs.archived_filter``; then its
    script runs again with the archive's answer). ``token_hash``, unless empty, is the request's token:
    when it no longer names ``player`` (revoked since the caller learnt
    whose it was) nothing is stored and ``TokenRevoked`` raised. A player
    whose ban is in force gets ``PlayerBanned`` and nothing stored: the
    scripts read the ban with the token, in the same ``MGET``, so a
    submission needs no look of its own at it (``heeding_bans`` False: a
    game played before the ban, whose run is its player's whatever came since).
    """
    submitted = now_ms()
    batch: list[_Pending] = []
    if runs_per_job is None:
        batch = [_prepare(player, submission, submitted, None, request_id) for submission in submissions]
    else:
        for first in range(0, len(submissions), runs_per_job):
            job_id = secrets.token_hex(12)
            batch += [_prepare(player, submission, submitted, job_id, request_id)
                      for submission in submissions[first:first + runs_per_job]]
    to_intake = runs_per_job is None
    asking = _Asking(token_hash, heeding_bans)
    # A batch asks the archive once for all its runs; the intake's runs ask the filter in their script,
    # and the archive only where it says "may be" (``store.runs.archived_filter``).
    archived = None if to_intake else db.archive.load([pending.run.id for pending in batch])
    replies = _store(db, player, batch, archived, asking)
    if ended := _ended_ban(replies, submitted):  # a timed ban past its end, not yet lifted: no refusal
        asking = replace(asking, ended_ban=ended)
        replies = _store(db, player, batch, archived, asking)
    unsure = [position for position, reply in enumerate(replies) if reply == ["ask_archive"]]
    if unsure:
        found = db.archive.load([batch[position].run.id for position in unsure])
        archived = {**(archived or {}), **found}
        again = _store(db, player, [batch[position] for position in unsure], found, asking)
        for position, reply in zip(unsure, again, strict=True):
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

    ``request_id`` goes with the run's entry in the intake and on to its job, so the logs follow it; its
    job is the intake's to queue (``store.queue.intake``). Raises ``IdempotencyConflict``
    when its Idempotency-Key names another game, ``TokenRevoked`` as
    ``accept_runs``.
    """
    [(run, created)] = accept_runs(db, player, [submission], request_id=request_id, token_hash=token_hash)
    return run, created
