"""Runs: accepting a submission exactly once, and recording its verdict.

Accepting a submission spans shards (``store.shards``): the player's keys
are in the player's shard, the run's in the run's. So it is three steps,
each one script or one command per shard, each idempotent, in this order:

1. the player's shard (``claim_submission``): the token must still be the
   player's (their hash keeps its hash) and an Idempotency-Key must name
   this game, else nothing is stored at all; a key not yet held is claimed
   for the run, and the run the submission is (its id derived from the
   player and the game, or the one its Idempotency-Key or submission key
   names) is decided;
2. the run's shard (``accept_run``): the run is created unless Redis or the
   archive holds it (so the same player submitting the same game again gets
   the run they already have), and a new run enters its shard's pending
   runs and, a single submission, its intake (``store.intake``), in the same
   script: a run is never stored without its way to a verdict;
3. the player's shard (``index_runs``): the run in the player's runs; in
   the same round trip, when the run was the first in its shard's intake,
   a ring of the dispatchers' doorbell (``store.intake``: a ring lost with
   a killed process only delays the run until a dispatcher looks anyway).

Then a batch's jobs are queued on the queue's Redis (never in a
transaction with the data: another server), one per share of new runs.

A process killed after step 1 has stored no run and acknowledged nothing;
the same submission retried finds its claimed key and goes on. Killed
after step 2, the run is pending and will be verified (the intake's
dispatcher, or the sweeper ``store.pending`` for a batch's job never
queued); it is indexed by a retry of the submission or by its verification
job, which runs step 3 again for its runs. A job lost whole (the queue's
Redis away or emptied) leaves its runs in the pending index: the sweeper
queues them again.
"""

import hashlib
import logging
import secrets
import time
from dataclasses import dataclass, replace

from redis.exceptions import RedisError

from domain.errors import IdempotencyConflict
from domain.game import game_run_id
from domain.run import PENDING, Run

from . import keys, scripts, shards
from .archived_filter import note_archived
from .audit import SUBMITTED, encode_log
from .database import Database
from .errors import TokenRevoked, first_line
from .intake import IN_INTAKE
from .metrics import latency_bucket
from .origins import DEALT
from .replication import replicated
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
    """A submission on its way through the steps: the run it would become, and its hash."""

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


def _each(db: Database, calls: list) -> list:
    """Each of ``calls`` (a function of a client) answered: one alone on the client (a script by its
    SHA), several in one pipeline, not a transaction (each is atomic alone; on a cluster redis-py
    sends each node its share)."""
    if len(calls) == 1:
        return [calls[0](db.raw)]
    with db.raw.pipeline(transaction=False) as pipe:
        for call in calls:
            call(pipe)
        return pipe.execute()


def _decoded(reply: list) -> list[str]:
    return [part.decode() if isinstance(part, bytes) else str(part) for part in reply]


def _claim(db: Database, player: str, batch: list[_Pending], token_hash: str) -> list[_Pending]:
    """Step 1, in the player's shard: the token and each Idempotency-Key checked, keys claimed; each
    submission as the run it is (the one its Idempotency-Key or submission key names, if another)."""
    def claim(pending: _Pending):
        submission = pending.submission
        if not token_hash and not submission.idempotency_key:  # nothing to check or claim: the script's one read
            return lambda client: client.get(keys.submission(player, submission.fingerprint()))
        return lambda client: scripts.claim_submission(
            client, player=player, fingerprint=submission.fingerprint(), run_id=pending.run.id,
            idempotency_key=submission.idempotency_key, idempotency_ttl=IDEMPOTENCY_TTL, token_hash=token_hash)

    claimed = []
    for pending, reply in zip(batch, _each(db, [claim(pending) for pending in batch]), strict=True):
        kept = reply.decode() if isinstance(reply, bytes) else pending.run.id  # the GET's answer
        answer = _decoded(reply) if isinstance(reply, list) else ["claimed", kept]
        if answer[0] == "unauthorized":
            raise TokenRevoked()
        if answer[0] == "conflict":
            raise IdempotencyConflict()
        run_id = answer[1]
        claimed.append(pending if run_id == pending.run.id else replace(pending, run=replace(pending.run, id=run_id)))
    return claimed


def _create(db: Database, batch: list[_Pending], archived: dict | None, to_intake: bool) -> list[list[str]]:
    """Step 2, in each run's shard: each run created unless Redis or the archive holds it (``archived``:
    the archive's answer, None: the archived-runs filter's); ``accept_run``'s replies. With
    ``SCOUNDREL_WAIT_REPLICAS``, answered once that many replicas hold them (``store.replication``)."""
    def create(pending: _Pending):
        held = None if archived is None else pending.run.id in archived
        return lambda client: scripts.accept_run(client, run_id=pending.run.id, submitted_ms=pending.run.submitted_ms,
                                                 archived=held, to_intake=to_intake, fields=pending.stored)

    if db.wait_replicas:
        replies = replicated(db, [(keys.run(pending.run.id), create(pending)) for pending in batch])
    else:
        replies = _each(db, [create(pending) for pending in batch])
    return [_decoded(reply) for reply in replies]


