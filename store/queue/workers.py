"""Which verification workers are alive: RQ's registrations, judged by their heartbeats.

Every worker beats every third of ``worker_ttl`` from a thread of its own
(``worker.runner``), so one busy with a job beats too; one silent for
``worker_ttl`` seconds was killed, stopped or cut off. RQ itself drops a
registration only once its key has expired (``worker_ttl`` plus a minute
after the last beat, and only in its maintenance every ten minutes), so a
killed worker stayed listed in ``rq:workers`` for minutes: ``roll_call``
records the death of the silent ones with RQ's own ``register_death`` and
clears the registrations whose keys are gone (``clean_worker_registry``).
The sweeper calls it on every sweep and asks it whether the worker a job
names is still there.
"""

from datetime import timedelta

from rq import Worker
from rq.utils import now
from rq.worker import BaseWorker
from rq.worker_registration import clean_worker_registry

from store.base.database import Database
from store.queue.queues import verify_queue


class _Registration(Worker):
    """A worker as RQ's registry holds it, read by another process (the sweeper, ``/metrics``).

    RQ's constructor lengthens its connection's socket timeout to a working
    worker's (minutes); a registration read over the store's shared
    connection leaves it alone, so a hung Redis is still a 503 in seconds.
    """

    def _set_connection(self, connection):
        return connection


def _by_beat(db: Database, worker_ttl: float) -> tuple[list[BaseWorker], list[BaseWorker]]:
    """The workers registered on the queue: ``(beating, silent for worker_ttl seconds)``."""
    silent_since = now() - timedelta(seconds=worker_ttl)
    beating: list[BaseWorker] = []
    silent: list[BaseWorker] = []
    for worker in _Registration.all(queue=verify_queue(db)):
        alive = worker.last_heartbeat is not None and worker.last_heartbeat > silent_since
        (beating if alive else silent).append(worker)
    return beating, silent


def live_workers(db: Database, worker_ttl: float) -> int:
    """How many workers beat within ``worker_ttl`` seconds (a read: ``/metrics`` asks)."""
    return len(_by_beat(db, worker_ttl)[0])


def beating_on(db: Database, worker_ttl: float, hostname: str) -> int:
    """How many workers running on ``hostname`` beat within ``worker_ttl`` seconds (a container's health check)."""
    return sum(1 for worker in _by_beat(db, worker_ttl)[0] if worker.hostname == hostname)


def roll_call(db: Database, worker_ttl: float) -> set[str]:
    """The names of the workers on the queue that beat within ``worker_ttl`` seconds; the others
    are unregistered (a worker that beats again registers itself again)."""
    beating, silent = _by_beat(db, worker_ttl)
    for worker in silent:
        worker.register_death()
    clean_worker_registry(verify_queue(db))
    return {worker.name for worker in beating}
