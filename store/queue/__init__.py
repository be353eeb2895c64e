"""RQ, and nothing else of the store imports it: the queues and the jobs put on them (``queues``), the
intake where single submissions wait to share a job and the dispatchers that queue it (``intake``),
the sweeper that queues again a run whose job nothing will run (``pending``), and the workers'
registry (``workers``)."""

from store.queue.intake import dispatch_forever, drain, intake_depth, runs_waiting
from store.queue.pending import mark_error, oldest_pending, pending_run_ids, split_pending, sweep
from store.queue.queues import enqueue_par_search, forget_carried, par_queue, requests_of, verify_queue, webhook_queue
from store.queue.workers import beating_on, live_workers

__all__ = [
    "dispatch_forever", "drain", "intake_depth", "runs_waiting", "mark_error", "oldest_pending", "pending_run_ids",
    "split_pending", "requests_of", "forget_carried",
    "sweep", "enqueue_par_search", "par_queue", "verify_queue", "webhook_queue", "beating_on", "live_workers",
]
