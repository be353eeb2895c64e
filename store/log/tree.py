"""The public log in the archive: its leaves, its complete subtrees, its signed checkpoints, and the proofs.

``move_leaves`` takes the oldest leaves off Redis's list into the archive
with every complete subtree they finish (``domain.transparency.completed``),
committed first and dropped from Redis after (``lua/move_log.lua``), so a
crash in between moves them again, idempotent on the index. With
``SCOUNDREL_WAIT_REPLICAS`` it moves only leaves the replicas hold: a leaf
a failover could lose never reaches the archive, so no checkpoint ever
signs it and the log cannot fork.

The tree is the archive's leaves; a proof reads the complete subtrees it
needs (``inclusion_nodes``, ``consistency_nodes``: O(log n)) in one query.
"""

import functools
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from domain.transparency import (
    Checkpoint,
    Node,
    ProofError,
    completed,
    consistency_nodes,
    consistency_proof,
    inclusion_nodes,
    inclusion_proof,
    leaf_hash,
    node_hash,
    parse_leaf,
    root_hash,
    root_nodes,
)
from store.archive.tables import log_checkpoints, log_leaves, log_nodes
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.replicas import written
from store.lua import LuaScript

from .leaves import LEAVES, MOVED, SIZE
from .notes import Signer

MOVE_BATCH = 5000  # leaves moved to the archive a round trip
_MOVE_LOG = LuaScript("move_log")
_PROBE_MS = 10_000

_SIZE = sa.select(sa.func.coalesce(sa.func.max(log_leaves.c.index) + 1, 0))  # by the primary key: no scan
_NODES = sa.select(log_nodes.c.level, log_nodes.c.index, log_nodes.c.hash)
_CHECKPOINT_COUNT = sa.select(sa.func.count()).select_from(log_checkpoints)
_CHECKPOINTS = (sa.select(log_checkpoints.c.note).order_by(log_checkpoints.c.size)
                .offset(sa.bindparam("offset")).limit(sa.bindparam("limit")))
_LATEST = sa.select(log_checkpoints.c.size, log_checkpoints.c.note).order_by(log_checkpoints.c.size.desc()).limit(1)
_RUN_LEAF = (sa.select(log_leaves.c.index).where(log_leaves.c.run_id == sa.bindparam("run_id"),
                                                   log_leaves.c.index < sa.bindparam("size"))
             .order_by(log_leaves.c.index.desc()).limit(1))
_HASH_LEAF = (sa.select(log_leaves.c.index).where(log_leaves.c.leaf_hash == sa.bindparam("leaf_hash"),
                                                    log_leaves.c.index < sa.bindparam("size"))
              .order_by(log_leaves.c.index).limit(1))
_ENTRIES = (sa.select(log_leaves.c.index, log_leaves.c.leaf, log_leaves.c.leaf_hash)
            .where(log_leaves.c.index >= sa.bindparam("start"), log_leaves.c.index < sa.bindparam("end"))
            .order_by(log_leaves.c.index))
_RUN_LATEST = (sa.select(log_leaves.c.index, log_leaves.c.leaf_hash)
               .where(log_leaves.c.run_id == sa.bindparam("run_id")).order_by(log_leaves.c.index.desc()).limit(1))


@dataclass(frozen=True)
class Entry:
    """One leaf of the log: its index, its exact text, its RFC 9162 hash."""

    index: int
    leaf: str
    leaf_hash: bytes


def archived_size(db: Database) -> int:
    """How many leaves the archive holds: the largest tree it can prove anything about."""
    with db.archive.engine.connect() as connection:
        return connection.execute(_SIZE).scalar_one()


def publish(db: Database, signer: Signer | None) -> Checkpoint | None:
    """The worker's step: every leaf Redis holds moved to the archive, then, with a key, a checkpoint
    signed if the tree grew: the new checkpoint, or None."""
    while move_leaves(db) == MOVE_BATCH:
        pass
    return None if signer is None else sign_checkpoint(db, signer)


def _nodes(connection, wanted: list[Node]) -> dict[Node, bytes]:
    """The hashes of the ``wanted`` subtrees, in one query of one lookup by primary key each."""
    wanted = sorted(set(wanted))
    if not wanted:
        return {}
    named = {f"{part}{n}": value for n, (level, index) in enumerate(wanted) for part, value in (("l", level),
                                                                                                ("i", index))}
    return {(level, index): digest for level, index, digest in connection.execute(_lookups(len(wanted)), named)}


