"""The worker's jobs as the queues name them: each by the dotted path RQ imports it by when it runs one.

Every process that queues a job hands these to ``Database.from_settings``, and the worker's own job
modules reach their connection through ``worker.process``, which needs them too: so they are named
here, not imported, and no job module is imported to queue a job (``tests/queue`` holds each name to
its function).
"""

from store.base import Jobs

JOBS = Jobs(verify_runs="worker.jobs.verify_runs", verification_failed="worker.jobs.verification_failed",
            note_sealed_start="worker.flags.note_sealed_start", deliver_webhook="worker.webhooks.deliver_webhook",
            drain_webhooks="worker.webhooks.drain_webhooks", search_par="worker.par.search_par")
