"""Calling the scripts that recompute a player's board places from all their runs.

Voiding, restoring or re-verifying a run can move a player's place either
way, so those scripts look at every run of the player: the caller passes
the run keys (declared, as Redis Cluster wants) and the script refuses,
changing nothing, if the player submitted another run since they were read.
"""

from . import keys
from .database import Database

STALE = "stale"  # the scripts' answer when the player's run list grew meanwhile


def place_keys(run: dict) -> list[str]:
    """The board keys a run's places live under: variant board, then daily board (``none`` when not daily)."""
    day = run.get("daily") or "none"
    return [keys.board(run["variant"]), keys.board_runs(run["variant"]), keys.daily_board(day), keys.daily_runs(day)]


def call_with_player_runs(db: Database, script, fixed_keys: list[str], args: list, player: str):
    """Run ``script`` with ``fixed_keys``, the player's run list and every run key of the player."""
    while True:
        run_ids = db.redis.zrange(keys.player_runs(player), 0, -1)
        answer = script(keys=[*fixed_keys, keys.player_runs(player), *map(keys.run, run_ids)], args=args)
        if answer != STALE:
            return answer
