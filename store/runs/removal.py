"""Runs leaving Redis for the archive, and coming back (``store.operations.retention``).

The one place that knows every key a run owns (its hash, its place in the
indexes, a kept id's ``submission_key``); ``reinstate_run`` is the way back.
"""

from dataclasses import replace

from domain.run import Run
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.runs import scripts
from store.runs.accepting import fingerprint, open_run_id
from store.runs.audit import encode_log
from store.runs.records import run_from_stored, stored_fields


def submission_key(run: Run) -> str | None:
    """The key naming an open run under its player's game (``keys.submission``), for a run whose id
    was given at random; None for a run whose id its player and game give (``open_run_id``) or a
    dealt game's: taken, their id is the duplicate check."""
    if run.dealt:
        return None
    fingerprint_ = fingerprint(run.seed or "", run.variant, list(run.moves or ()))
    if run.id == open_run_id(run.player, fingerprint_):
        return None
    return keys.submission(run.player, fingerprint_)


def remove_runs(db: Database, runs: list[dict[str, str]]) -> list[str]:
    """Remove archived runs from Redis with every key each owns, in one round trip.

    ``runs`` holds each run's hash as read (``stored_hashes``), its audit log
    among them. The one place that knows every key a run owns (its hash, its
    place in the indexes, a kept id's ``submission_key``); ``reinstate_run``
    is the way back. Each run is noted in the archived-runs filter first
    (``store.runs.archived_filter``), so a submission of its game finds it. Per
    run 'ok', 'gone' (removed before), or 'changed' (changed since it was
    read: left as it is). Its board places stay, naming it by id.
    """
    with db.redis.pipeline(transaction=False) as pipe:
        scripts.note_archived(pipe, run_ids=[fields["id"] for fields in runs])  # before they leave Redis
        for fields in runs:
            run = run_from_stored(fields["id"], fields)
            scripts.forget_run(pipe, run=fields, submission_key=submission_key(run))
        return pipe.execute()[1:]


def reinstate_run(db: Database, run: Run, audit_entries: list[dict]) -> bool:
    """Put an archived run back into Redis: its fields (``reinstated_ms`` now), its audit
    entries (as ``store.runs.audit.audit_log`` shows them) as its hash's log, and its indexes.

    False, writing nothing, when Redis holds the run already.
    """
    fields = stored_fields(replace(run, reinstated_ms=now_ms()))
    stored = {**fields, "log": encode_log(audit_entries, fields)}
    return scripts.reinstate_run(db.redis, run_id=run.id, player=run.player, submitted_ms=run.submitted_ms,
                                 fields=stored, submission_key=submission_key(run))
