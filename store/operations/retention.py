"""Retention: finished runs older than ``SCOUNDREL_HOT_DAYS`` leave Redis for the archive, and cold boards too.

A verified, rejected or void run submitted (and, if it came back from the
archive, brought back) longer ago than that moves to the archive, whether
or not it holds a board place: a place names its run by id and shows what
the board needs without it (``store.boards.pages``), and whatever reads a run
through a board finds it in the archive (``store.runs.history``). Runs move in
batches, each in three steps:

1. read the runs and their audit logs from Redis;
2. write them to the archive and commit (an upsert on the run id);
3. remove them from Redis (``store.runs.remove_runs``), each only if it is
   unchanged since step 1; a run that changed meanwhile stays in Redis and
   its fresh row is taken back out, and so is the row of a run an erasure
   took from Redis meanwhile (``store.privacy.erasure.erased_meanwhile``).

A crash after step 1 leaves everything in Redis; a crash after step 2
leaves the batch in both places, which reads answer from Redis and the
next pass finishes (the upsert writes the same rows again; and when such a
run must stay in Redis after all, an hour later the pass drops its row).
Nothing is lost and nothing is archived twice. Then the boards of the kinds
that cool and had no verdict for as long move the same way
(``store.boards.cooling``).

Workers run a pass every ``SCOUNDREL_ARCHIVE_INTERVAL`` seconds (one at a
time, under ``keys.archive_lock``); ``scoundrel archive`` runs one by hand.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from store.archive import ArchivedRun
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.boards.cooling import Tally as BoardTally
from store.boards.cooling import cool_boards
from store.privacy.erasure import erased_meanwhile
from store.runs.audit import archived_fields, audit_logs
from store.runs.index import players_with_runs, runs_between
from store.runs.records import run_from_stored, stored_hashes
from store.runs.removal import remove_runs

FINISHED = ("verified", "rejected", "void")  # the statuses a run leaves Redis in; pending and error stay
BATCH = 500  # runs read, written and removed together
DAY_MS = 86_400_000
# A row of a run that stays in Redis is left over from an interrupted move once it is this old (ms);
# a younger one may belong to a pass still running elsewhere, which needs it until it removes the run.
LEFTOVER_MS = 3_600_000


@dataclass
class Tally:
    """What a pass did: runs looked at, moved, and kept in Redis (still in play); boards moved."""

    examined: int = 0
    archived: int = 0
    unfinished: int = 0  # pending or in error
    returned: int = 0  # brought back from the archive more recently than the cutoff
    changed: int = 0  # changed while being moved: the next pass tries again
    boards: BoardTally = field(default_factory=BoardTally)  # cold boards moved, warm ones brought back


def due(db: Database, older_than_days: float) -> int:
    """How many runs were submitted longer ago than ``older_than_days`` (the pass's upper bound)."""
    cutoff = now_ms() - int(older_than_days * DAY_MS)
    with db.redis.pipeline(transaction=False) as pipe:
        for player in players_with_runs(db, cutoff):
            pipe.zcount(keys.player_runs(player), "-inf", cutoff)
        return sum(pipe.execute())


def archive_old_runs(db: Database, older_than_days: float, *, batch: int = BATCH,
                     progress: Callable[[int], object] | None = None) -> Tally:
    """Move every finished run older than ``older_than_days`` to the archive, then every board of
    a kind that cools with no place newer than that (``store.boards.cooling``).

    Walks the run lists of the players with a run old enough
    (``store.runs.index``), ``batch`` runs at a time; ``progress`` is told
    how many runs each batch looked at.
    """
    cutoff = now_ms() - int(older_than_days * DAY_MS)
    tally = Tally()
    run_ids: list[str] = []
    for player in players_with_runs(db, cutoff):
        for run_id, _ in runs_between(db, player, "-inf", cutoff, batch):
            run_ids.append(run_id)
            if len(run_ids) == batch:
                _archive_batch(db, run_ids, cutoff, tally, progress)
                run_ids = []
    if run_ids:
        _archive_batch(db, run_ids, cutoff, tally, progress)
    tally.boards = cool_boards(db, cutoff, batch)
    return tally


def _archive_batch(db: Database, run_ids: list[str], cutoff: int, tally: Tally,
                   progress: Callable[[int], object] | None) -> None:
    tally.examined += len(run_ids)
    if progress is not None:
        progress(len(run_ids))
    hashes = {fields["id"]: fields for fields in stored_hashes(db, run_ids) if fields is not None}
    runs = [run_from_stored(run_id, fields) for run_id, fields in hashes.items()]
    finished = [run for run in runs if run.status in FINISHED]
    tally.unfinished += len(runs) - len(finished)
    settled = [run for run in finished if (run.reinstated_ms or 0) < cutoff]
    tally.returned += len(finished) - len(settled)
    movable = settled
    moving = {run.id for run in movable}
    db.archive.delete_older([run.id for run in runs if run.id not in moving], now_ms() - LEFTOVER_MS)
    if not movable:
        return
    logs = audit_logs(db, [run.id for run in movable])
    # the archive keeps, and the removal compares, the hashes as read: the stored form
    stored = [hashes[run.id] for run in movable]
    archived = [ArchivedRun(archived_fields(fields), log) for fields, log in zip(stored, logs, strict=True)]
    write_archive(db, archived)
    answers = remove_runs(db, stored)
    kept = [run.id for run, answer in zip(movable, answers, strict=True) if answer == "changed"]
    gone = {run.id: run.player for run, answer in zip(movable, answers, strict=True) if answer == "gone"}
    erased = erased_meanwhile(db, set(gone.values()))
    taken_out = [run_id for run_id, player in gone.items() if player in erased]  # see ``erased_meanwhile``
    db.archive.delete([*kept, *taken_out])  # kept: still hot, Redis is their one home
    tally.changed += len(kept)
    tally.archived += len(movable) - len(kept) - len(taken_out)  # each run kept, taken out or archived


def write_archive(db: Database, runs: list[ArchivedRun]) -> None:
    """Step 2: the batch into the archive, committed (a fault test kills the archiver on either side)."""
    db.archive.write(runs, now_ms())


def scheduled_pass(db: Database, older_than_days: float, lock_seconds: float = 900.0) -> Tally | None:
    """A worker's pass, one worker at a time: None (nothing done) while another holds the lock.

    The lock's expiry is renewed after every batch, so a long pass keeps it
    and a worker killed mid-pass frees it within ``lock_seconds``.
    ``scoundrel archive`` takes no lock: passes side by side are safe, only wasteful.
    """
    lock_ms = int(lock_seconds * 1000)
    if not db.redis.set(keys.archive_lock(), "1", nx=True, px=lock_ms):
        return None

    def keep_lock(_: int) -> None:
        db.redis.pexpire(keys.archive_lock(), lock_ms)

    try:
        return archive_old_runs(db, older_than_days, progress=keep_lock)
    finally:
        db.redis.delete(keys.archive_lock())
