"""The intake: single submissions waiting to share a verification job.

One RQ job costs about 50 Redis commands whatever it carries, and an engine
verifies a game in tens of microseconds, so a job per single submission
would be most of a run's cost. A single submission is therefore stored and
acknowledged with no job of its own: the script that creates its run
(``store.runs``, ``accept_run``) also pushes its id onto its shard's
``keys.intake`` and gives it the ``job`` ``IN_INTAKE``. A dispatcher (each
worker runs one, ``worker.runner``) waits for an intake to hold something,
lets the window (``SCOUNDREL_INTAKE_WINDOW`` seconds) fill it, then reads
the head of every shard's intake and queues one job for up to ``JOB_RUNS``
of those runs, of one shard or several (``dispatch``).

A dispatcher cannot block on every shard's list at once (on a cluster they
are on several nodes), so it waits on a doorbell (``keys.intake_doorbell``,
in the service's shard) that the accept path rings when a run is the first
in its shard's intake, and every ``LOOK_EVERY`` seconds, after a wait on
the bell that timed out (``wait_for_runs``), it looks at every intake all
the same: a ring lost with the process that would have rung it delays the
runs by at most that long. It does not look after every wait: a look is a
command per shard, and an idle worker's dispatcher waits several times a
second (on a cluster, most of an idle worker's CPU).

Nothing is lost wherever a process dies: the dispatcher reads the heads,
takes each shard's (``take_intake``: each run still waiting names the new
job, atomically with leaving the intake), then queues the job on the
queue's Redis with the runs that name it. A run is either in the intake
(in hand for the sweeper, ``store.pending``, however long a suspended
service keeps it there) or names a job; a job never queued (the process
killed, the queue's Redis away) is one the queue lacks, and the sweeper
queues its runs again, as it does for a worker killed mid-job.
"""

import logging
import secrets
import threading
import time

from redis.exceptions import RedisError
from rq.suspension import is_suspended

from . import keys, scripts
from .database import Database
from .errors import first_line

IN_INTAKE = "intake"  # the ``job`` of a pending run waiting in the intake for a job of its own
JOB_RUNS = 100  # runs one job of the intake verifies at most
REDIS_WAIT = 1.0  # seconds between attempts while Redis is away
LOOK_EVERY = 2.0  # seconds between a dispatcher's looks at every intake while no bell rings

log = logging.getLogger(__name__)


def intake_depth(db: Database) -> int:
    """Runs waiting in every shard's intake for a job."""
    with db.redis.pipeline(transaction=False) as pipe:
        for intake in keys.every(keys.intake):
            pipe.llen(intake)
        return sum(pipe.execute())


def dispatch(db: Database, most: int = JOB_RUNS) -> int:
    """Queue verification jobs of up to ``most`` runs for the runs at the head of every shard's intake (up to
    ``most`` a shard); how many runs were taken (0: the intakes were empty, or another dispatcher took them)."""
    shard_ids = list(keys.distinct_shards())
    with db.redis.pipeline(transaction=False) as pipe:
        for shard in shard_ids:
            pipe.lrange(keys.intake(shard), 0, most - 1)
        heads = pipe.execute()
    shares: list[tuple[int, str, list[str]]] = []  # (shard, job id, run ids), in each shard's order
    job_id, room = secrets.token_hex(12), most
    for shard, head in zip(shard_ids, heads, strict=True):
        while head:
            if not room:
                job_id, room = secrets.token_hex(12), most
            shares.append((shard, job_id, head[:room]))
            room -= len(head[:room])
            head = head[len(shares[-1][2]):]
    return take(db, shares) if shares else 0


def take(db: Database, shares: list[tuple[int, str, list[str]]]) -> int:
    """Take each ``(shard, job id, run ids)``, read at the head of its shard's intake, then queue each job
    for the runs that name it; how many runs left the intakes."""
    with db.redis.pipeline(transaction=False) as pipe:
        for shard, job_id, run_ids in shares:
            scripts.take_intake(pipe, shard=shard, job_id=job_id, waiting=IN_INTAKE, run_ids=run_ids)
        replies = pipe.execute()
    taken, jobs = 0, dict[str, list[str]]()
    for (_, job_id, _), reply in zip(shares, replies, strict=True):
        taken += int(reply[0])
        if len(reply) > 1:
            jobs.setdefault(job_id, []).extend(reply[1:])
    for job_id, run_ids in jobs.items():
        db.enqueue_verification(run_ids, job_id=job_id)
    return taken


def drain(db: Database) -> int:
    """Queue jobs for everything in the intake now; how many runs they carry. Its rings answered too."""
    db.redis.delete(keys.intake_doorbell())
    taken = total = dispatch(db)
    while taken:
        taken = dispatch(db)
        total += taken
    return total


def wait_for_runs(db: Database, block: float, look: bool = True) -> bool:
    """Whether an intake holds a run, waiting up to ``block`` seconds for the doorbell (in Redis, so no
    process polls an empty intake more often than that), then, with ``look``, looking at every intake."""
    if db.redis.blpop([keys.intake_doorbell()], block) is not None:
        return True
    return look and intake_depth(db) > 0


def dispatch_forever(db: Database, window: float, block: float, stopped: threading.Event) -> None:
    """A worker's dispatcher: whenever an intake holds runs, wait ``window`` seconds for more to
    arrive, then queue jobs for them (at once again while the intakes held a full job's worth).

    Sleeps rather than waiting on ``stopped`` with a timeout: under ``faketime`` (the tests' moved
    clock) a thread's timed wait never returns. While RQ's workers are suspended it queues nothing,
    so a suspended service keeps its backlog in the intake.
    """
    # Runs left in an intake by the last pass: a run that arrived between the pass's reading of the
    # heads and its taking found its intake holding runs, so it rang no bell; it goes in the next pass,
    # not after a wait on the bell.
    left, next_look = False, 0.0
    while not stopped.is_set():
        try:
            if not left:
                look = time.monotonic() >= next_look
                if look:
                    next_look = time.monotonic() + LOOK_EVERY
                if not wait_for_runs(db, block, look):
                    continue
            if is_suspended(db.queue_redis):
                next_look = 0.0  # the runs rung for wait in the intake: look for them after the next wait
                time.sleep(max(window, 0.05))
                continue
            time.sleep(window)
            db.redis.delete(keys.intake_doorbell())  # a ring from now on is for runs this pass may miss
            while dispatch(db) >= JOB_RUNS:
                pass
            left = intake_depth(db) > 0
        except RedisError as error:
            log.warning("dispatch skipped: redis unavailable", extra={"error": first_line(error)})
            time.sleep(REDIS_WAIT)
