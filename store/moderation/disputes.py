"""Disputes: a player asks moderators to look at a run; a moderator upholds or voids it.

Filing a dispute and resolving it each change the dispute, the run's audit
log and (for a void) the boards in one Lua script, so a dispute is never
resolved without its run being voided, nor the other way round.
"""

import secrets

from domain.boards import boards_of
from domain.errors import AlreadyResolved, NoSuchDispute, NoSuchRun, RunPending
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.listing import indexed_page
from store.base.packing import iso_time
from store.boards.cooling import hot_boards
from store.moderation import scripts
from store.runs.history import hot_run
from store.sanctions.places import keep_withheld
from store.sanctions.sanctions import UPHOLD, VOID, log_action
from store.tournaments.tournaments import note_revision
from store.webhooks.hooks import wake_if_waiting

# A dispute's statuses: the one home of these words (the schemas and the Lua scripts get them from here).
OPEN = "open"
RESOLVED = "resolved"
STATUSES = (OPEN, RESOLVED)
DECISIONS = ("uphold", "void")  # how a moderator resolves one


def dispute_view(fields: dict) -> dict:
    """A stored dispute as the API shows it."""
    return {
        "id": fields["id"],
        "run_id": fields["run_id"],
        "player": fields["player"],
        "reason": fields["reason"],
        "status": fields["status"],
        "filed_at": iso_time(fields.get("filed_ms")),
        "decision": fields.get("decision") or None,
        "note": fields.get("note") if fields.get("status") == RESOLVED else None,
        "moderator": fields.get("moderator") or None,
        "resolved_at": iso_time(fields.get("resolved_ms")),
    }


def get_dispute(db: Database, dispute_id: str) -> dict:
    """A dispute as the API shows it. Raises ``NoSuchDispute``."""
    fields = db.redis.hgetall(keys.dispute(dispute_id))
    if not fields:
        raise NoSuchDispute(dispute_id)
    return dispute_view(fields)


def file_dispute(db: Database, run_id: str, player: str, reason: str) -> dict:
    """Open a dispute of ``run_id`` by ``player`` (an archived run comes back to Redis first). Raises ``NoSuchRun``."""
    hot_run(db, run_id)
    dispute_id = secrets.token_hex(8)
    if not scripts.file_dispute(db.redis, run_id=run_id, dispute_id=dispute_id, player=player, reason=reason,
                                filed_ms=now_ms(), open_status=OPEN):
        raise NoSuchRun(run_id)
    return get_dispute(db, dispute_id)


def list_disputes(db: Database, status: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, disputes)``: a page of the disputes with ``status``, oldest first (a queue to work through)."""
    total, disputes = indexed_page(db, keys.disputes(status), keys.dispute, offset, limit)
    return total, [dispute_view(fields) for fields in disputes]


def resolve_dispute(db: Database, dispute_id: str, moderator: str, decision: str, note: str) -> dict:
    """Uphold the run, or void it (off every board; the player's next best run takes the place).
    An archived run comes back to Redis first, and its archived boards too (``hot_boards``).

    Raises ``NoSuchDispute``, ``AlreadyResolved`` or ``RunPending``.
    """
    run = hot_run(db, get_dispute(db, dispute_id)["run_id"])  # a Run
    at = now_ms()
    with hot_boards(db, boards_of(run)):
        answer = scripts.resolve_dispute(db, dispute_id=dispute_id, run=run, moderator=moderator,
                                         decision=decision, note=note, at_ms=at, open_status=OPEN,
                                         resolved_status=RESOLVED)
    keep_withheld(db, [run.player])  # a void recomputes the player's places: a banned or hidden player's stay off
    if answer == "resolved":
        raise AlreadyResolved()
    if answer == "pending":
        raise RunPending("The run has no verdict yet; resolve the dispute once it has one.")
    log_action(db, VOID if decision == VOID else UPHOLD, run.player, moderator, at, run_id=run.id,
               dispute_id=dispute_id, reason=note)
    if decision == "void":
        note_revision(db, run)
        wake_if_waiting(db)  # its run.voided event, if it recorded one, delivered without waiting for the sweeper
    return get_dispute(db, dispute_id)
