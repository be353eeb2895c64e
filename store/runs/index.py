"""Which runs Redis holds, by submission time: each player's run list, and the players who have runs.

Every run is in its player's list (``keys.player_runs``, scored by
submission time, kept compact up to 1,024 runs); ``keys.run_players`` scores
each player by their oldest run in Redis, kept so by the scripts that add
and remove runs. Walking old runs (retention) looks at the players with one
old enough, then at their lists: no index of every run, which would cost
120 bytes a run.
"""

from collections.abc import Iterator

from store.base import keys
from store.base.database import Database

SCAN_BATCH = 1000


def players_with_runs(db: Database, before_ms: float | str = "+inf") -> list[str]:
    """The players with a run in Redis submitted at or before ``before_ms``."""
    return db.redis.zrangebyscore(keys.run_players(), "-inf", before_ms)


def runs_between(db: Database, player: str, low: float | str, high: float | str,
                 batch: int) -> Iterator[tuple[str, float]]:
    """``(run id, submitted ms)`` of the player's runs submitted from ``low`` to ``high``, oldest
    first, read ``batch`` at a time: runs removed meanwhile (retention) shift nothing."""
    seen_at_low: set[str] = set()  # runs at the bound already given (the bound is inclusive)
    while True:
        entries: list[tuple[str, float]] = db.redis.zrangebyscore(
            keys.player_runs(player), low, high, start=0, num=batch + len(seen_at_low), withscores=True)
        fresh = [(run_id, submitted) for run_id, submitted in entries if run_id not in seen_at_low]
        if not fresh:
            return
        yield from fresh
        low = entries[-1][1]
        seen_at_low = {run_id for run_id, submitted in entries if submitted == low} | (
            seen_at_low if low == entries[0][1] else set())


def stored_run_ids(db: Database, since_ms: float | str = "-inf") -> list[str]:
    """Every run id in Redis, oldest first (submitted at or after ``since_ms``, if given)."""
    found = [(submitted, run_id) for player in players_with_runs(db)
             for run_id, submitted in runs_between(db, player, since_ms, "+inf", SCAN_BATCH)]
    return [run_id for _, run_id in sorted(found)]
