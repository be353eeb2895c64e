"""Archived runs keep their moves as the store does: one character each (``codes``), not spelt out.

A row whose run holds ``moves`` (one space-separated string) gets ``codes``
(``store.runs.move_codes``) instead, so the archive's reader knows one shape.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

from store.runs import move_codes

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BATCH = 1000  # rows rewritten per query

_runs = sa.table("archived_runs", sa.column("run_id", sa.String), sa.column("run", sa.JSON))


def upgrade() -> None:
    connection = op.get_bind()
    spelt = _runs.c.run["moves"].as_string().isnot(None)
    last = ""
    while True:
        rows = connection.execute(sa.select(_runs.c.run_id, _runs.c.run).where(spelt, _runs.c.run_id > last)
                                  .order_by(_runs.c.run_id).limit(BATCH)).all()
        if not rows:
            return
        for row in rows:
            connection.execute(sa.update(_runs).where(_runs.c.run_id == row.run_id).values(run=_with_codes(row.run)))
        last = rows[-1].run_id


def _with_codes(run: dict) -> dict:
    fields = {name: value for name, value in run.items() if name != "moves"}
    if run["moves"]:
        fields["codes"] = move_codes.encode(run["moves"].split(" "))
    return fields


def downgrade() -> None:
    connection = op.get_bind()
    coded = _runs.c.run["codes"].as_string().isnot(None)
    for row in connection.execute(sa.select(_runs.c.run_id, _runs.c.run).where(coded)).all():
        fields = {name: value for name, value in row.run.items() if name != "codes"}
        fields["moves"] = " ".join(move_codes.decode(row.run["codes"]))
        connection.execute(sa.update(_runs).where(_runs.c.run_id == row.run_id).values(run=fields))
