"""Moderators' changes: restoring a voided run, recording a re-verification, queueing an ``error`` run
again (``restoring``), disputes (``disputes``) and flags for moderators (``flags``)."""

from store.moderation.clairvoyance import GameTally, note_tally, player_tallies, raise_clairvoyant_flag
from store.moderation.disputes import (
    DECISIONS,
    OPEN,
    dispute_view,
    file_dispute,
    get_dispute,
    list_disputes,
    resolve_dispute,
)
from store.moderation.disputes import STATUSES as DISPUTE_STATUSES
from store.moderation.flags import (
    CLAIRVOYANT,
    DISMISSED_EVENT,
    FAST_MOVES,
    REASONS,
    SHARED_ADDRESS,
    STEADY_RHYTHM,
    Finding,
    Flag,
    dismiss_flag,
    flag_page,
    get_flag,
    note_sealed_start,
    queue_sealed_start,
    raise_run_flags,
    run_flags,
    runs_flags,
)
from store.moderation.flags import STATUSES as FLAG_STATUSES
from store.moderation.restoring import record_reverification, requeue_run, restore_run, run_ids, void_run

__all__ = [
    "GameTally", "note_tally", "player_tallies", "raise_clairvoyant_flag", "DECISIONS", "OPEN", "DISPUTE_STATUSES",
    "dispute_view", "file_dispute", "get_dispute", "list_disputes", "resolve_dispute", "CLAIRVOYANT",
    "DISMISSED_EVENT", "FAST_MOVES", "REASONS", "SHARED_ADDRESS", "FLAG_STATUSES", "STEADY_RHYTHM", "Finding", "Flag",
    "dismiss_flag", "flag_page", "get_flag", "note_sealed_start", "queue_sealed_start", "raise_run_flags",
    "run_flags", "runs_flags", "record_reverification", "requeue_run", "restore_run", "run_ids", "void_run",
]
