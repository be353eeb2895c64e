"""The operator's passes over the whole store: moving old runs and cold boards to the archive
(``retention``), ``scoundrel check`` (``consistency``) and ``scoundrel migrate`` (``migration``)."""

from store.operations.consistency import check, place_on_seed_boards
from store.operations.migration import BATCH as MIGRATION_BATCH
from store.operations.migration import migrate, run_count
from store.operations.move_off_cluster import BATCH as MOVE_BATCH
from store.operations.move_off_cluster import MoveRefused, masters, move_off
from store.operations.retention import archive_old_runs, due, scheduled_pass

__all__ = [
    "check", "place_on_seed_boards", "MIGRATION_BATCH", "migrate", "run_count", "MOVE_BATCH", "MoveRefused",
    "masters", "move_off", "archive_old_runs", "due", "scheduled_pass",
]
