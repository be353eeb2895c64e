"""The archive's tables, described once: Alembic's migrations create them, the queries name them.

``archived_runs`` holds one row per archived run: the columns the archive is searched by (the run
id, the player with the submission time for a player's history) and the
run itself in its stored form (its hash's fields, ``store.runs.records``) with its
audit log as the API shows it, so an archived run answers every read a hot
one does, whatever Redis's layout becomes.
"""

import sqlalchemy as sa

metadata = sa.MetaData()

archived_runs = sa.Table(
    "archived_runs", metadata,
    sa.Column("run_id", sa.String(64), primary_key=True),
    sa.Column("player", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("status", sa.String(32), nullable=False),
    sa.Column("submitted_ms", sa.BigInteger, nullable=False),
    sa.Column("archived_ms", sa.BigInteger, nullable=False),
    sa.Column("run", sa.JSON, nullable=False),  # the run's stored fields, name → string
    sa.Column("audit", sa.JSON, nullable=False),  # its audit entries, oldest first, as the API shows them
    sa.Index("ix_archived_runs_player_submitted", "player", "submitted_ms"),
)

# One row per place on a board that left Redis whole (a kind that ``cools``, ``domain.boards``):
# what the board shows of it, so reading the board needs no run. ``board`` is the board's key
# parts joined by ':' (``store.base.keys.board_places``' tail); ``rank_key`` the packed rank key
# (``store.base.packing.pack``: score, then submission time).
archived_board_places = sa.Table(
    "archived_board_places", metadata,
    sa.Column("kind", sa.String(32), primary_key=True),
    sa.Column("board", sa.String(200), primary_key=True),
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("rank_key", sa.BigInteger, nullable=False),
    sa.Column("run_id", sa.String(64), nullable=False),
    sa.Column("archived_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_archived_board_places_rank", "kind", "board", "rank_key", "player"),
    sa.Index("ix_archived_board_places_player", "player"),
)

# The public log (``store.log``, ``domain.transparency``): each leaf that left Redis, by its index, with its
# run (a run's leaves found by it) and its RFC 9162 hash (a leaf found by it); the hash of every complete
# subtree, by (level, index): 2**level leaves from leaf index * 2**level, level 0 the leaves' own hashes, so
# any proof reads O(log n) rows; and every signed checkpoint, by the tree size it signs.
log_leaves = sa.Table(
    "log_leaves", metadata,
    sa.Column("index", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("run_id", sa.String(64), nullable=False),
    sa.Column("leaf_hash", sa.LargeBinary(32), nullable=False),
    sa.Column("leaf", sa.Text, nullable=False),
    sa.Index("ix_log_leaves_run", "run_id", "index"),
    sa.Index("ix_log_leaves_hash", "leaf_hash"),
)
log_nodes = sa.Table(
    "log_nodes", metadata,
    sa.Column("level", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("index", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("hash", sa.LargeBinary(32), nullable=False),
)
log_checkpoints = sa.Table(
    "log_checkpoints", metadata,
    sa.Column("size", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("signed_ms", sa.BigInteger, nullable=False),
)
