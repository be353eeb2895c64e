"""Disputes: a player asks moderators to look at a run; a moderator upholds or voids it.

A dispute and the open disputes are the service's keys, its run is in the
run's shard, so filing is two steps: (1) the dispute filed, open, where a
moderator finds it; (2) the ``disputed`` entry on its run's audit log
(``log_filing``), unless the log has it. A filing stopped between the two
leaves an open dispute whose run's log lacks its entry, and the player no
answer: nothing a moderator acts on is lost, and resolving the dispute
writes the entry first (``log_filing`` is idempotent). Never the other way
round: no run's log names a dispute no one filed.

Resolving one is three steps, as the dispute (the service's shard), the run
(its own) and the boards (theirs) are apart: the run's step (the decision's
audit entry naming the dispute and, for a void, the run void with its
event, its places owed a recompute: ``lua/resolve_dispute.lua``), the
recompute of the player's places (``store.placing``), then the dispute
closed (``lua/close_dispute.lua``). A resolve cut short leaves the dispute
open: resolving it again finds the run's step done (its log names the
dispute) and takes the decision written there, so the dispute is never
resolved without its run being voided, nor the other way round; the
sweeper finishes a recompute left undone.
"""

import secrets

from domain.boards import boards_of
from domain.errors import AlreadyResolved, NoSuchDispute, RunPending

from . import keys, scripts
from .board_cooling import hot_boards
from .database import Database
from .history import hot_run
from .listing import indexed_page
from .packing import iso_time
from .placing import recomputed
from .runs import now_ms
from .webhooks import wake_if_waiting

# A dispute's statuses: the one home of these words (the schemas and the Lua scripts get them from here).
OPEN = "open"
RESOLVED = "resolved"
STATUSES = (OPEN, RESOLVED)
DECISIONS = ("uphold", "void")
_DECISIONS_WRITTEN = {"upheld": "uphold", "voided": "void"}  # the run's audit entry of each decision


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
    """Open a dispute of ``run_id`` by ``player`` (an archived run comes back to Redis first), in the
    steps the module describes. Raises ``NoSuchRun``."""
    hot_run(db, run_id)
    dispute_id = secrets.token_hex(8)
    scripts.file_dispute(db.redis, run_id=run_id, dispute_id=dispute_id, player=player, reason=reason,
                         filed_ms=now_ms(), open_status=OPEN)
    log_filing(db, dispute_id)
    return get_dispute(db, dispute_id)


def log_filing(db: Database, dispute_id: str) -> bool:
    """The second step of filing: the ``disputed`` entry on the dispute's run's audit log, from what
    the dispute records, unless an entry of the log names the dispute (its filing, or a decision on
    it). Whether it was written.
    Raises ``NoSuchDispute``."""
    fields = db.redis.hgetall(keys.dispute(dispute_id))
    if not fields:
        raise NoSuchDispute(dispute_id)
    return scripts.note_dispute_filed(db.redis, run_id=fields["run_id"], dispute_id=dispute_id,
                                      player=fields["player"], reason=fields["reason"],
                                      filed_ms=int(fields["filed_ms"]))


def list_disputes(db: Database, status: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, disputes)``: a page of the disputes with ``status``, oldest first (a queue to work through)."""
    total, disputes = indexed_page(db, keys.disputes(status), keys.dispute, offset, limit)
    return total, [dispute_view(fields) for fields in disputes]


def resolve_dispute(db: Database, dispute_id: str, moderator: str, decision: str, note: str) -> dict:
    """Uphold the run, or void it (off every board; the player's next best run takes the place).
    An archived run comes back to Redis first, and its archived boards too (``hot_boards``).

    Raises ``NoSuchDispute``, ``AlreadyResolved`` or ``RunPending``.
    """
    dispute = get_dispute(db, dispute_id)
    if dispute["status"] != OPEN:
        raise AlreadyResolved()
    run = hot_run(db, dispute["run_id"])  # a Run
    log_filing(db, dispute_id)  # its filing's entry first, if a filing was cut short before it
    at_ms = now_ms()
    with hot_boards(db, boards_of(run)):
        written = scripts.resolve_dispute(db.redis, run_id=run.id, dispute_id=dispute_id, moderator=moderator,
                                          decision=decision, note=note, at_ms=at_ms)
        if written == "pending":
            raise RunPending("The run has no verdict yet; resolve the dispute once it has one.")
        decision = _DECISIONS_WRITTEN[written]  # the one written first, if a resolve was cut short after it
        if decision == "void":
            recomputed(db, run)
    if scripts.close_dispute(db.redis, dispute_id=dispute_id, moderator=moderator, decision=decision, note=note,
                             at_ms=at_ms, open_status=OPEN, resolved_status=RESOLVED) == "resolved":
        raise AlreadyResolved()
    if decision == "void":
        wake_if_waiting(db)  # its run.voided event, if it recorded one, delivered without waiting for the sweeper
    return get_dispute(db, dispute_id)
