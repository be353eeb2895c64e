"""A sanctioned player's places: withheld from every board while they are banned or hidden, and recomputed
from all their runs when the last sanction is lifted.

The places are recomputed as a void recomputes them (``lua/place_player.lua``,
``lua/_places.lua``), so lifting a sanction gives back exactly the places the
player's runs earn, no more: a withheld board is the board without the player,
others' places closing the gap. The boards are those any run of the player
counts on (a pending one's too: its verdict may land meanwhile), in the
registry's order (a tournament's sum board after the deal boards it adds up),
those the archive holds brought back first (``hot_boards``). A closed season's
board is frozen and keeps the places it had at its close, as for a void.

A verdict recorded while the player is sanctioned places its run as every
verdict does, and the worker withholds the player's places again right after
(``keep_withheld``), as a void, a restore or a re-verification does. The
sanction is noted before its places are withheld, and the worker reads it
after the verdict is written, so either the worker sees the sanction, or the
withholding comes after the verdict: no place stays up.

A hidden player is shown where their runs would rank (``withheld_places``),
read against the boards without them.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from domain.boards import BOARDS, BoardId, Order, boards_of
from domain.run import Run
from store.base import keys
from store.base.database import Database
from store.base.packing import least_above, pack
from store.boards.cooling import board_name, hot_boards, sole_place
from store.boards.placements import placement
from store.boards.seasons import frozen_boards
from store.runs.places import archived_runs, player_runs
from store.sanctions import scripts


def boards_played(db: Database, player: str) -> list[BoardId]:
    """Every board a run of ``player`` counts on (pending runs' too; the archive's, all final, if verified), in
    the registry's order."""
    run_ids, runs = player_runs(db, player)
    played = [run for run in runs if run is not None] + archived_runs(db, player, run_ids)
    boards = {board for run in played for board in boards_of(run)}
    return sorted(boards, key=lambda board: (BOARDS.index(board.board), board.parts))


def set_places(db: Database, player: str, withhold: bool) -> int:
    """Withhold ``player``'s places on every board they play on, or recompute them: how many boards."""
    boards = boards_played(db, player)
    if boards:
        with hot_boards(db, boards):
            scripts.place_player(db, player=player, boards=[placement(board, player) for board in boards],
                                 withhold=withhold)
    return len(boards)


def sanctioned(db: Database, players: Iterable[str]) -> list[str]:
    """Those of ``players`` who are banned or hidden: their places are withheld. Two reads however many
    players (a job's verdicts ask for each player they judged)."""
    players = list(dict.fromkeys(players))
    if not players:
        return []
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.mget([keys.ban(player) for player in players])
        pipe.hmget(keys.hidden_players(), players)
        bans, hidings = pipe.execute()
    return [player for player, ban, hiding in zip(players, bans, hidings, strict=True) if ban or hiding]


def keep_withheld(db: Database, players: Iterable[str]) -> None:
    """After verdicts were recorded for ``players``' runs: the places of those sanctioned withheld again."""
    for player in sanctioned(db, players):
        set_places(db, player, withhold=True)


@dataclass(frozen=True)
class WithheldPlace:
    """The place a hidden player's runs would hold on a best or first board: its rank, the places with a
    strictly higher score and the board's total with it, and the run holding it."""

    board: BoardId
    rank: int
    above: int
    total: int
    run: Run


def withheld_places(db: Database, player: str) -> list[WithheldPlace]:
    """Where ``player``'s runs would rank on each best or first board their places are withheld from, read
    against the board as it is (what a hidden player is shown of their own places). A frozen board holds
    their place still, and a board the archive holds is read in Redis once it comes back: both are left
    out, as are the ladders and sums, whose places are not one run's."""
    run_ids, runs = player_runs(db, player)
    verified = [run for run in runs if run is not None and run.status == "verified"]
    verified += archived_runs(db, player, run_ids)
    frozen = frozen_boards(db)
    found = []
    for board in boards_played(db, player):
        if board.board.order not in (Order.BEST, Order.FIRST) or frozen(board) or (
                board.board.cools and db.archive.boards_held(board.board.kind, [board_name(board)])):
            continue
        counted = [run for run in verified if board in boards_of(run) and run.score is not None]
        if not counted:
            continue
        best = max(counted, key=lambda run: pack(run.score or 0, run.submitted_ms) if board.board.order is Order.BEST
                   else -run.submitted_ms)
        places = keys.board_places(board.board.kind, board.parts)
        packed = pack(best.score or 0, best.submitted_ms)
        if (sole := sole_place(db, board)) is not None:  # a board kept as its one place: another player's
            ahead, above, total = int(sole.rank_key > packed), int(sole.rank_key >= least_above(packed)), 1
        else:
            with db.redis.pipeline(transaction=False) as pipe:
                pipe.zcount(places, f"({packed}", "+inf")
                pipe.zcount(places, least_above(packed), "+inf")
                pipe.zcard(places)
                ahead, above, total = pipe.execute()
        found.append(WithheldPlace(board, ahead + 1, above, total + 1, best))
    return found
