"""What the worker's and the sweeper's overrides of RQ rely on, held to the RQ installed.

RQ's major version is pinned in pyproject.toml, and these overrides use
parts of RQ that are not its documented API: ``worker.dequeue.InOrderQueue``
(``Queue.dequeue_any``, ``Queue.lmove``, ``Queue._fetch_dequeued_job``),
``store.queue.workers`` (``BaseWorker._set_connection``), ``store.queue.pending``
(each queue's intermediate list) and ``worker.runner.VerifyWorker`` (the work
loop's hooks). An RQ upgrade that changes any of them fails here, before a
worker loses a job or the sweeper misjudges one.
"""

import importlib
import inspect
import threading
import time

import pytest
from rq import Queue, SimpleWorker
from rq.exceptions import DequeueTimeout
from rq.worker import BaseWorker

from store.queue.queues import verify_queue
from store.queue.workers import _Registration
from worker.dequeue import InOrderQueue
from worker.runner import VerifyWorker


def _parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_methods_the_overrides_replace_or_call_keep_their_signatures():
    assert _parameters(Queue.dequeue_any) == [
        "queues", "timeout", "connection", "job_class", "serializer", "death_penalty_class"]
    assert _parameters(Queue.lmove) == ["connection", "queue_key", "timeout"]
    assert _parameters(Queue._fetch_dequeued_job)[:3] == ["connection", "queue_key", "job_id"]
    assert {"job_class", "serializer", "death_penalty_class"} <= set(_parameters(Queue._fetch_dequeued_job))
    assert _parameters(BaseWorker._set_connection) == ["self", "connection"]
    assert _parameters(SimpleWorker.dequeue_job_and_maintain_ttl)[1:3] == ["timeout", "max_idle_time"]
    assert _parameters(SimpleWorker.execute_job) == ["self", "job", "queue"]
    assert _parameters(SimpleWorker.request_stop) == ["self", "signum", "frame"]
    assert "pipeline" in _parameters(SimpleWorker.heartbeat)
    assert _parameters(SimpleWorker.handle_job_failure)[:2] == ["self", "job"]
    assert {"queue", "exc_string", "execution"} <= set(_parameters(SimpleWorker.handle_job_failure))
    for hook in ("bootstrap", "teardown"):
        assert callable(getattr(SimpleWorker, hook)) and hook in VerifyWorker.__dict__


def test_in_order_dequeue_takes_the_first_queues_job_first_through_its_intermediate_list(store_db):
    """The one-queue way for several queues: the job leaves its queue for the intermediate list, where the
    sweeper finds a job whose worker was killed the moment it took it (``store.queue.pending``)."""
    first = verify_queue(store_db)
    second = Queue(f"{first.name}-second", connection=store_db.queue_redis)
    later = second.enqueue_call(print, args=("later",))
    sooner = first.enqueue_call(print, args=("sooner",))
    job, queue = InOrderQueue.dequeue_any([first, second], None, connection=store_db.queue_redis)
    assert (job.id, queue.name) == (sooner.id, first.name)
    assert first.intermediate_queue.get_job_ids() == [sooner.id]
    first.intermediate_queue.remove(sooner.id)
    assert first.intermediate_queue.get_job_ids() == []
    job, queue = InOrderQueue.dequeue_any([first, second], None, connection=store_db.queue_redis)
    assert (job.id, queue.name) == (later.id, second.name)
    assert InOrderQueue.dequeue_any([first, second], None, connection=store_db.queue_redis) is None
    with pytest.raises(DequeueTimeout):
        InOrderQueue.dequeue_any([first, second], 1, connection=store_db.queue_redis)


def test_a_registration_read_keeps_the_stores_socket_timeout(store_db):
    """RQ's worker lengthens its connection's socket timeout; a registration read through the store's
    connection must not (``store.queue.workers._Registration``)."""
    timeout = store_db.queue_redis.connection_pool.connection_kwargs["socket_timeout"]
    _Registration([verify_queue(store_db)], connection=store_db.queue_redis)
    assert store_db.queue_redis.connection_pool.connection_kwargs["socket_timeout"] == timeout


def test_each_job_named_in_the_registry_is_the_workers_function_rq_runs():
    """``worker.registry`` names the jobs by dotted path (so no job module is imported to queue one): each
    name is the function RQ imports when a worker runs it."""
    import worker.flags
    import worker.jobs
    import worker.webhooks
    from worker.registry import JOBS

    functions = {"verify_runs": worker.jobs.verify_runs, "verification_failed": worker.jobs.verification_failed,
                 "note_sealed_start": worker.flags.note_sealed_start,
                 "deliver_webhook": worker.webhooks.deliver_webhook, "drain_webhooks": worker.webhooks.drain_webhooks}
    for job, function in functions.items():
        module, _, name = getattr(JOBS, job).rpartition(".")
        assert importlib.import_module(module).__dict__[name] is function, job


class _NotedWait(threading.Event):
    """A pubsub's ``subscribed_event`` that notes when its thread begins waiting on it for a subscription."""

    def __init__(self, waiting: threading.Event):
        super().__init__()
        self.waiting = waiting

    def wait(self, timeout=None):
        if not self.is_set():
            self.waiting.set()
        return super().wait(timeout)


def test_a_worker_unsubscribes_at_once(store_db):
    """A worker stops (burst over, SIGINT, SIGTERM) through ``unsubscribe``, and its pubsub thread must
    end as the unsubscribe's reply wakes it: not go back to waiting for a subscription (RQ's 60 s) while
    redis-py's ``stop`` waits for it (``VerifyWorker.unsubscribe``). The race is made certain: the
    unsubscribe returns only once the thread either waits for a subscription or has ended, as when the
    worker's own thread is the slower. Asked in a thread of its own, so that a stuck unsubscribe fails
    the test after 20 s rather than taking its minute."""
    worker = VerifyWorker(store_db, worker_ttl=60)
    worker.subscribe()
    pubsub, pubsub_thread = worker.pubsub, worker.pubsub_thread
    waiting = threading.Event()
    pubsub.subscribed_event.wait(10)
    noted = _NotedWait(waiting)
    noted.set()
    pubsub.subscribed_event = noted
    sends_unsubscribe = pubsub.unsubscribe

    def unsubscribe_slowly(*channels):
        sends_unsubscribe(*channels)
        while not waiting.is_set() and pubsub_thread.is_alive():
            time.sleep(0.01)

    pubsub.unsubscribe = unsubscribe_slowly
    unsubscribing = threading.Thread(target=worker.unsubscribe, daemon=True)
    unsubscribing.start()
    unsubscribing.join(timeout=20)
    assert not unsubscribing.is_alive(), "unsubscribe still waiting on the pubsub thread"
    pubsub_thread.join(timeout=20)
    assert not pubsub_thread.is_alive()
