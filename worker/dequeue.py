"""How a worker takes its next job from its queues: always through RQ's intermediate list.

RQ takes a job from one queue with ``BLMOVE`` into that queue's
intermediate list, so a worker killed just after taking a job leaves it
where the sweeper finds it (``store.queue.pending``); from several queues it falls
back to ``BLPOP``, and a job taken so leaves no trace at all. A worker
listens to the verification queue and, behind it, the webhook queue, so
this queue class takes from several queues the one-queue way: each queue in
order with a ``LMOVE`` that does not wait, then a short ``BLMOVE`` on the
first (the verification queue: a run is never kept waiting behind a
delivery) before looking at them all again. A queue ``held_back`` for now
is passed over (``worker.runner``: the par searches, while a run waits).
"""

import time
from collections.abc import Iterable
from typing import Any

from redis import Redis
from rq import Queue
from rq.exceptions import DequeueTimeout
from rq.utils import as_text

WAKE_SECONDS = 1  # how long a worker waits on the first queue alone before looking at the others again


class InOrderQueue(Queue):
    """RQ's ``Queue``, taking from several queues in their order, each job through its intermediate list."""

    @classmethod
    def dequeue_any(cls, queues: Iterable[Queue], timeout: int | None, connection: Redis,
                    job_class: Any = None, serializer: Any = None, death_penalty_class: Any = None) -> Any:
        """The first job of the first queue that has one, as ``Queue.dequeue_any`` returns it: ``(job,
        queue)``, None if none (with no ``timeout``), ``DequeueTimeout`` once ``timeout`` seconds pass."""
        queues = list(queues)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            taken = next((result for queue in queues
                          if not cls.held_back(queue) and (result := cls.lmove(connection, queue.key, None))), None)
            if taken is None:
                if deadline is None:
                    return None
                if time.monotonic() >= deadline:
                    raise DequeueTimeout(timeout, [queue.key for queue in queues])
                try:
                    taken = cls.lmove(connection, queues[0].key, WAKE_SECONDS)
                except DequeueTimeout:
                    continue
            queue_key, job_id = map(as_text, taken)
            fetched = cls._fetch_dequeued_job(connection, queue_key, job_id, job_class=job_class,
                                              serializer=serializer, death_penalty_class=death_penalty_class)
            if fetched is not None:
                return fetched

    @classmethod
    def held_back(cls, queue: Queue) -> bool:
        """Whether ``queue`` is passed over for now: none is, here."""
        return False
