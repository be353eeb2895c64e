"""The boards a run can count on, and calling the scripts that recompute a player's places.

Voiding, restoring or re-verifying a run can move a player's place either
way, so those scripts look at every run of the player: the caller passes
the run keys (declared, as Redis Cluster wants) and the script refuses,
changing nothing, if the player submitted another run since they were read.
"""

from . import keys
from .boards import DEALT
from .database import Database

STALE = "stale"  # the scripts' answer when the player's run list grew meanwhile
NO_DAY = "none"  # names the day board of a run on no day's seed: never written


def board_keys(run: dict) -> list[str]:
    """The eight keys of the boards a run can count on, in the order the scripts take them:
    best (variant or dealt board: places, runs), first (daily or sealed board: places, runs),
    seed board, ladder, ladder window, ladder games.

    The scripts decide, from the run's own fields, which of them it counts on
    (an open run: variant, daily, seed; a dealt run: dealt, sealed, ladder);
    the others are passed and left alone.
    """
    variant = run["variant"]
    if run.get("origin") == DEALT:
        day = (run.get("date") if run.get("challenge") == "daily" else None) or NO_DAY
        best_and_first = [keys.dealt_board(variant), keys.dealt_runs(variant),
                          keys.sealed_board(day), keys.sealed_runs(day)]
    else:
        day = run.get("daily") or NO_DAY
        best_and_first = [keys.board(variant), keys.board_runs(variant), keys.daily_board(day), keys.daily_runs(day)]
    return [*best_and_first, keys.seed_board(variant, run["seed"]), keys.ladder(variant),
            keys.ladder_window(variant, run["player"]), keys.ladder_games(variant)]


def call_with_player_runs(db: Database, script, fixed_keys: list[str], args: list, player: str):
    """Run ``script`` with ``fixed_keys``, the player's run list and every run key of the player."""
    while True:
        run_ids = db.redis.zrange(keys.player_runs(player), 0, -1)
        answer = script(keys=[*fixed_keys, keys.player_runs(player), *map(keys.run, run_ids)], args=args)
        if answer != STALE:
            return answer
