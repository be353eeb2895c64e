"""Runs waiting for a moderator's re-verification: those whose verification kept failing (status ``error``,
``store.queue.mark_error``), oldest first."""

from store.base import keys
from store.base.database import Database

ERROR = "error"


def errored_page(db: Database, offset: int, limit: int) -> tuple[int, list[str]]:
    """``(total, run ids)``: a page of the runs in ``error``, oldest first. A run that left ``error`` since
    (re-queued, re-verified) leaves the index as this reads it."""
    index = keys.errored_runs()
    while True:
        with db.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(index)
            pipe.zrange(index, offset, offset + limit - 1)
            total, ids = pipe.execute()
        with db.redis.pipeline(transaction=False) as pipe:
            for run_id in ids:
                pipe.hget(keys.run(run_id), "status")
            statuses = pipe.execute()
        gone = [run_id for run_id, status in zip(ids, statuses, strict=True) if status != ERROR]
        if not gone:
            return total, ids
        db.redis.zrem(index, *gone)
