"""The wrappers of the operator's passes' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from domain.boards import SEED_BOARD, BoardId, boards_of
from domain.run import Run
from store.archive import BoardPlace
from store.base import keys
from store.base.database import Database
from store.boards.placements import board_keys, placement
from store.lua import LuaScript, flatten
from store.operations import old_layouts
from store.runs.places import STALE, player_runs, with_player_runs

_PLACE_SEED_BOARDS = LuaScript("place_seed_boards")


_MIGRATE_RUN = LuaScript("migrate_run")


_FINISH_PLACES = LuaScript("finish_places")


_KEEP_SOLE_PLACE = LuaScript("keep_sole_place")


_MARK_SPREAD_BOARD = LuaScript("mark_spread_board")


def place_seed_boards(db: Database, *, player: str) -> int:
    """Offer each of the player's runs in Redis that counts on a seed board its place there, and name
    the run of each place one holds (runs verified before seed boards existed, or before they named
    their runs); the number of seed boards they are on."""
    while True:
        run_ids, runs = player_runs(db, player)
        on_seeds = [(run, placement(board, player)) for run in runs if run is not None
                    for board in boards_of(run) if board.board is SEED_BOARD]
        answer = _PLACE_SEED_BOARDS.run(
            db.redis, [keys.player_runs(player), *(keys.run(run.id) for run, _ in on_seeds),
                       *(key for _, board in on_seeds for key in board.keys)],
            [player, len(run_ids), *(board.board.name for _, board in on_seeds)])
        if answer != STALE:
            return int(answer)


def migrate_run(client: Any, *, run_id: str, fields_read: dict, stream_entries: int, dropped: list[str],
                new_fields: dict, submission_key: str | None) -> Any:
    """Rewrite a run of an older layout (its hash's ``fields_read`` and ``stream_entries`` audit stream
    entries, as read): delete ``dropped``, write ``new_fields``, delete the stream and write the run's
    ``submission_key``: 'ok', 'gone', or 'changed' (changing nothing) if it is not as read."""
    run_key = keys.run(run_id)
    return _MIGRATE_RUN.run(
        client, [run_key, keys.old_audit_stream(run_id), submission_key or run_key],
        [run_id, stream_entries, len(fields_read), *flatten(fields_read), len(dropped), *dropped,
         *flatten(new_fields)])


def finish_places(db: Database, *, run: Run) -> None:
    """Recompute the player's places on ``run``'s boards from all their runs and take the run off the
    older layout's lists of places owed (``old_layouts.placing``, ``old_layouts.replacing``), in one step."""
    with_player_runs(db, _FINISH_PLACES, run, [old_layouts.placing(), old_layouts.replacing()],
                     [run.id, run.player], [])


def keep_sole_place(client: Any, *, board: BoardId, place: BoardPlace) -> Any:
    """Move a board of a kind kept as its sole place (``domain.boards.Board.sole``) whose two keys hold one
    place, ``place`` as read, into the hash of sole places: 'ok', or 'changed' changing nothing."""
    return _KEEP_SOLE_PLACE.run(client, list(board_keys(board)),
                                [board.name, place.player, place.rank_key, place.run_id])


def mark_spread_board(client: Any, *, board: BoardId) -> Any:
    """Mark a board of a kind kept as its sole place held in its two keys as so in the hash of sole places
    (``lua/_sole.lua``'s ``SPREAD``), unless it left them or its field holds something: 1 if marked, else 0."""
    return _MARK_SPREAD_BOARD.run(client, list(board_keys(board)), [board.name])
