"""A run's place in the public log: the index and hash of its latest leaf, wherever that leaf is now."""

from domain.transparency import leaf_hash
from store.base import keys
from store.base.database import Database

from .leaves import LEAVES, MOVED
from .tree import leaf_hash_at, leaf_index

_NO_SIZE_LIMIT = 2**62


def run_log_entry(db: Database, run_id: str) -> tuple[int, bytes] | None:
    """``(index, leaf hash)`` of the run's latest leaf, or None before it has one. A hot run's hash names
    the index (``log_index``); the leaf is in Redis until the worker moves it, in the archive after."""
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hget(keys.run(run_id), "log_index")
        pipe.get(MOVED)
        index, moved = pipe.execute()
    if index is None:  # an archived run: its leaves are all in the archive
        found = leaf_index(db, _NO_SIZE_LIMIT, run_id=run_id)
        return None if found is None else (found, leaf_hash_at(db, found) or b"")
    index, moved = int(index), int(moved or 0)
    if index >= moved:
        text = db.redis.lindex(LEAVES, index - moved)
        if text is not None:
            return index, leaf_hash(text)
    digest = leaf_hash_at(db, index)  # moved since it was read
    return None if digest is None else (index, digest)
