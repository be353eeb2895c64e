"""Moving the log's leaves from Redis to the archive (``store.log``): committed first, idempotent, and, with
``SCOUNDREL_WAIT_REPLICAS``, only leaves the replicas hold."""

import pytest

from domain.transparency import VERDICT, Leaf, leaf_text
from store.base.database import Database
from store.base.errors import NotReplicated
from store.log import archived_size, move_leaves
from store.log.leaves import LEAVES, MOVED
from worker.registry import JOBS


def _leaf(index: int) -> str:
    return leaf_text(Leaf(VERDICT, 1, f"run-{index}", "open", "classic", "s", "m", "verified", 3, "r", "e", "p"), index)


def test_leaves_move_to_the_archive_once(archived_store_db):
    db = archived_store_db
    db.redis.rpush(LEAVES, *(_leaf(index) for index in range(3)))
    assert move_leaves(db) == 3
    assert (archived_size(db), db.redis.llen(LEAVES), db.redis.get(MOVED)) == (3, 0, "3")
    db.redis.rpush(LEAVES, _leaf(3))
    assert move_leaves(db) == 1 and archived_size(db) == 4
    assert move_leaves(db) == 0


def test_a_leaf_out_of_place_is_refused_not_archived(archived_store_db):
    db = archived_store_db
    db.redis.rpush(LEAVES, _leaf(0), _leaf(2))
    with pytest.raises(ValueError, match="leaf 1 says it is leaf 2"):
        move_leaves(db)
    assert archived_size(db) == 0 and db.redis.llen(LEAVES) == 2


def test_only_leaves_the_replicas_hold_reach_the_archive(archived_store_db, redis_url):
    waiting = Database(redis_url, JOBS, archive_url=str(archived_store_db.archive.engine.url), wait_replicas=1)
    try:
        waiting.redis.rpush(LEAVES, _leaf(0))
        with pytest.raises(NotReplicated):  # this Redis has no replica: nothing it holds is safe from a failover
            move_leaves(waiting)
        assert archived_size(waiting) == 0 and waiting.redis.llen(LEAVES) == 1
    finally:
        waiting.close()


def test_a_redis_that_lost_the_logs_state_forks_nothing(archived_store_db):
    """Leaves given indexes the archive holds already, by a Redis that lost the log's state, are refused and
    kept, never dropped; ``resume_log`` (the worker's first step) gives the state back."""
    from store.log import resume_log
    from store.log.leaves import SIZE

    db = archived_store_db
    db.redis.rpush(LEAVES, *(_leaf(index) for index in range(3)))
    assert move_leaves(db) == 3
    db.redis.delete(SIZE, MOVED)  # the state lost; the archive keeps its 3 leaves
    assert resume_log(db) == 3
    assert db.redis.incr(SIZE) - 1 == 3  # the next leaf's index, as the scripts give it
    db.redis.delete(SIZE, MOVED)
    db.redis.rpush(LEAVES, leaf_text(Leaf(VERDICT, 2, "other", "open", "classic", "s", "m", "rejected", None, "r",
                                          "e", "q"), 0))
    with pytest.raises(ValueError, match="leaf 0 in Redis differs"):
        move_leaves(db)
    assert db.redis.llen(LEAVES) == 1 and archived_size(db) == 3


def test_a_key_file_that_is_not_a_signer_key_is_one_line_naming_it(tmp_path):
    from store.log import LogKeyError, load_signer

    assert load_signer("") is None  # no key: the log is kept, no checkpoint signed
    bad = tmp_path / "log.key"
    bad.write_text("scoundrel+00000000+AAAA")
    with pytest.raises(LogKeyError, match=f"SCOUNDREL_LOG_KEY='{bad}': not a signer key"):
        load_signer(str(bad))
    with pytest.raises(LogKeyError, match="No such file"):
        load_signer(str(tmp_path / "missing.key"))
