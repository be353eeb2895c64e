"""Running an RQ worker on the verification queue, and on the webhook deliveries' queue after it.

``SimpleWorker`` runs jobs in its own process instead of forking one per job
(measured: about 80 no-op jobs/s per core forking, 480 without) while RQ
still handles failures, timeouts and retries for it.

Each worker also runs a dispatcher (``store.queue.intake``) in a thread of its
own: it turns the single submissions waiting in the intake into jobs of up
to 100 runs, ``intake_window`` seconds after the first of them arrives.

Each worker also sweeps the pending runs on a timer (``store.queue.pending``), so
a run whose job nothing will run any more (its worker killed or stopped,
mid-job or just after taking it) is queued again within
``pending_timeout + sweep_interval`` seconds (a few more when its worker
was killed mid-job, until the job is past its timeout or the worker silent
for ``worker_ttl``) — no separate process to deploy, and RQ's own
abandoned-job detection (every ten minutes) is not waited for. The same
timer records the death of workers silent for ``worker_ttl`` seconds
(``store.queue.workers``), forfeits the dealt games left idle for ``game_idle``
seconds (R18, ``store.games.dealt``), closes the seasons that have ended (``store.boards.seasons``),
makes the schedules' tournaments and ends the league weeks (``competitions_step``),
queues the search of the last sealed daily's par once its day is over (``worker.par``),
and queues the webhook delivery retries now due and the events left in
the outbox (``worker.webhooks``). Every ``archive_interval`` seconds a
worker also moves old finished runs to the archive (``store.operations.retention``;
one worker at a time). Every ``log_interval`` seconds it moves the public log's
new leaves to the archive and signs a checkpoint if the log grew (``store.log``).

When Redis goes away, or answers but refuses writes (full, read-only), the
worker waits for it to take writes again and carries on; it never exits
for it and never needs a restart. A job cut short meanwhile leaves its run
pending, for the sweeper. Once it reaches Redis it sets the service's mark
there (``store.base.service_mark``), as the API does.
"""

import logging
import secrets
import threading
import time

from redis.exceptions import RedisError
from rq import Queue, SimpleWorker, worker_registration
from rq.exceptions import StopRequested
from sqlalchemy.exc import SQLAlchemyError

import log_lines
from settings import Settings
from store import Database
from store.base import first_line, mark_service, refuses_writes
from store.boards import close_ended_seasons
from store.competitions import settle_closed_seasons, settle_revised, settle_tournament
from store.games import sweep_games
from store.leagues import end_ended_weeks, league_rules
from store.live import tell_soon
from store.log import Signer, load_signer, publish, resume_log
from store.operations import scheduled_pass
from store.queue import (
    dispatch_forever,
    drain,
    forget_carried,
    par_queue,
    runs_waiting,
    sweep,
    verify_queue,
    webhook_queue,
)
from store.runs import make_whole
from store.sanctions import lift_ended_bans
from store.schedules import make_scheduled
from store.tournaments import tell_ended, tell_started

from .dequeue import InOrderQueue
from .par import queue_sealed_search
from .registry import JOBS
from .webhooks import sweep_events

REDIS_WAIT = 1.0  # seconds between attempts while Redis is away or refuses writes

log = logging.getLogger("worker.runner")


def worker_name() -> str:
    """48 random bits, unique among a deployment's workers: every verdict's audit entry names its
    worker, so RQ's default (a 128-bit uuid in 32 characters) would cost 20 bytes a run more."""
    return secrets.token_hex(6)


def wait_for_writes(db: Database, error: Exception) -> None:
    """Return once Redis takes writes again and the queues' Redis answers (``error``: how it failed: not
    answering, or refusing a write). Either may be the one away: RQ's loop ends for its own Redis."""
    log.warning("redis refuses writes; waiting" if refuses_writes(error) else "redis unavailable; waiting",
                extra={"error": first_line(error)})
    while True:
        try:
            if db.accepts_writes() and db.queue_redis.ping():
                log.info("redis takes writes again")
                return
        except RedisError:
            pass
        time.sleep(REDIS_WAIT)


def behind_runs(db: Database) -> type[InOrderQueue]:
    """The worker's queue class: its queues in order, the par searches' held back while a run waits for its
    verdict (``store.queue.intake.runs_waiting``), so a worker never starts a search a run would wait behind."""
    searches = par_queue(db).name

    class BehindRuns(InOrderQueue):
        @classmethod
        def held_back(cls, queue: Queue) -> bool:
            return queue.name == searches and runs_waiting(db)

    return BehindRuns


