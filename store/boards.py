"""Reading the rankings: a page of a board, and one player's place on it.

A board is a sorted set of players by packed rank key (see ``packing``) and
a hash naming the run behind each place. Ranks are 1-based and distinct.
"""

from dataclasses import dataclass

from . import keys
from .database import Database
from .packing import iso_time, unpack


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


def _entries(db: Database, board: Board, first_rank: int, places: list[tuple[str, float]]) -> list[dict]:
    run_ids = db.redis.hmget(board.runs, [player for player, _ in places]) if places else []
    entries = []
    for offset, ((player, packed), run_id) in enumerate(zip(places, run_ids)):
        score, submitted_ms = unpack(packed)
        entries.append({
            "rank": first_rank + offset,
            "player": player,
            "score": score,
            "run_id": run_id,
            "submitted_at": iso_time(submitted_ms),
        })
    return entries


def board_page(db: Database, board: Board, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)`` for ``limit`` places from rank ``offset + 1``."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(board.places)
        pipe.zrevrange(board.places, offset, offset + limit - 1, withscores=True)
        total, places = pipe.execute()
    return total, _entries(db, board, offset + 1, places)


def board_position(db: Database, board: Board, player: str, around: int) -> dict | None:
    """The player's place with ``around`` places either side (the player included), or None if unranked."""
    index = db.redis.zrevrank(board.places, player)
    if index is None:
        return None
    first = max(0, index - around)
    places = db.redis.zrevrange(board.places, first, index + around, withscores=True)
    window = _entries(db, board, first + 1, places)
    mine = window[index - first]
    return {"rank": mine["rank"], "score": mine["score"], "run_id": mine["run_id"], "around": window}