@functools.cache
def _lookups(count: int) -> sa.CompoundSelect | sa.Select:
    """``count`` subtrees' lookups, built once a count (a proof reads at most a few dozen): SQLAlchemy then
    compiles each once, where a statement built per call costs more than SQLite takes to answer it."""
    lookups = [_NODES.where(log_nodes.c.level == sa.bindparam(f"l{n}"), log_nodes.c.index == sa.bindparam(f"i{n}"))
               for n in range(count)]
    return lookups[0] if count == 1 else sa.union_all(*lookups)


def _reader(found: dict[Node, bytes]):
    def node(position: Node) -> bytes:
        try:
            return found[position]
        except KeyError:
            raise ProofError(f"the archive lacks subtree {position}") from None
    return node


def move_leaves(db: Database) -> int:
    """Move the oldest leaves Redis holds (up to ``MOVE_BATCH``) to the archive: how many moved."""
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.get(MOVED)
        pipe.lrange(LEAVES, 0, MOVE_BATCH - 1)
        moved, texts = pipe.execute()
    if not texts:
        return 0
    # the leaves read were written before this write: once replicas hold it, they hold them too
    written(db, db.redis, [lambda client: client.set(keys.write_probe(), "1", px=_PROBE_MS)])
    start = int(moved or 0)
    with db.archive.engine.begin() as connection:
        held = connection.execute(_SIZE).scalar_one()
        _same_as_held(connection, start, texts[:max(0, held - start)])
        if held < start + len(texts):
            _append(connection, start, texts, held)
    return len(texts) if _MOVE_LOG.run(db.redis, [LEAVES, MOVED], [start, len(texts)]) else 0


def _same_as_held(connection, start: int, texts: list[str]) -> None:
    """Leaves the archive holds already (a move cut short before Redis dropped them) must be the same
    leaves: any other text at an index it holds is a fork (a Redis that lost the log's state and gave
    indexes again), refused rather than dropped, so no checkpoint ever covers two logs."""
    if not texts:
        return
    rows = connection.execute(_ENTRIES, {"start": start, "end": start + len(texts)})
    for index, text, _ in rows:
        if text != texts[index - start]:
            raise ProofError(f"leaf {index} in Redis differs from the archive's: the log's state in Redis was "
                             "lost (scoundrel's worker restores it at its start)")


def resume_log(db: Database) -> int:
    """Give the log's state back to a Redis that lost it (a restart without persistence, a failover to a
    replica that had none of it): when Redis holds no leaf and no count, both counts become the archive's
    size, so the next leaf takes the next index. The log's size after."""
    held = archived_size(db)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.exists(SIZE, MOVED, LEAVES)
        pipe.get(SIZE)
        present, size = pipe.execute()
    if present == 0 and held:
        with db.redis.pipeline(transaction=True) as pipe:
            pipe.set(SIZE, held, nx=True)
            pipe.set(MOVED, held, nx=True)
            pipe.execute()
        return held
    return int(size or 0)


def _append(connection, start: int, texts: list[str], held: int) -> None:
    """Leaves ``start``… (those from ``held`` on are new) and the complete subtrees they finish, in one
    transaction. A leaf whose text does not carry its own index is refused: the log would no longer
    say what it proves."""
    if held < start:
        raise ProofError(f"the archive holds {held} leaves and the next to move is {start}: a gap")
    new = [(index, text) for index, text in enumerate(texts, start) if index >= held]
    known = _nodes(connection, root_nodes(held))  # the left edge the new leaves join
    leaf_rows, node_rows = [], []
    for index, text in new:
        document = parse_leaf(text)
        if document.get("index") != index:
            raise ProofError(f"leaf {index} says it is leaf {document.get('index')}")
        digest = leaf_hash(text)
        leaf_rows.append({"index": index, "run_id": document.get("run", ""), "leaf_hash": digest, "leaf": text})
        for level, position in completed(index):
            hashed = digest if level == 0 else node_hash(known[(level - 1, 2 * position)],
                                                          known[(level - 1, 2 * position + 1)])
            known[(level, position)] = hashed
            node_rows.append({"level": level, "index": position, "hash": hashed})
    connection.execute(log_leaves.insert(), leaf_rows)
    connection.execute(log_nodes.insert(), node_rows)


