"""The archive's tables, described once: Alembic's migrations create them, the queries name them.

One row per archived run: the columns the archive is searched by (the run
id, the player with the submission time for a player's history) and the
run itself in its stored form (its hash's fields, ``store.run_records``) with its
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
