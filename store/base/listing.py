"""Paged listings: records (hashes) named by a sorted-set index."""

import json
from collections.abc import Callable

from store.base.database import Database


def indexed_page(db: Database, index: str, record_key: Callable[[str], str], offset: int, limit: int,
                 *, newest_first: bool = False) -> tuple[int, list[dict]]:
    """``(total, records)``: ``limit`` records of ``index`` from ``offset``, in two round trips."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(index)
        (pipe.zrevrange if newest_first else pipe.zrange)(index, offset, offset + limit - 1)
        total, ids = pipe.execute()
    with db.redis.pipeline(transaction=False) as pipe:
        for record_id in ids:
            pipe.hgetall(record_key(record_id))
        return total, [fields for fields in pipe.execute() if fields]


def logged_page(db: Database, log: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)``: ``limit`` entries of a log (a list of JSON entries, newest first) from ``offset``."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.llen(log)
        pipe.lrange(log, offset, offset + limit - 1)
        total, entries = pipe.execute()
    return total, [json.loads(entry) for entry in entries]
