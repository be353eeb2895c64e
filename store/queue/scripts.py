"""The wrappers of the intake's and the sweeper's Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.lua import LuaScript

_TAKE_INTAKE = LuaScript("take_intake")


_CLAIM_STALE_RUN = LuaScript("claim_stale_run")


_MARK_ERROR = LuaScript("mark_error")




def take_intake(client: Any, *, job_id: str, at_ms: int, entries: list[str]) -> int:
    """Take ``entries`` from the intake's head for job ``job_id`` (their runs' job noted in
    ``keys.pending_jobs``, the runs put among the pending runs as queued at ``at_ms`` and counted as accepted
    submissions), if they are its head still: how many were taken (0 if none)."""
    return int(_TAKE_INTAKE.run(client, [keys.intake(), keys.pending_jobs(), keys.metrics(), keys.pending_runs()],
                                [job_id, at_ms, *entries]))


def claim_stale_run(client: Any, *, run_id: str, cutoff_ms: int, now_ms: int, most_requeues: int) -> int:
    """0 (nothing to do), -1 (re-queued too often) or the run's re-queue count, now claimed."""
    return int(_CLAIM_STALE_RUN.run(client, [keys.run(run_id), keys.pending_runs()],
                                    [run_id, cutoff_ms, now_ms, most_requeues]))


def mark_error(client: Any, *, run_id: str, reason: str, at_ms: int, actor: str) -> bool:
    """Give a pending run the status ``error`` (``reason``: the error JSON); False if it had a verdict."""
    return bool(_MARK_ERROR.run(client, [keys.run(run_id), keys.pending_runs(), keys.metrics(), keys.pending_jobs(),
                                         keys.errored_runs(), keys.run_players()],
                                [run_id, reason, at_ms, actor]))