def index_runs(db: Database, runs: list[tuple[str, str, int]], ring: bool = False) -> None:
    """Step 3, in each player's shard: ``(player, run id, submission ms)`` in the player's runs and
    the players with runs. Idempotent: the verification job runs it again for its runs
    (a process killed between step 2 and this one leaves the run unindexed until then).
    ``ring``: wake a dispatcher too (``store.intake``), in the same round trip."""
    if not runs and not ring:
        return
    with db.redis.pipeline(transaction=False) as pipe:
        for player, run_id, submitted_ms in runs:
            pipe.zadd(keys.player_runs(player), {run_id: submitted_ms})
            pipe.zadd(keys.run_players(shards.of_name(player)), {player: submitted_ms}, lt=True)
        if ring:
            pipe.rpush(keys.intake_doorbell(), "1")
        pipe.execute()


def _rings(replies: list[list[str]]) -> bool:
    """Whether a new run was the first in its shard's intake: then a dispatcher is woken (``store.intake``)."""
    return any(reply[0] == "new" and reply[1] == "1" for reply in replies)


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


def accept_runs(db: Database, player: str, submissions: list[Submission], *, request_id: str = "",
                runs_per_job: int | None = None, token_hash: str = "") -> list[tuple[Run, bool]]:
    """Accept well-formed submissions, in three steps (see the module's docstring).

    Each gets ``(run, True)`` when new, ``(existing run, False)`` when the
    player already submitted that game (or that Idempotency-Key for it).
    Raises ``IdempotencyConflict`` when an Idempotency-Key names another
    game (a batch's submissions carry none). New runs go onto the intake
    (``store.intake``), or, given ``runs_per_job``, share a job per that
    many of them, queued once they are stored (a batch: few jobs, at once).
    A game whose run the archive holds is that run too: a batch's are looked
    up before they are stored, a single one's only where the archived-runs
    filter says the archive may hold it (``store.archived_filter``; then its
    run's step is tried again). ``token_hash``, unless empty, is the
    request's token: when it no longer names ``player`` (revoked since the
    caller learnt whose it was) nothing is stored and ``TokenRevoked`` raised.
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
    batch = _claim(db, player, batch, token_hash)
    to_intake = runs_per_job is None
    # A batch asks the archive once for all its runs; the intake's runs ask the filter, and the
    # archive only where it says "may be" (``store.archived_filter``).
    archived = None if to_intake else db.archive.load([pending.run.id for pending in batch])
    replies = _create(db, batch, archived, to_intake)
    asking = [position for position, reply in enumerate(replies) if reply == ["ask_archive"]]
    if asking:
        found = db.archive.load([batch[position].run.id for position in asking])
        archived = {**(archived or {}), **found}
        again = _create(db, [batch[position] for position in asking], found, to_intake)
        for position, reply in zip(asking, again, strict=True):
            replies[position] = reply
    index_runs(db, [(player, pending.run.id, pending.run.submitted_ms if reply[0] == "new" else int(reply[1]))
                    for pending, reply in zip(batch, replies, strict=True) if reply[0] in ("new", "existing")],
               ring=_rings(replies))
    if not to_intake:
        shares: dict[str, list[str]] = {}
        for pending, reply in zip(batch, replies, strict=True):
            if reply[0] == "new":
                shares.setdefault(pending.run.job or "", []).append(pending.run.id)
        _queue_jobs(db, list(shares.items()), request_id)
    return _outcomes(db, replies, batch, archived or {})


def _outcomes(db: Database, replies: list[list[str]], batch: list[_Pending],
              archived: dict) -> list[tuple[Run, bool]]:
    """``(run, created)`` per submission (``replies``: ``accept_run``'s, in order): created runs as
    written, existing ones read back (from Redis, or as the archive holds them)."""
    existing = [pending.run.id for pending, reply in zip(batch, replies, strict=True) if reply[0] == "existing"]
    known = {run_id: run_from_stored(run_id, run.fields) for run_id, run in archived.items()}
    if existing:
        known.update({run.id: run for run in load_runs(db, existing) if run})
    return [(pending.run, True) if reply[0] == "new" else (known[pending.run.id], False)
            for pending, reply in zip(batch, replies, strict=True)]


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


def _record_verdict(pipe, run: Run, verdict: dict, worker: str, at_ms: int) -> None:
    """Queue ``record_verdict`` for one run's verdict in ``pipe``."""
    status = verdict["status"]
    code = (verdict.get("error") or {}).get("code", "")
    latency = max(0.0, (at_ms - run.submitted_ms) / 1000)
    scripts.record_verdict(
        pipe, run=run, worker=worker, at_ms=at_ms, metric=f"verdicts:{status}:{code}",
        latency_bucket=latency_bucket(latency), latency=latency,
        fields=verdict_fields(verdict),  # its time is the audit entry's (``store.audit.verdict_ms``)
    )


def write_verdicts(db: Database, verdicts: list[tuple[Run, dict]], worker: str = "worker") -> list[bool]:
    """The verdict step of each ``(run, verdict)`` (``store.placing``): the verdict, its audit entry,
    its counts, and for a verified run the note that its places are owed, each run in one atomic
    step, all in one round trip. False, and nothing changed, for a run that already has a verdict."""
    at_ms = now_ms()
    with db.redis.pipeline(transaction=False) as pipe:
        for run, verdict in verdicts:
            _record_verdict(pipe, run, verdict, worker, at_ms)
        return [bool(written) for written in pipe.execute()]


def record_verdicts(db: Database, verdicts: list[tuple[Run, dict]], worker: str = "worker") -> list[bool]:
    """Store each ``(run, verdict)``: the verdict, its audit entry, its counts (``write_verdicts``) and,
    for a verified run, its board places (``store.placing.place_runs``), the boards' steps after the
    verdicts'.

    ``run`` is the pending run (``load_runs``), ``verdict`` the engine's verdict
    JSON, ``worker`` the name the audit log shows. Idempotent: False, and
    nothing changed, for a run that already has a verdict (whose places its
    own writer, or the sweeper, settles).
    """
    from .placing import place_runs  # placing builds on this module

    written = write_verdicts(db, verdicts, worker)
    place_runs(db, [run for (run, verdict), wrote in zip(verdicts, written, strict=True)
                    if wrote and verdict["status"] == "verified"])
    return written


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
    """Remove archived runs from Redis with every key each owns: per run 'ok', 'gone' (removed
    before), or 'changed' (changed since it was read: left as it is). Its board places stay,
    naming it by id.

    ``runs`` holds each run's hash as read (``stored_hashes``), its audit log
    among them. The one place that knows every key a run owns (its hash in
    the run's shard; its place in its player's run list, the player's score
    among the players with runs, a kept id's ``submission_key``, all in the
    player's shard); ``reinstate_run`` is the way back. In order, each step
    one script in one shard, a round trip for the batch:

    0. every run is noted in the archived-runs filter (``store.archived_filter``),
       so a submission of its game finds it from then on;
    1. its hash is deleted if unchanged (``forget_run.lua``, the run's shard);
    2. it leaves its player's list (``unlist_run.lua``, the player's shard),
       for each run step 1 removed now or before ('ok' or 'gone').

    A crash after step 1 leaves a run listed whose hash is gone and whose
    archive row holds it (the row was committed first): reads find it in
    the archive, and the next retention pass, walking that list, finishes
    step 2 (``unlist_archived``). Never a run in neither place.
    """
    note_archived(db, [fields["id"] for fields in runs])  # before they leave Redis
    with db.redis.pipeline(transaction=False) as pipe:
        for fields in runs:
            scripts.forget_run(pipe, run=fields)
        answers = pipe.execute()
    unlist_archived(db, [run_from_stored(fields["id"], fields)
                         for fields, answer in zip(runs, answers, strict=True) if answer != "changed"])
    return answers


def unlist_archived(db: Database, runs: list[Run]) -> None:
    """Step 2 of ``remove_runs``: take runs whose hash is gone (the archive holds them) out of their
    players' run lists.

    A run brought back meanwhile (``reinstate_run``, between steps 1 and 2)
    has its hash again: looked at once the lists are written, such a run is
    listed again, so a run in Redis is always in its player's list.
    """
    if not runs:
        return
    with db.redis.pipeline(transaction=False) as pipe:
        for run in runs:
            scripts.unlist_run(pipe, run_id=run.id, player=run.player, submission_key=submission_key(run))
        pipe.execute()
    with db.redis.pipeline(transaction=False) as pipe:
        for run in runs:
            pipe.exists(keys.run(run.id))
        back = [run for run, there in zip(runs, pipe.execute(), strict=True) if there]
    for run in back:
        _list(db, run)


def reinstate_run(db: Database, run: Run, audit_entries: list[dict]) -> bool:
    """Put an archived run back into Redis: its fields (``reinstated_ms`` now), its audit
    entries (as ``store.audit.audit_log`` shows them) as its hash's log, and its indexes.

    False when Redis holds the run already (its listing then changes nothing). Three steps, each
    one script in one shard: the player's shard lists the run
    (``list_run.lua``), the run's shard writes its hash, the player's shard
    lists it again. A crash after the first leaves a run listed whose hash
    is not in Redis, which the archive still holds (its row is deleted after
    this returns): as after step 1 of ``remove_runs``, which the next
    retention pass finishes by unlisting it (the run stays archived, and
    the change that wanted it hot failed and is retried). The third step
    lists it again should a retention pass have unlisted it between the
    first two.
    """
    fields = stored_fields(replace(run, reinstated_ms=now_ms()))
    stored = {**fields, "log": encode_log(audit_entries, fields)}
    _list(db, run)
    written = scripts.reinstate_run(db.redis, run_id=run.id, fields=stored)
    _list(db, run)
    return written


def _list(db: Database, run: Run) -> None:
    """The run in its player's list (idempotent): ``reinstate_run``'s first and last step."""
    scripts.list_run(db.redis, run_id=run.id, player=run.player, submitted_ms=run.submitted_ms,
                     submission_key=submission_key(run))