class VerifyWorker(SimpleWorker):
    """RQ's ``SimpleWorker``, beating from a thread of its own and outlasting a Redis that refuses writes.

    RQ beats only between jobs and quits its loop on any Redis error but a
    lost connection; this worker beats every third of ``worker_ttl``, job
    or no job (so ``store.queue.workers`` can tell a silent worker from a busy
    one), and waits out a refused write instead of quitting. It takes its
    jobs through RQ's intermediate lists (``worker.dequeue``), the webhook
    queue's behind the verification queue's, and the par searches' only
    while no run waits for its verdict (``behind_runs``).
    """

    max_connection_wait_time = 2.0  # RQ's default backs off up to a minute while Redis is down

    def __init__(self, db: Database, worker_ttl: int):
        super().__init__([verify_queue(db).name, webhook_queue(db).name, par_queue(db).name], connection=db.queue_redis,
                         name=worker_name(),
                         worker_ttl=worker_ttl, queue_class=behind_runs(db))
        self.db = db
        self.stop_asked = False  # SIGINT or SIGTERM: the work loop's end is the end
        self._silenced = threading.Event()

    def request_stop(self, signum, frame):
        self.stop_asked = True
        super().request_stop(signum, frame)

    def bootstrap(self, *args, **kwargs):
        super().bootstrap(*args, **kwargs)
        threading.Thread(target=self._beat, name="heartbeat", daemon=True).start()

    def teardown(self):
        self._silenced.set()
        super().teardown()

    def unsubscribe(self):
        """RQ's, in the order that lets its pubsub thread end at once.

        RQ unsubscribes first, then stops the thread. The unsubscribe's reply
        wakes the thread from its read, but with its flag still up it goes
        back to waiting for a subscription, up to RQ's 60 s, and redis-py's
        ``stop`` waits for the thread: every worker took up to a minute to
        stop. With the flag down first (``stop`` not waiting), the thread
        leaves as soon as the reply wakes it.
        """
        if self.pubsub_thread:
            self.pubsub_thread.stop(timeout=0)
            self.pubsub.unsubscribe()
            self.pubsub_thread.join(timeout=1)
            self.pubsub.close()

    def _beat(self) -> None:
        """Beat, and register again in case a sweeper judged this worker gone while Redis refused the beats."""
        while not self._silenced.wait(self.worker_ttl / 3):
            try:
                with self.connection.pipeline() as pipe:
                    self.heartbeat(pipeline=pipe)
                    worker_registration.register(self, pipe)
                    pipe.execute()
            except RedisError as error:
                log.debug("heartbeat not written", extra={"error": first_line(error)})

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        while True:
            try:
                return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
            except RedisError as error:
                if not refuses_writes(error):
                    raise
                wait_for_writes(self.db, error)

    def execute_job(self, job, queue):
        """Run the job; if Redis fails RQ's own records of it (a failover, Redis away), wait until it takes
        writes again, then record the job's end as a failure: RQ retries it at once while it has retries,
        else marks it failed (with no copy of its runs' hashes: ``store.queue.queues.forget_carried``), and the
        sweeper queues its runs again, rather than taking a job left ``started`` for one still running until
        its timeout has passed."""
        try:
            super().execute_job(job, queue)
        except RedisError as error:
            log.warning("job cut short by redis; its runs stay pending, the job ends as failed",
                        extra={"job_id": job.id, "run_ids": list(job.args)})
            execution = next(iter(self.executions.values()), None)
            self.executions.clear()  # RQ could not record its end: it is over all the same
            wait_for_writes(self.db, error)
            kept_failed = not job.should_retry
            self.handle_job_failure(job, queue, exc_string=f"cut short by redis: {first_line(error)}",
                                    execution=execution)
            if kept_failed:
                forget_carried(self.db, job)


def competitions_step(db: Database, settings: Settings) -> None:
    """The competitions' part of the periodic pass: make the schedules' tournaments due, end the league
    weeks that have ended, grant the closed seasons' rewards, and settle again the competitions a void
    re-ranked (``docs/tournaments.md``)."""
    made = make_scheduled(db, settings.schedule_ahead)
    if made:
        log.info("scheduled tournaments made", extra={"tournaments": made})
    rules, league_rewards = league_rules(settings), dict(settings.league_rewards)
    for week in end_ended_weeks(db, rules, league_rewards):
        log.info("league week ended", extra={"week": week.id})
    for season in settle_closed_seasons(db, settings.season_rewards):
        log.info("season's rewards granted", extra={"season": season})
    for source in settle_revised(db, rules, league_rewards):
        log.info("rewards settled again", extra={"source": source})