def sign_checkpoint(db: Database, signer: Signer) -> Checkpoint | None:
    """Sign a checkpoint of the archive's tree if it has grown since the last one: the new checkpoint, or
    None. Two workers signing the same size at once keep the first one's note."""
    with db.archive.engine.begin() as connection:
        size = connection.execute(_SIZE).scalar_one()
        latest = connection.execute(_LATEST).first()
        if size == 0 or (latest is not None and latest.size >= size):
            return None
        checkpoint = Checkpoint(signer.name, size, _root(connection, size))
        connection.execute(_insert_ignoring(db, log_checkpoints).values(
            size=size, note=signer.sign(checkpoint.text()), signed_ms=now_ms()))
    return checkpoint


def _insert_ignoring(db: Database, table: sa.Table):
    dialect = postgresql if db.archive.engine.dialect.name == "postgresql" else sqlite
    return dialect.insert(table).on_conflict_do_nothing()


def _root(connection, size: int) -> bytes:
    return root_hash(size, _reader(_nodes(connection, root_nodes(size))))


def tree_root(db: Database, size: int) -> bytes:
    """The root hash of the tree of the first ``size`` leaves the archive holds: one read per 1 bit of ``size``."""
    _in_tree(db, size)
    with db.archive.engine.connect() as connection:
        return _root(connection, size)


def latest_checkpoint(db: Database) -> tuple[int, str] | None:
    """``(size, signed note)`` of the newest checkpoint, or None before the first."""
    with db.archive.engine.connect() as connection:
        row = connection.execute(_LATEST).first()
    return None if row is None else (row.size, row.note)


def checkpoints(db: Database, offset: int, limit: int) -> tuple[int, list[str]]:
    """``(total, notes)``: the signed checkpoints from the ``offset``-th, smallest tree first."""
    with db.archive.engine.connect() as connection:
        total = connection.execute(_CHECKPOINT_COUNT).scalar_one()
        return total, list(connection.execute(_CHECKPOINTS, {"offset": offset, "limit": limit}).scalars())


def entries(db: Database, start: int, end: int) -> list[Entry]:
    """The archive's leaves ``start`` to ``end`` (excluded), in order."""
    with db.archive.engine.connect() as connection:
        return [Entry(*row)
                for row in connection.execute(_ENTRIES, {"start": start, "end": end})]


def leaf_index(db: Database, size: int, *, run_id: str | None = None, digest: bytes | None = None) -> int | None:
    """The index, within the tree of ``size`` leaves, of the run's latest leaf, or of the first leaf with
    hash ``digest``; None if it has none there."""
    query, named = (_RUN_LEAF, {"run_id": run_id}) if run_id is not None else (_HASH_LEAF, {"leaf_hash": digest})
    with db.archive.engine.connect() as connection:
        return connection.execute(query, {**named, "size": size}).scalar()


def run_log_entry(db: Database, run_id: str) -> tuple[int, bytes] | None:
    """``(index, leaf hash)`` of the run's latest leaf in the archive (the worker moves a leaf there within
    ``SCOUNDREL_LOG_INTERVAL`` seconds), or None before: one indexed read."""
    with db.archive.engine.connect() as connection:
        row = connection.execute(_RUN_LATEST, {"run_id": run_id}).first()
    return None if row is None else (row[0], row[1])


def _in_tree(db: Database, size: int) -> None:
    if size > archived_size(db):
        raise ProofError(f"the log has no tree of {size} leaves yet")


def prove_inclusion(db: Database, index: int, size: int) -> tuple[bytes, list[bytes]]:
    """Leaf ``index``'s hash and RFC 9162's inclusion proof of it in the tree of ``size`` leaves: one query.
    The subtrees read cover the tree's leaves whole, so a tree the archive does not hold yet lacks one of
    them: a ``ProofError``, as is a leaf past ``size``."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    with db.archive.engine.connect() as connection:
        found = _nodes(connection, [(0, index), *inclusion_nodes(index, size)])
    node = _reader(found)
    return node((0, index)), inclusion_proof(index, size, node)


def prove_consistency(db: Database, first: int, second: int) -> list[bytes]:
    """RFC 9162's consistency proof between the trees of ``first`` and ``second`` leaves: one query, after the
    caller has checked ``second`` against ``archived_size`` (a tree the archive does not hold yet lacks a
    subtree the proof reads: a ``ProofError``)."""
    with db.archive.engine.connect() as connection:
        found = _nodes(connection, consistency_nodes(first, second))
    return consistency_proof(first, second, _reader(found))
