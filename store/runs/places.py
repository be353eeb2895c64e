"""A player's places recomputed from all their runs: what the scripts that void, restore or re-verify a
run, or put runs on seed boards, are handed (``lua/_places.lua``).

Voiding, restoring or re-verifying a run can move a player's place either
way, so those scripts look at every run of the player: the wrapper passes
the run keys and, per board, which of them count on it, and the archived
runs on it as values; the script refuses, changing nothing, if the player
submitted another run since they were read; the wrapper then reads them
again (``with_player_runs``).
"""

from typing import Any

from domain.boards import boards_of
from domain.run import Run
from store.base import keys
from store.base.database import Database
from store.boards.placements import Placement, placements, script_args
from store.lua import LuaScript
from store.runs.records import load_board_runs, run_from_stored

STALE = "stale"  # the places scripts' answer when the player's run list grew meanwhile


def player_runs(db: Database, player: str) -> tuple[list[str], list[Run | None]]:
    """The player's run ids in submission order, and each run as the boards see it (None: not stored)."""
    run_ids = [str(run_id) for run_id in db.redis.zrange(keys.player_runs(player), 0, -1)]
    return run_ids, load_board_runs(db, run_ids)


def on_board(board: Placement, counted: list[set]) -> str:
    """The positions among the player's runs (``counted``: the boards each counts on, ``counted_on``) of those
    that count on ``board``, as ``_places.lua`` reads them."""
    return " ".join(str(position) for position, boards in enumerate(counted) if board.board in boards)


def counted_on(runs: list[Run | None]) -> list[set]:
    """The boards each of ``runs`` counts on (none for a run not stored), found once for all its boards."""
    return [set() if run is None else set(boards_of(run)) for run in runs]


def archived_runs(db: Database, player: str, hot: list[str]) -> list[Run]:
    """The player's verified runs in the archive and not in Redis (``hot``: a run in both, a move
    interrupted, is Redis's). Read after their run list: a run archived in between is in one of the two,
    and the script finds the run list changed."""
    hot_ids = set(hot)
    return [run for fields in db.archive.player_runs(player)
            if fields["id"] not in hot_ids and (run := run_from_stored(fields["id"], fields)).status == "verified"]


def archived_on(board: Placement, runs: list[Run]) -> str:
    """The archived ``runs`` that count on ``board``, as ``_places.lua`` reads them."""
    return " ".join(f"{run.submitted_ms}:{run.id}:{run.score}" for run in runs if board.board in boards_of(run))


def with_player_runs(db: Database, script: LuaScript, run: Run, fixed_keys: list[str], fixed_args: list,
                      args: list) -> Any:
    """Run a places script for ``run``: ``fixed_keys``, its boards' keys, the player's run list and every
    run key of the player; ``fixed_args``, its boards, the runs in Redis on each, the archived runs on
    each, then ``args``."""
    return with_runs_on(db, script, run.player, placements(run), fixed_keys, fixed_args, args)


def with_runs_on(db: Database, script: LuaScript, player: str, boards: list[Placement], fixed_keys: list[str],
                 fixed_args: list, args: list) -> Any:
    """``with_player_runs`` for ``player``'s places on ``boards`` (whichever runs they come from)."""
    board_keys, board_args = script_args(boards)
    while True:
        run_ids, runs = player_runs(db, player)
        archived = archived_runs(db, player, run_ids)
        counted = counted_on(runs)
        answer = script.run(
            db.redis, [*fixed_keys, *board_keys, keys.player_runs(player), *map(keys.run, run_ids)],
            [*fixed_args, *board_args, *(on_board(board, counted) for board in boards),
             *(archived_on(board, archived) for board in boards), *args])
        if answer != STALE:
            return answer
