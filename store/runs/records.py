"""A run's stored form: the Redis hash a ``domain.run.Run`` is kept as (the archive keeps a copy).

Every field a string; an empty or missing field is none; no ``id`` (its key
says it); the moves one character each as ``codes`` (``store.runs.move_codes``:
the store decodes them, so the domain only ever sees notations); the error
as JSON; ``forfeit`` "1" or nothing. The audit log (``log``) is
``store.runs.audit``'s, and not part of the Run: the Run's ``verified_ms`` is the
hash's where it holds one (a run back from the archive), else the time of
the log's last verdict entry (``store.runs.audit.verdict_ms``).

``run_from_stored`` and ``stored_fields`` are the one conversion each way.
``run_from_stored`` reads a part of a hash too: the boards read only
``BOARD_FIELDS`` (``store.boards.placements``), the fields left out being the Run's
defaults. It costs about 2.6 µs a run (one core): building a frozen
28-field value is most of it, and a second, narrower path for the boards
would save 0.5 µs, so there is none.
"""

import json
from collections.abc import Mapping

from domain.run import OPEN, Run
from store.base import keys
from store.base.database import Database
from store.runs import move_codes
from store.runs.audit import verdict_ms
from store.runs.scripts import board_runs

# The hash fields the boards read (``store.boards.placements.load_board_runs``).
BOARD_FIELDS = ("player", "variant", "seed", "status", "score", "submitted_ms", "origin", "daily", "challenge",
                "date", "season", "tournament", "deal", "scoring")


BOARD_RUNS_AT_ONCE = 1000  # runs a call of ``load_board_runs`` reads: Redis held a few milliseconds at most


def _int(value: str | None) -> int | None:
    return None if value in (None, "") else int(value)


def run_from_stored(run_id: str, fields: Mapping[str, str]) -> Run:
    """The run whose hash holds ``fields`` (a run without an ``origin`` is open)."""
    get = fields.get
    error, codes = get("error"), get("codes")
    return Run(
        run_id, get("player") or "", get("variant") or "", get("seed") or None, get("status") or "",
        _int(get("score")), int(get("submitted_ms") or 0), get("origin") or OPEN, get("daily") or None,
        get("challenge") or None, get("date") or None, tuple(move_codes.decode(codes)) if codes else (),
        get("outcome") or None, _int(get("health")), json.loads(error) if error else None,
        get("ruleset") or None, get("engine") or None, verdict_ms(fields), get("voided_status") or None,
        _int(get("reverified_ms")), _int(get("reinstated_ms")), get("game_id") or None, _int(get("dealt_ms")),
        get("move_gaps") or "", get("forfeit") == "1", get("request_id") or "", get("job") or "",
        int(get("requeues") or 0), season=get("season") or None, tournament=get("tournament") or None,
        deal=_int(get("deal")), scoring=get("scoring") or None,
    )


def stored_fields(run: Run) -> dict[str, str]:
    """``run``'s hash fields, none empty, without its log (``store.runs.audit`` writes that)."""
    fields = {
        "player": run.player, "seed": run.seed, "variant": run.variant,
        "codes": move_codes.encode(list(run.moves)) if run.moves else None, "status": run.status,
        "submitted_ms": run.submitted_ms, "daily": run.daily, "request_id": run.request_id, "job": run.job,
        "origin": None if run.origin == OPEN else run.origin, "game_id": run.game_id, "challenge": run.challenge,
        "date": run.date, "forfeit": "1" if run.forfeit else None, "dealt_ms": run.dealt_ms,
        "move_gaps": run.move_gaps, "outcome": run.outcome, "score": run.score, "health": run.health,
        "error": json.dumps(run.error) if run.error else None, "ruleset": run.ruleset, "engine": run.engine,
        "verified_ms": run.verified_ms, "voided_status": run.voided_status, "reverified_ms": run.reverified_ms,
        "reinstated_ms": run.reinstated_ms, "requeues": run.requeues or None,
        "season": run.season, "tournament": run.tournament, "deal": run.deal, "scoring": run.scoring,
    }
    return {name: str(value) for name, value in fields.items() if value not in (None, "")}


def dealt_move_times(db: Database, run_id: str) -> list[int] | None:
    """Each move's server time (ms) of a dealt game's run, None for an open run."""
    dealt_ms, gaps = db.redis.hmget(keys.run(run_id), "dealt_ms", "move_gaps")
    return move_times(int(dealt_ms), gaps or "") if dealt_ms else None


def load_run(db: Database, run_id: str) -> Run | None:
    """A run in Redis, or None (``store.runs.history``: archived runs too)."""
    fields = db.redis.hgetall(keys.run(run_id))
    return run_from_stored(run_id, fields) if fields else None


def stored_hashes(db: Database, run_ids) -> list[dict[str, str] | None]:
    """Each run's hash as read, with its ``id`` (its key says it), or None where there is none, in one
    round trip: the stored form, for what keeps or compares it whole (the archive, ``remove_runs``)."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hgetall(keys.run(run_id))
        return [{"id": run_id, **fields} if fields else None
                for run_id, fields in zip(run_ids, pipe.execute(), strict=True)]


def load_runs(db: Database, run_ids, carried: Mapping[str, Mapping[str, str]] | None = None) -> list[Run | None]:
    """Each run in Redis (None where there is none), in one round trip; one in ``carried`` (run id → its hash's
    fields as its job carries them from the intake, ``store.queue.intake``) is made of those, not read."""
    carried = carried or {}
    read = [run_id for run_id in run_ids if run_id not in carried]
    found = dict(zip(read, stored_hashes(db, read), strict=True))
    return [run_from_stored(run_id, carried[run_id]) if run_id in carried
            else run_from_stored(run_id, fields) if (fields := found[run_id]) else None for run_id in run_ids]


def load_board_runs(db: Database, run_ids: list[str]) -> list[Run | None]:
    """Each run in Redis as the boards see it (None for one not there: archived, or gone),
    reading only the fields the boards need, a round trip a ``BOARD_RUNS_AT_ONCE`` of them
    (``lua/board_runs.lua``: a tenth of the CPU of a pipeline of an HMGET a run)."""
    stored = [values for first in range(0, len(run_ids), BOARD_RUNS_AT_ONCE)
              for values in board_runs(db.redis, runs=[keys.run(run_id) for run_id in
                                                       run_ids[first:first + BOARD_RUNS_AT_ONCE]],
                                       fields=BOARD_FIELDS)]
    return [run_from_stored(run_id, dict(zip(BOARD_FIELDS, values, strict=True))) if any(values) else None
            for run_id, values in zip(run_ids, stored, strict=True)]


def move_times(dealt_ms: int, gaps: str) -> list[int]:
    """Each move's server time (ms since 1970) from the deal's time and the gaps between moves."""
    times, at = [], dealt_ms
    for gap in gaps.split(" ") if gaps else []:
        at += int(gap)
        times.append(at)
    return times
