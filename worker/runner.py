"""Running an RQ worker on the verification queue.

``SimpleWorker`` runs jobs in its own process instead of forking one per job
(measured: about 80 no-op jobs/s per core forking, 480 without) while RQ
still handles failures, timeouts and worker death for it.
"""

from rq import SimpleWorker

from service.config import Settings
from store import Database


def run_worker(settings: Settings, burst: bool = False) -> bool:
    """Work the queue until stopped (or, with ``burst``, until it is empty)."""
    db = Database(settings.redis_url, settings.queue, settings.job_timeout)
    worker = SimpleWorker([db.queue], connection=db.raw)
    return worker.work(burst=burst, with_scheduler=False, logging_level="WARNING")
