"""The places of boards that left Redis whole (``store.boards.cooling``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archived_board_places",
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("board", sa.String(200), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("rank_key", sa.BigInteger, nullable=False),
        sa.Column("run_id", sa.String(64), nullable=False),
        sa.Column("archived_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_archived_board_places_rank", "archived_board_places", ["kind", "board", "rank_key", "player"])


def downgrade() -> None:
    op.drop_index("ix_archived_board_places_rank", table_name="archived_board_places")
    op.drop_table("archived_board_places")
