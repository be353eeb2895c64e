"""Running an RQ worker on the verification queue.

``SimpleWorker`` runs jobs in its own process instead of forking one per job
(measured: about 80 no-op jobs/s per core forking, 480 without) while RQ
still handles failures, timeouts and retries for it.

Each worker also sweeps the pending runs on a timer (``store.pending``), so
a run whose worker was killed mid-job is queued again within
``pending_timeout + sweep_interval`` seconds of a worker running — no
separate process to deploy, and RQ's own abandoned-job detection (minutes)
is not waited for. The same timer forfeits the dealt games left idle for
``game_idle`` seconds (R18) and accepts the run of any ended game still
without one (``store.games``). Every ``archive_interval`` seconds a worker
also moves old finished runs to the archive (``store.retention``; one
worker at a time). When Redis goes away the worker waits for it and
carries on; it never needs a restart. Once it reaches Redis it sets the
service's mark there (``store.service_mark``), as the API does.
"""

import logging
import secrets
import threading
import time

from redis.exceptions import RedisError
from rq import SimpleWorker
from sqlalchemy.exc import SQLAlchemyError

from service import json_logs
from settings import Settings
from store import Database
from store.games import sweep_games
from store.pending import sweep
from store.retention import scheduled_pass
from store.service_mark import mark_service

REDIS_WAIT = 1.0  # seconds between attempts while Redis is away

log = logging.getLogger("worker.runner")


class VerifyWorker(SimpleWorker):
    max_connection_wait_time = 2.0  # RQ's default backs off up to a minute while Redis is down


def worker_name() -> str:
    """48 random bits, unique among a deployment's workers: every verdict's audit entry names its
    worker, so RQ's default (a 128-bit uuid in 32 characters) cost 20 bytes a run (issue 11)."""
    return secrets.token_hex(6)


def _sweep_forever(db: Database, settings: Settings, stopped: threading.Event) -> None:
    while not stopped.wait(settings.sweep_interval):
        try:
            sweep(db, settings.pending_timeout)
            forfeited, finished = sweep_games(db, settings.game_idle)
            if forfeited or finished:
                log.info("games swept", extra={"forfeited": forfeited, "finished": finished})
        except RedisError as error:
            log.warning("sweep skipped: redis unavailable", extra={"error": str(error)})


def _archive_forever(db: Database, settings: Settings, stopped: threading.Event) -> None:
    while not stopped.wait(settings.archive_interval):
        try:
            tally = scheduled_pass(db, settings.hot_days)
        except (RedisError, SQLAlchemyError) as error:
            log.warning("archive pass skipped: storage unavailable", extra={"error": str(error)})
            continue
        if tally is not None and tally.archived:
            log.info("runs archived", extra={"archived": tally.archived, "examined": tally.examined})


def run_worker(settings: Settings, burst: bool = False) -> bool:
    """Work the queue until stopped (or, with ``burst``, until it is empty)."""
    json_logs.configure(settings.log_level, settings.log_format)
    db = Database.from_settings(settings)
    db.archive.upgrade()
    stopped = threading.Event()
    if not burst:
        threading.Thread(target=_sweep_forever, args=(db, settings, stopped), name="sweeper", daemon=True).start()
        threading.Thread(target=_archive_forever, args=(db, settings, stopped), name="archiver", daemon=True).start()
    try:
        while True:
            try:
                mark_service(db)
                worker = VerifyWorker([db.queue], connection=db.raw, name=worker_name())
                return worker.work(burst=burst, with_scheduler=False, logging_level="WARNING")
            except RedisError as error:
                log.warning("redis unavailable; waiting", extra={"error": str(error)})
                time.sleep(REDIS_WAIT)
    finally:
        stopped.set()