def _sweep_forever(db: Database, settings: Settings, stopped: threading.Event) -> None:
    while not stopped.wait(settings.sweep_interval):
        try:
            periodic_pass(db, settings)
        except RedisError as error:
            log.warning("sweep skipped: redis unavailable", extra={"error": first_line(error)})


def periodic_pass(db: Database, settings: Settings) -> None:
    """What a worker does every ``sweep_interval`` seconds besides its jobs (the module's docstring says
    each part), in one place for the timer and for whoever runs a worker's steps by hand."""
    sweep(db, settings.pending_timeout, settings.worker_ttl)
    forfeited = sweep_games(db, settings.game_idle)
    if forfeited:
        log.info("games swept", extra={"forfeited": forfeited})
    for season in close_ended_seasons(db):
        log.info("season closed", extra={"season": season.id})
    for tournament in tell_started(db):
        log.info("tournament started", extra={"tournament": tournament.id})
    for tournament in tell_ended(db, settle_tournament):
        log.info("tournament ended", extra={"tournament": tournament.id})
    tell_soon(db)
    competitions_step(db, settings)
    sweep_events(db, settings.webhook_timeout)
    for player in lift_ended_bans(db):
        log.info("ban ended", extra={"player": player})
    if queue_sealed_search(db, settings):
        log.info("sealed daily's par search queued")


def _archive_forever(db: Database, settings: Settings, stopped: threading.Event) -> None:
    while not stopped.wait(settings.archive_interval):
        try:
            tally = scheduled_pass(db, settings.hot_days)
        except (RedisError, SQLAlchemyError) as error:
            log.warning("archive pass skipped: storage unavailable", extra={"error": str(error)})
            continue
        if tally is not None and tally.archived:
            log.info("runs archived", extra={"archived": tally.archived, "examined": tally.examined})


def _publish_log_forever(db: Database, settings: Settings, signer: Signer | None, stopped: threading.Event) -> None:
    """Every ``log_interval`` seconds: the public log's new leaves to the archive, and a checkpoint signed
    by ``signer`` (SCOUNDREL_LOG_KEY) if it grew (``store.log``)."""
    while not stopped.wait(settings.log_interval):
        try:
            checkpoint = publish(db, signer)
        except (RedisError, SQLAlchemyError) as error:
            log.warning("log checkpoint skipped: storage unavailable", extra={"error": str(error)})
            continue
        if checkpoint is not None:
            log.info("log checkpoint signed", extra={"size": checkpoint.size})


def run_worker(settings: Settings, burst: bool = False) -> bool:
    """Work the queue until stopped (or, with ``burst``, until it is empty).

    RQ's work loop also ends on a Redis error it does not expect (a
    timeout, a refused write outside a job): then, unless a stop was asked
    for, a new worker starts once Redis takes writes again.
    """
    log_lines.configure(settings.log_level, settings.log_format)
    signer = load_signer(settings.log_key)  # a bad key file stops the worker before it takes a job
    db = Database.from_settings(settings, JOBS)
    db.archive.upgrade()
    stopped = threading.Event()
    if burst:
        drain(db)  # what waits in the intake now is work of this burst too
    else:
        # The dispatcher's own connections: RQ's worker lengthens the socket timeout of its pool's
        # connections made after it starts, and would block for a job on one made before (0.75 s).
        dispatching = Database.from_settings(settings, JOBS)
        block = min(1.0, settings.redis_timeout / 2)  # a blocking wait must end before the socket's timeout
        threading.Thread(target=dispatch_forever, args=(dispatching, settings.intake_window, block, stopped),
                         name="dispatcher", daemon=True).start()
        threading.Thread(target=_sweep_forever, args=(db, settings, stopped), name="sweeper", daemon=True).start()
        threading.Thread(target=_archive_forever, args=(db, settings, stopped), name="archiver", daemon=True).start()
        threading.Thread(target=_publish_log_forever, args=(db, settings, signer, stopped), name="log",
                         daemon=True).start()
    try:
        while True:
            try:
                mark_service(db)
                make_whole(db)  # once: a submission asks the archive until it is
                resume_log(db)  # a Redis that lost the public log's state gets it back before a job appends to it
                worker = VerifyWorker(db, settings.worker_ttl)
                worked = worker.work(burst=burst, with_scheduler=False, logging_level="WARNING")
            except RedisError as error:
                wait_for_writes(db, error)
                continue
            if burst or worker.stop_asked:
                return worked
            wait_for_writes(db, RedisError("RQ's work loop ended (its log says why)"))
    except StopRequested:  # asked to stop while waiting for Redis
        return False
    finally:
        stopped.set()
