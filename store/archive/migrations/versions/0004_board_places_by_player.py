"""A player's archived places found by the player (an erasure renames or removes them all).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_archived_board_places_player", "archived_board_places", ["player"])


def downgrade() -> None:
    op.drop_index("ix_archived_board_places_player", table_name="archived_board_places")
