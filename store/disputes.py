"""Disputes: a player asks moderators to look at a run; a moderator upholds or voids it.

Filing a dispute and resolving it each change the dispute, the run's audit
log and (for a void) the boards in one Lua script, so a dispute is never
resolved without its run being voided, nor the other way round.
"""

import secrets

from . import keys
from .database import Database
from .listing import indexed_page
from .packing import iso_time
from .places import board_keys, call_with_player_runs
from .runs import load_run, now_ms

OPEN = "open"
RESOLVED = "resolved"
STATUSES = (OPEN, RESOLVED)
DECISIONS = ("uphold", "void")


class NoSuchRun(Exception):
    """The run does not exist."""


class NoSuchDispute(Exception):
    """The dispute does not exist."""


class AlreadyResolved(Exception):
    """The dispute was resolved before; a decision is final."""


class RunPending(Exception):
    """The run has no verdict yet, so there is nothing to void."""


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


def get_dispute(db: Database, dispute_id: str) -> dict | None:
    fields = db.redis.hgetall(keys.dispute(dispute_id))
    return dispute_view(fields) if fields else None


def file_dispute(db: Database, run_id: str, player: str, reason: str) -> dict:
    """Open a dispute of ``run_id`` by ``player``. Raises ``NoSuchRun``."""
    dispute_id = secrets.token_hex(8)
    filed = db.file_dispute_script(
        keys=[keys.run(run_id), keys.dispute(dispute_id), keys.disputes(OPEN), keys.audit(run_id)],
        args=[dispute_id, player, reason, now_ms()],
    )
    if not filed:
        raise NoSuchRun(run_id)
    return get_dispute(db, dispute_id)


def list_disputes(db: Database, status: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, disputes)``: a page of the disputes with ``status``, oldest first (a queue to work through)."""
    total, disputes = indexed_page(db, keys.disputes(status), keys.dispute, offset, limit)
    return total, [dispute_view(fields) for fields in disputes]


def resolve_dispute(db: Database, dispute_id: str, moderator: str, decision: str, note: str) -> dict:
    """Uphold the run, or void it (off every board; the player's next best run takes the place).

    Raises ``NoSuchDispute``, ``AlreadyResolved`` or ``RunPending``.
    """
    dispute = get_dispute(db, dispute_id)
    if dispute is None:
        raise NoSuchDispute(dispute_id)
    run = load_run(db, dispute["run_id"])
    answer = call_with_player_runs(
        db, db.resolve_dispute_script,
        [keys.dispute(dispute_id), keys.disputes(OPEN), keys.disputes(RESOLVED), keys.run(run["id"]),
         keys.audit(run["id"]), *board_keys(run)],
        [moderator, decision, note, now_ms()],
        run["player"],
    )
    if answer == "resolved":
        raise AlreadyResolved(dispute_id)
    if answer == "pending":
        raise RunPending(run["id"])
    return get_dispute(db, dispute_id)
