"""The public log's leaves, complete subtrees and signed checkpoints (``store.log``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "log_leaves",
        sa.Column("index", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("run_id", sa.String(64), nullable=False),
        sa.Column("leaf_hash", sa.LargeBinary(32), nullable=False),
        sa.Column("leaf", sa.Text, nullable=False),
    )
    op.create_index("ix_log_leaves_run", "log_leaves", ["run_id", "index"])
    op.create_index("ix_log_leaves_hash", "log_leaves", ["leaf_hash"])
    op.create_table(
        "log_nodes",
        sa.Column("level", sa.SmallInteger, primary_key=True, autoincrement=False),
        sa.Column("index", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("hash", sa.LargeBinary(32), nullable=False),
    )
    op.create_table(
        "log_checkpoints",
        sa.Column("size", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("signed_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("log_checkpoints")
    op.drop_table("log_nodes")
    op.drop_index("ix_log_leaves_hash", table_name="log_leaves")
    op.drop_index("ix_log_leaves_run", table_name="log_leaves")
    op.drop_table("log_leaves")
