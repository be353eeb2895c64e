"""The wrappers of a run's Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from dataclasses import dataclass
from typing import Any

from domain.events import RECORD_BEATEN, RUN_VERIFIED
from domain.run import Run
from store.base import keys
from store.boards.placements import placements, script_args
from store.live import RUN_REJECTED
from store.log import log_keys
from store.lua import LuaScript, flatten

_ACCEPT_RUN = LuaScript("accept_run")


_NOTE_ARCHIVED = LuaScript("note_archived")


_RECORD_VERDICTS = LuaScript("record_verdicts")


_FORGET_RUN = LuaScript("forget_run")


_REINSTATE_RUN = LuaScript("reinstate_run")


_BOARD_RUNS = LuaScript("board_runs")


def board_runs(client: Any, *, runs: list[str], fields: tuple[str, ...]) -> list[list]:
    """Each of the hashes ``runs``' values of ``fields`` (None for a field it lacks, every one for a run not
    there), in one command."""
    return _BOARD_RUNS.run(client, runs, list(fields))


def accept_run(client: Any, *, run_id: str, player: str, fingerprint: str, submitted_ms: int,
               idempotency_key: str, idempotency_ttl: int, archived: bool | None, intake_entry: str, token_hash: str,
               heeding_bans: bool, ended_ban: str, fields: dict) -> Any:
    """Store a submission unless the player sent that game (or that Idempotency-Key) before, or
    the archive holds its run (``archived``): ``['new']``, ``['existing', run id]`` or ``['conflict']``.
    ``archived`` None: the archived-runs filter answers, ``['ask_archive']`` (nothing stored) when
    the archive may hold it. ``intake_entry``, unless empty: a new run's entry goes onto the intake too
    (``store.queue.intake.intake_entry``); ``token_hash``,
    unless empty: the token must still name ``player``, else ``['unauthorized']`` and nothing stored.
    ``heeding_bans``: ``['banned', the ban as kept]`` (nothing stored) for a player with a ban other than
    ``ended_ban`` (one the caller found ended, as kept; "" for none)."""
    idempotency = keys.idempotency(player, idempotency_key) if idempotency_key else keys.metrics()
    return _ACCEPT_RUN.run(
        client,
        [idempotency, keys.submission(player, fingerprint), keys.run(run_id), keys.player_runs(player),
         keys.pending_runs(), keys.metrics(), keys.intake(),
         keys.token(token_hash) if token_hash else keys.metrics(), keys.archived_filter(),
         keys.ban(player) if heeding_bans else keys.metrics()],
        [run_id, fingerprint, submitted_ms, idempotency_ttl if idempotency_key else "",
         "" if archived is None else "1" if archived else "0",
         player, intake_entry, "1" if token_hash else "", ended_ban, *flatten(fields)],
    )


def note_archived(client: Any, *, run_ids: list[str]) -> Any:
    """Note ``run_ids`` in the archived-runs filter (``store.runs.archived_filter``)."""
    return _NOTE_ARCHIVED.run(client, [keys.archived_filter()], run_ids)


@dataclass(frozen=True)
class Verdict:
    """One run's verdict as ``record_verdicts`` writes it: its fields, and what it counts under."""

    run: Run
    fields: dict  # the verdict's run-hash fields (``store.runs.verdicts.verdict_fields``)
    metric: str  # the verdicts' counter it counts under
    latency_bucket: str
    latency: float  # seconds from the run's submission to its verdict


def record_verdicts(client: Any, *, verdicts: list[Verdict], worker: str, at_ms: int,
                    leaves: list[tuple[str, str]]) -> Any:
    """Write each pending run's verdict with its audit entry and counts; a verified run is offered its
    places on every board it counts on, and its events recorded (``lua/_events.lua``, ``lua/_live.lua``);
    the counts added once a field; a written verdict's leaf (``leaves``, one a verdict, each split around its
    index) appended to the public log (``lua/_log.lua``). A list: 1 for each verdict written, 0 for a run
    that had one, or is gone, or is another player's than ``verdict.run``'s (renamed since it was read)."""
    run_keys: list[str] = []
    args: list = []
    for verdict in verdicts:
        board_keys, boards = script_args(placements(verdict.run))
        fields = flatten(verdict.fields)
        run_keys += [keys.run(verdict.run.id), *board_keys]
        args += [verdict.run.id, verdict.run.player, verdict.metric, verdict.latency_bucket, verdict.latency, *boards,
                 len(fields), *fields]
    return _RECORD_VERDICTS.run(
        client, [keys.pending_runs(), keys.metrics(), keys.latency(), keys.webhook_outbox(), keys.webhooks(),
                 keys.pending_jobs(), keys.live_events(""), keys.live_channel(), keys.run_players(), *run_keys,
                 *log_keys()],
        [worker, at_ms, RUN_VERIFIED, RECORD_BEATEN, RUN_REJECTED, len(verdicts), *args,
         *(part for leaf in leaves for part in leaf)])


def forget_run(client: Any, *, run: dict[str, str], submission_key: str | None) -> Any:
    """Remove archived ``run`` (its fields as read) and every key it owns (its ``submission_key`` too,
    if it has one): 'ok', 'gone', or 'changed' (changing nothing). Its board places stay."""
    run_key = keys.run(run["id"])
    return _FORGET_RUN.run(
        client,
        [run_key, keys.player_runs(run["player"]), keys.run_players(), submission_key or run_key],
        [run["id"], run["player"], *flatten({name: value for name, value in run.items() if name != "id"})],
    )


def reinstate_run(client: Any, *, run_id: str, player: str, submitted_ms: int, fields: dict,
                  submission_key: str | None) -> bool:
    """Put an archived run back: its stored ``fields`` and its indexes (and its ``submission_key``, if
    it has one); False (nothing written) if Redis holds it already."""
    run_key = keys.run(run_id)
    return bool(_REINSTATE_RUN.run(
        client, [run_key, keys.player_runs(player), keys.run_players(), submission_key or run_key],
        [run_id, submitted_ms, player, *flatten(fields)],
    ))
