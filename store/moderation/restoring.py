"""Moderators' changes to a run: voiding it with no dispute, restoring a voided run, recording a re-verification.

Each is one Lua script that changes the run, its audit entry and the
player's board places together (``scripts.void_run``, ``scripts.restore_run``, ``scripts.reverify_run``),
from all the player's runs, the archived ones too; the run's boards the
archive holds come back to Redis first (``store.boards.cooling.hot_boards``). A banned or hidden player's
places are withheld again after (``store.sanctions``).
"""

from domain.boards import boards_of
from domain.errors import AlreadyVoid, NoSuchRun, NotInError, NotVoid, RunPending
from domain.run import Run
from store.base.clock import now_ms
from store.base.database import Database
from store.boards.cooling import hot_boards
from store.moderation import scripts
from store.queue.pending import queue_alone
from store.runs.history import find_run, get_run, hot_run
from store.runs.index import stored_run_ids
from store.runs.verdicts import verdict_fields
from store.sanctions.places import keep_withheld
from store.sanctions.sanctions import REQUEUE, RESTORE, REVERIFY, VOID, log_action
from store.tournaments.tournaments import note_revision
from store.webhooks.hooks import wake_if_waiting


def void_run(db: Database, run_id: str, moderator: str, note: str) -> None:
    """Void a run with no dispute (a moderator's own finding, ``note`` saying why): as a dispute's void, off
    every board, the player's next best run taking the place, a ``run.voided`` event.

    An archived run comes back to Redis first, and its archived boards too. Raises ``NoSuchRun``,
    ``AlreadyVoid`` or ``RunPending``.
    """
    run = hot_run(db, run_id)
    at = now_ms()
    with hot_boards(db, boards_of(run)):
        answer = scripts.void_run(db, run=run, moderator=moderator, note=note, at_ms=at)
    keep_withheld(db, [run.player])
    if answer == "void":
        raise AlreadyVoid()
    if answer == "pending":
        raise RunPending("The run has no verdict yet; void it once it has one.")
    log_action(db, VOID, run.player, moderator, at, run_id=run.id, reason=note)
    note_revision(db, run)
    wake_if_waiting(db)  # its run.voided event, if it recorded one, delivered without waiting for the sweeper


def restore_run(db: Database, run_id: str, moderator: str, note: str = "") -> None:
    """Undo a void: the run is back to its verdict, the player's places recomputed; ``note``, the
    moderator's reason, goes in the audit entry.

    An archived run comes back to Redis first (``hot_run``), and its archived boards too
    (``hot_boards``). Raises ``NoSuchRun`` or ``NotVoid``.
    """
    run = hot_run(db, run_id)
    at = now_ms()
    with hot_boards(db, boards_of(run)):
        answer = scripts.restore_run(db, run=run, moderator=moderator, at_ms=at, note=note)
    keep_withheld(db, [run.player])  # a banned or hidden player's places stay off the boards
    if answer == "not_void":
        raise NotVoid()
    log_action(db, RESTORE, run.player, moderator, at, run_id=run.id, reason=note)
    note_revision(db, run)


def record_reverification(db: Database, run: Run, verdict: dict, actor_kind: str, actor: str,
                          *, log_unchanged: bool = True) -> bool:
    """Write the current engine's ``verdict`` over the stored one; True if it changed.

    The audit log gets a ``reverified`` entry (for an unchanged verdict only
    with ``log_unchanged``). Raises ``RunPending`` for a run still waiting for its worker.
    """
    at = now_ms()
    with hot_boards(db, boards_of(run)):
        answer = scripts.reverify_run(db, run=run, actor_kind=actor_kind, actor=actor, at_ms=at,
                                      log_unchanged=log_unchanged,
                                      fields={**verdict_fields(verdict), "reverified_ms": at})
    keep_withheld(db, [run.player])
    if answer == "pending":
        raise RunPending()
    if actor_kind == "moderator":
        log_action(db, REVERIFY, run.player, actor, at, run_id=run.id, changed=answer == "changed")
    if answer == "changed":
        note_revision(db, run)
    return answer == "changed"


def run_ids(db: Database, since_ms: int | None = None) -> list[str]:
    """Every run id, oldest first (submitted at or after ``since_ms``, if given)."""
    return stored_run_ids(db, since_ms if since_ms is not None else "-inf")


def requeue_run(db: Database, run_id: str, moderator: str) -> Run:
    """Queue an ``error`` run's verification again (a moderator's call): the run
    once pending again, read before its job is queued (a worker may verify it at once).

    Raises ``NoSuchRun``, or ``NotInError`` for a run not in ``error``.
    """
    if not scripts.requeue_run(db.redis, run_id=run_id, at_ms=now_ms(), moderator=moderator):
        if find_run(db, run_id) is None:
            raise NoSuchRun(run_id)
        raise NotInError()
    requeued = get_run(db, run_id)
    log_action(db, REQUEUE, requeued.player, moderator, now_ms(), run_id=run_id)
    queue_alone(db, run_id)
    return requeued
