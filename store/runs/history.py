"""A run wherever it lives: in Redis while hot, in the archive once retention moved it.

Reads look in Redis first and fall back to the archive, so ``GET
/v1/runs/<id>``, a player's runs, the replay, the audit log and the viewer
answer alike for both. A run in both places (a move interrupted between
the archive's commit and the Redis delete) is read from Redis, which is
the truth until the next retention pass finishes the move.

A change to an archived run (a dispute, a moderator's void, restore or
re-verification) first brings it back into Redis with ``hot_run``, then
goes the usual way: the run is hot again, and it leaves Redis again like
any run, ``SCOUNDREL_HOT_DAYS`` after it came back. A board place names its run by id,
so a run found through a board is found here, hot or archived.
"""

from domain.errors import NoSuchRun
from domain.run import Run
from store.base import keys
from store.base.database import Database
from store.runs.audit import audit_log, audit_logs
from store.runs.records import load_run, load_runs, run_from_stored
from store.runs.removal import reinstate_run

HOT_RUN_ATTEMPTS = 3  # a retention pass may archive the run anew while it comes back: look again


def find_run(db: Database, run_id: str) -> Run | None:
    """A run, hot or archived, or None."""
    return find_runs(db, [run_id])[0]


def find_runs(db: Database, run_ids: list[str]) -> list[Run | None]:
    """Each run, hot or archived (None where there is none), in one round trip to each place."""
    found = dict(zip(run_ids, load_runs(db, run_ids), strict=True))
    archived = db.archive.load([run_id for run_id, run in found.items() if run is None])
    found.update({run_id: run_from_stored(run_id, copy.fields) for run_id, copy in archived.items()})
    return [found[run_id] for run_id in run_ids]


def get_run(db: Database, run_id: str) -> Run:
    """A run, hot or archived. Raises ``NoSuchRun``: the one "no such run"."""
    run = find_run(db, run_id)
    if run is None:
        raise NoSuchRun(run_id)
    return run


def run_audit_log(db: Database, run_id: str) -> list[dict]:
    """Every audit entry of a run, hot or archived, oldest first. Raises ``NoSuchRun``."""
    if load_run(db, run_id) is not None:
        return audit_log(db, run_id)
    archived = db.archive.load([run_id]).get(run_id)
    if archived is None:
        raise NoSuchRun(run_id)
    return archived.audit


def run_audit_logs(db: Database, run_ids: list[str]) -> list[list[dict]]:
    """Every audit entry of each run, hot or archived, oldest first (none for a run in neither place)."""
    logs = audit_logs(db, run_ids)  # a run in Redis has its submission's entry at least
    archived = db.archive.load([run_id for run_id, log in zip(run_ids, logs, strict=True) if not log])
    return [log or (archived[run_id].audit if run_id in archived else [])
            for run_id, log in zip(run_ids, logs, strict=True)]


def hot_run(db: Database, run_id: str) -> Run:
    """A run in Redis, bringing it back from the archive first if it is there.

    Written to Redis before it is deleted from the archive (and only if the
    archive still holds the row that was read), so a crash in between leaves
    it in both places, never in neither. Raises ``NoSuchRun``.
    """
    for _ in range(HOT_RUN_ATTEMPTS):
        run = load_run(db, run_id)
        if run is not None:
            return run
        archived = db.archive.load([run_id]).get(run_id)
        if archived is None:
            break
        reinstate_run(db, run_from_stored(run_id, archived.fields), archived.audit)
        db.archive.delete_row(archived)
    raise NoSuchRun(run_id)


def player_runs(db: Database, player: str, offset: int, limit: int) -> tuple[int, list[Run]]:
    """``(total, runs)``: a page of the player's runs, hot and archived, newest first."""
    wanted = offset + limit
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.player_runs(player))
        pipe.zrevrange(keys.player_runs(player), 0, wanted - 1, withscores=True)
        hot_total, hot = pipe.execute()
    archived_total = db.archive.player_count(player)
    newest = {run_id: (submitted, run_id, False) for submitted, run_id in
              (db.archive.player_newest(player, wanted) if archived_total else [])}
    newest.update({run_id: (int(submitted), run_id, True) for run_id, submitted in hot})
    page = sorted(newest.values(), reverse=True)[offset:wanted]
    hot_ids = [run_id for _, run_id, is_hot in page if is_hot]
    found = {run.id: run for run in load_runs(db, hot_ids) if run}
    archived = db.archive.load([run_id for _, run_id, is_hot in page if not is_hot])
    found.update({run_id: run_from_stored(run_id, copy.fields) for run_id, copy in archived.items()})
    return hot_total + archived_total, [found[run_id] for _, run_id, _ in page if run_id in found]
