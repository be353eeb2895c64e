"""Which runs Redis holds, by submission time: each player's run list, and the players who have runs.

Every run is in its player's list (``keys.player_runs``, scored by
submission time, kept compact up to 1,024 runs); ``keys.run_players`` scores
each player by their oldest run in Redis, kept so by the scripts that add
and remove runs, but for a new run: its player joins with its verdict
(``record_verdicts``, one command a job rather than one a run) or its error
(``mark_error``), so a player whose runs all wait for their verdict (in the
intake or the index of pending runs, ``store.queue.pending``) is not there yet.
Walking old runs (retention, which takes finished runs only) looks at the
players with one old enough, then at their lists; walking every run
(``stored_run_ids``) looks at the waiting runs' players too. No index of
every run, which would cost 120 bytes a run.
"""

from collections.abc import Iterator

from store.base import keys
from store.base.database import Database
from store.queue.intake import entry_parts

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


def waiting_players(db: Database) -> set[str]:
    """The players of the runs waiting for their verdict: in the intake, or in the index of pending runs
    (read together, in one transaction, so a run moving from one to the other is in one of them)."""
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.lrange(keys.intake(), 0, -1)
        pipe.zrange(keys.pending_runs(), 0, -1)
        waiting, indexed = pipe.execute()
    run_ids = [entry_parts(entry)[0] for entry in waiting] + indexed
    players: set[str] = set()
    for first in range(0, len(run_ids), SCAN_BATCH):
        with db.redis.pipeline(transaction=False) as pipe:
            for run_id in run_ids[first:first + SCAN_BATCH]:
                pipe.hget(keys.run(run_id), "player")
            players.update(player for player in pipe.execute() if player is not None)
    return players


def stored_run_ids(db: Database, since_ms: float | str = "-inf") -> list[str]:
    """Every run id in Redis, oldest first (submitted at or after ``since_ms``, if given). The waiting runs'
    players are read first: a run that stops waiting meanwhile has its player among the players with runs
    by the time they are read."""
    players = waiting_players(db)
    players.update(players_with_runs(db))
    found = [(submitted, run_id) for player in sorted(players)
             for run_id, submitted in runs_between(db, player, since_ms, "+inf", SCAN_BATCH)]
    return [run_id for _, run_id in sorted(found)]
