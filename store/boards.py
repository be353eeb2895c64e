"""Reading the rankings: a page of a board, and one player's place on it.

A board is a sorted set of players by packed rank key (see ``packing``) and
a hash naming the run behind each place. Ranks are 1-based and distinct.
"""

from dataclasses import dataclass

from . import keys, scripts
from .database import Database
from .packing import iso_time


@dataclass(frozen=True)
class Board:
    """The pair of keys one ranking lives in."""

    places: str
    runs: str


def variant_board(variant: str) -> Board:
    """Each player's best verified run of a variant."""
    return Board(keys.board(variant), keys.board_runs(variant))


def daily_board(date: str) -> Board:
    """Each player's first verified classic run on the day's seed."""
    return Board(keys.daily_board(date), keys.daily_runs(date))


def _entries(first_rank: int, flat: list) -> list[dict]:
    """Board entries from the scripts' flat (player, score, submission ms, run id) places."""
    return [
        {"rank": first_rank + offset, "player": player, "score": score, "run_id": run_id or None,
         "submitted_at": iso_time(submitted_ms)}
        for offset, (player, score, submitted_ms, run_id) in enumerate(zip(*[iter(flat)] * 4, strict=True))
    ]


def board_page(db: Database, board: Board, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)`` for ``limit`` places from rank ``offset + 1``."""
    reply = scripts.board_page(db.redis, places=board.places, runs=board.runs, first=offset, last=offset + limit - 1)
    return reply[0], _entries(offset + 1, reply[1:])


def board_position(db: Database, board: Board, player: str, around: int) -> dict | None:
    """The player's place with ``around`` places either side (the player included), or None if unranked."""
    reply = scripts.board_position(db.redis, places=board.places, runs=board.runs, player=player, around=around)
    if not reply:
        return None
    index, first = reply[0], reply[1]
    window = _entries(first + 1, reply[2:])
    mine = window[index - first]
    return {"rank": mine["rank"], "score": mine["score"], "run_id": mine["run_id"], "around": window}


def holder_keys(run: dict) -> list[str]:
    """Every hash naming, per player, the run that holds their place on a board ``run`` could be on.

    The one list of the boards a run can hold a place on: ``holds_place`` and
    the retention's last check (``scripts.forget_run``) read it, so a new
    board (its hash of player → run id) is added here and nowhere else.
    """
    holders = [keys.board_runs(run["variant"])]
    if run.get("daily"):
        holders.append(keys.daily_runs(run["daily"]))
    return holders


def holds_place(db: Database, runs: list[dict]) -> list[bool]:
    """Whether each run holds a place on any board (a run holding one stays in Redis), in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run in runs:
            for holders in holder_keys(run):
                pipe.hget(holders, run["player"])
        named = iter(pipe.execute())
    return [run["id"] in [next(named) for _ in holder_keys(run)] for run in runs]
