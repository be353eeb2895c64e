"""The intake: single submissions waiting to share a verification job.

One RQ job costs about 50 Redis commands whatever it carries, and an engine
verifies a game in tens of microseconds, so a job per single submission
would be most of a run's cost. A single submission is therefore stored and
acknowledged with no job of its own: the script that accepts it
(``store.runs.accepting``) also pushes its entry onto ``keys.intake``: its id,
the id of the request that submitted it, which the job carries to the
worker's log (``store.queue.queues``), and the run's hash as stored (but its
audit log), which the job carries to the worker (``intake_entry``), so that
the worker judges it without reading it (its verdict's script reads it
anyway, and writes nothing if it changed meanwhile: ``worker.jobs``). A run
of a dealt game, stored by the script of its last move, has no fields in its
entry, and the worker reads it. So its hash holds no
field only a pending run needs (no ``job``, no ``request_id``, as a batch's
run has), and its verdict drops none. A dispatcher (each worker runs one,
``worker.runner``) waits for the intake to hold something, lets the window
(``SCOUNDREL_INTAKE_WINDOW`` seconds) fill it, then queues one job for up
to ``JOB_RUNS`` entries at its head (``dispatch``).

Nothing is lost wherever a process dies: the dispatcher reads the head,
takes it (``take_intake``: the new job of each run is noted, atomically
with leaving the intake, in one hash for them all, ``keys.pending_jobs``,
one command a job rather than one a run; the runs enter the index of
pending runs, queued now, in one more, and are counted as accepted in one
more), then queues the job on the queue's Redis with those runs. A run
leaves the intake only so, or with its player's erasure
(``store.privacy.erasure``), in the step that deletes it: so a run in the
intake always exists and waits, and the take reads none of them. A run is
either in the intake (in hand: the sweeper, ``store.queue.pending``, looks
only at the index) or in the index, waiting on a job
(``pending.jobs_of``); a job never queued (the process killed, the queue's
Redis away) is one the queue lacks, and the sweeper queues its runs again,
as it does for a worker killed mid-job. So the pending runs are the
intake's and the index's (``pending.pending_count``), and a submission
pays one write for its way to a job, not two.
"""

import json
import logging
import secrets
import threading
import time

from redis.exceptions import RedisError
from rq.suspension import is_suspended

from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.errors import first_line
from store.queue import scripts
from store.queue.queues import enqueue_verification, verify_queue

JOB_RUNS = 100  # runs one job of the intake verifies at most
REDIS_WAIT = 1.0  # seconds between attempts while Redis is away

log = logging.getLogger(__name__)


def intake_entry(run_id: str, request_id: str, fields: dict[str, str] | None = None) -> str:
    """A run's entry in the intake: its id, then (after a space, which no run id holds) the request's id, then
    (after a newline, which neither holds) its hash's ``fields`` as JSON, if given."""
    head = f"{run_id} {request_id}" if request_id else run_id
    return f"{head}\n{json.dumps(fields, separators=(',', ':'))}" if fields else head


def entry_parts(entry: str) -> tuple[str, str]:
    """``(run id, request id)`` of an intake entry (an older release's entry, a bare run id: request id "")."""
    run_id, _, request_id = entry.partition("\n")[0].partition(" ")
    return run_id, request_id


def entry_fields(entry: str) -> dict[str, str] | None:
    """The run's hash as its intake entry carries it, or None for an entry with no fields."""
    _, _, fields = entry.partition("\n")
    return json.loads(fields) if fields else None


def intake_depth(db: Database) -> int:
    """Runs waiting in the intake for a job."""
    return db.redis.llen(keys.intake())


def runs_waiting(db: Database) -> bool:
    """Whether a run waits for its verdict: in the intake, or in a verification job not yet taken. A par
    search gives way to it (``worker.par``): a verdict's wait never depends on the searches."""
    return intake_depth(db) > 0 or verify_queue(db).count > 0


def dispatch(db: Database, most: int = JOB_RUNS) -> int:
    """Queue one verification job for up to ``most`` runs at the intake's head; how many it took
    (0: the intake was empty, or another dispatcher took the same runs first)."""
    entries = db.redis.lrange(keys.intake(), 0, most - 1)
    return take(db, entries) if entries else 0


def take(db: Database, entries: list[str]) -> int:
    """Take ``entries``, read at the intake's head (the new job of each run noted, atomically with leaving the
    intake), then queue the job for their runs, with their requests and the fields their entries carry; how
    many it took."""
    job_id = secrets.token_hex(12)
    taken = scripts.take_intake(db.redis, job_id=job_id, at_ms=now_ms(), entries=entries)
    if taken:
        run_ids, request_ids = zip(*map(entry_parts, entries), strict=True)
        carried = {run_id: fields for run_id, entry in zip(run_ids, entries, strict=True)
                   if (fields := entry_fields(entry)) is not None}
        enqueue_verification(db, list(run_ids), list(request_ids), job_id=job_id, carried=carried)
    return taken


def drain(db: Database) -> int:
    """Queue jobs for everything in the intake now; how many runs they carry."""
    taken = total = dispatch(db)
    while taken:
        taken = dispatch(db)
        total += taken
    return total


def wait_for_runs(db: Database, block: float) -> bool:
    """Whether the intake holds a run, waiting up to ``block`` seconds for one (in Redis, so no
    process polls an empty intake): a blocking move of its last id onto its own end, which leaves it as it was."""
    return db.redis.blmove(keys.intake(), keys.intake(), block, "RIGHT", "RIGHT") is not None


def dispatch_forever(db: Database, window: float, block: float, stopped: threading.Event) -> None:
    """A worker's dispatcher: whenever the intake holds runs, wait ``window`` seconds for more to
    arrive, then queue jobs for them (at once again while the intake holds a full job's worth).

    Sleeps rather than waiting on ``stopped`` with a timeout: under ``faketime`` (the tests' moved
    clock) a thread's timed wait never returns. While RQ's workers are suspended it queues nothing,
    so a suspended service keeps its backlog in the intake: it looks at the suspension every window
    (a resumption is seen at once), and not at the intake, which holds runs still.
    """
    while not stopped.is_set():
        try:
            if not wait_for_runs(db, block):
                continue
            while is_suspended(db.queue_redis):
                if stopped.is_set():
                    return
                time.sleep(max(window, 0.05))
            time.sleep(window)
            while dispatch(db) == JOB_RUNS:
                pass
        except RedisError as error:
            log.warning("dispatch skipped: redis unavailable", extra={"error": first_line(error)})
            time.sleep(REDIS_WAIT)
