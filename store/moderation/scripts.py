"""The wrappers of moderators' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from dataclasses import replace
from typing import Any

from domain.events import RUN_VOIDED
from domain.run import Run
from domain.transparency import RESTORE, REVERIFY, VOID
from store.base import keys
from store.base.database import Database
from store.log import leaf_parts, log_keys
from store.lua import LuaScript, flatten
from store.runs.places import with_player_runs
from store.runs.verdicts import stored_int

_FILE_DISPUTE = LuaScript("file_dispute")


_RESOLVE_DISPUTE = LuaScript("resolve_dispute")


_RESTORE_RUN = LuaScript("restore_run")


_REVERIFY_RUN = LuaScript("reverify_run")


_VOID_RUN = LuaScript("void_run")


_RAISE_FLAG = LuaScript("raise_flag")


_NOTE_SHARED_ADDRESS = LuaScript("note_shared_address")


_DISMISS_FLAG = LuaScript("dismiss_flag")




def file_dispute(client: Any, *, run_id: str, dispute_id: str, player: str, reason: str, filed_ms: int,
                 open_status: str) -> bool:
    """Open dispute ``dispute_id`` of the run; False if there is no such run."""
    return bool(_FILE_DISPUTE.run(
        client, [keys.run(run_id), keys.dispute(dispute_id), keys.disputes(open_status)],
        [dispute_id, player, reason, filed_ms, open_status, run_id],
    ))












def resolve_dispute(db: Database, *, dispute_id: str, run: Run, moderator: str, decision: str, note: str,
                    at_ms: int, open_status: str, resolved_status: str) -> str:
    """Resolve an open dispute (a void moves the player's places and records its event): 'ok', 'resolved' or
    'pending'."""
    return with_player_runs(
        db, _RESOLVE_DISPUTE, run,
        [keys.dispute(dispute_id), keys.disputes(open_status), keys.disputes(resolved_status), keys.run(run.id),
         keys.webhook_outbox(), keys.webhooks(), *log_keys()],
        [moderator, decision, note, at_ms, open_status, resolved_status, RUN_VOIDED,
         *(leaf_parts(db, replace(run, status=VOID), VOID, at_ms) if decision == VOID else ("", ""))], [],
    )


def void_run(db: Database, *, run: Run, moderator: str, note: str, at_ms: int) -> str:
    """Void the run with no dispute (its event recorded, the player's places recomputed): 'ok', 'void' (it
    was) or 'pending'."""
    leaf = leaf_parts(db, replace(run, status=VOID), VOID, at_ms)
    return with_player_runs(db, _VOID_RUN, run, [keys.run(run.id), keys.webhook_outbox(), keys.webhooks(), *log_keys()],
                            [moderator, note, at_ms, RUN_VOIDED, *leaf, run.id], [])


def restore_run(db: Database, *, run: Run, moderator: str, at_ms: int, note: str) -> str:
    """Undo a void and recompute the player's places (``note``: the moderator's reason, in the audit entry):
    'ok' or 'not_void'."""
    return with_player_runs(db, _RESTORE_RUN, run, [keys.run(run.id), *log_keys()],
                            [moderator, at_ms, *leaf_parts(db, replace(run, status=run.voided_status or run.status),
                                                           RESTORE, at_ms), note], [])


def reverify_run(db: Database, *, run: Run, actor_kind: str, actor: str, at_ms: int, log_unchanged: bool,
                 fields: dict) -> str:
    """Write verdict ``fields`` over the stored ones and recompute the places: 'changed', 'unchanged' or 'pending'."""
    outcome = replace(run, status=VOID if run.status == VOID else fields["status"],  # a void run stays void
                      score=stored_int(fields["score"]), ruleset=fields["ruleset"], engine=fields["engine"])
    return with_player_runs(db, _REVERIFY_RUN, run, [keys.run(run.id), *log_keys()],
                            [actor_kind, actor, at_ms, "1" if log_unchanged else "",
                             *leaf_parts(db, outcome, REVERIFY, at_ms)], flatten(fields))


def raise_flag(client: Any, *, flag_id: str, listed_in: list[str], every_index: list[str], raised_ms: int,
               kept: int, runs: list[str], fields: dict) -> Any:
    """Store flag ``flag_id`` (``fields``) unless it exists, listed in ``listed_in`` (the first: every flag)
    and under each of ``runs``; past ``kept`` flags the oldest leave ``every_index``. 1 if raised, else 0."""
    return _RAISE_FLAG.run(client, [keys.flag(flag_id), *listed_in, *every_index],
                           [flag_id, raised_ms, kept, keys.flag(""), keys.run_flags(""), " ".join(runs),
                            *flatten(fields)])


def note_shared_address(client: Any, *, address_key: str, player: str, run_id: str, forget_at: int, new_id: str,
                        listed_in: list[str], every_index: list[str], raised_ms: int, kept: int,
                        fields: dict) -> str:
    """Note the player's start from the address of ``address_key``; from the second player on, raise or
    complete its flag (``fields`` for a new one). The flag's id, or '' while the address has one player."""
    return _NOTE_SHARED_ADDRESS.run(client, [address_key, *listed_in, *every_index],
                                    [player, run_id, forget_at, new_id, raised_ms, kept, keys.flag(""),
                                     keys.run_flags(""), *flatten(fields)])


def dismiss_flag(client: Any, *, flag_id: str, open_indexes: list[str], dismissed_indexes: list[str],
                 run_id: str | None, moderator: str, at_ms: int, note: str, open_status: str,
                 dismissed_status: str, event: str) -> str:
    """Dismiss an open flag, with an audit entry ``event`` on its run if it names one:
    'ok', 'dismissed' (it was) or 'missing'."""
    flag_key = keys.flag(flag_id)
    about = [keys.run(run_id) if run_id else flag_key]
    return _DISMISS_FLAG.run(client, [flag_key, *open_indexes, *dismissed_indexes, *about],
                             [flag_id, moderator, at_ms, note, open_status, dismissed_status, event,
                              "1" if run_id else ""])


_REQUEUE_RUN = LuaScript("requeue_run")


def requeue_run(client: Any, *, run_id: str, at_ms: int, moderator: str) -> bool:
    """Make an ``error`` run pending again; False if it is not in ``error``."""
    return bool(_REQUEUE_RUN.run(client, [keys.run(run_id), keys.pending_runs()],
                                 [run_id, at_ms, moderator]))
