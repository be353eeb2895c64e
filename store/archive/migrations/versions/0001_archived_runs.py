"""The archived runs table.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archived_runs",
        sa.Column("run_id", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("submitted_ms", sa.BigInteger, nullable=False),
        sa.Column("archived_ms", sa.BigInteger, nullable=False),
        sa.Column("run", sa.JSON, nullable=False),
        sa.Column("audit", sa.JSON, nullable=False),
    )
    op.create_index("ix_archived_runs_player_submitted", "archived_runs", ["player", "submitted_ms"])


def downgrade() -> None:
    op.drop_index("ix_archived_runs_player_submitted", table_name="archived_runs")
    op.drop_table("archived_runs")
