"""Reading the rankings: a page of a board, and one player's place on it.

A board is a sorted set of players by packed rank key (see ``packing``) and
a hash naming the run behind each place; a seed board has no such hash (it
costs one key per deal played, so it keeps only the places) and its run
ids are found from the players' run lists. Ranks are 1-based and distinct.
The ladder ranks means, not runs: ``ladder_page``, ``ladder_position``.
``board_among`` reads chosen players' places on any board of the registry.
"""

from dataclasses import dataclass

from domain.boards import (
    DAILY_BOARD,
    DEALT_BOARD,
    LADDER,
    OPEN_BOARD,
    SEALED_BOARD,
    SEASON_BOARD,
    SEASON_LADDER,
    SEED_BOARD,
    BoardId,
    Order,
    boards_of,
)
from domain.run import Run

from . import keys, scripts
from .database import Database
from .packing import LADDER_GAMES, iso_time, pack
from .placements import load_board_runs, placement


@dataclass(frozen=True)
class Board:
    """The keys one ranking lives in: its places, and the hash naming each place's run.

    A seed board has ``runs`` None and says which board it is instead
    (``of``), for the store to find the run behind each place.
    """

    places: str
    runs: str | None = None
    of: BoardId | None = None


def ranking(board: BoardId) -> Board:
    """The keys of a best or first board of the registry (``domain.boards``)."""
    kind, parts = board.board.kind, board.parts
    if board.board.names_runs:
        return Board(keys.board_places(kind, parts), keys.board_holders(kind, parts))
    return Board(keys.board_places(kind, parts), of=board)


def variant_board(variant: str) -> Board:
    """Each player's best verified open run of a variant."""
    return ranking(BoardId(OPEN_BOARD, (variant,)))


def daily_board(date: str) -> Board:
    """Each player's first verified classic run on the day's seed."""
    return ranking(BoardId(DAILY_BOARD, (date,)))


def dealt_board(variant: str) -> Board:
    """Each player's best verified dealt game of a variant."""
    return ranking(BoardId(DEALT_BOARD, (variant,)))


def sealed_board(date: str) -> Board:
    """Each player's first verified game on the day's sealed seed."""
    return ranking(BoardId(SEALED_BOARD, (date,)))


def seed_board(variant: str, seed: str) -> Board:
    """Each player's best verified open run on one deal: ``seed`` played as ``variant``."""
    return ranking(BoardId(SEED_BOARD, (variant, seed)))


def _named_runs(db: Database, board: Board, flat: list) -> list:
    """The scripts' flat places with the run behind each: on a board without a run-id hash, of the
    player's runs submitted at the place's time, the verified one with its score on this board."""
    if board.of is None:
        return flat
    places = list(zip(*[iter(flat)] * 4, strict=True))
    candidates = [run_id for *_, run_ids in places for run_id in run_ids.split()]
    found = dict(zip(candidates, load_board_runs(db, candidates), strict=True))
    named = []
    for player, score, submitted_ms, run_ids in places:
        on_board = [run_id for run_id in run_ids.split() if (run := found[run_id]) is not None
                    and run.status == "verified" and run.score == int(score) and board.of in boards_of(run)]
        named += [player, score, submitted_ms, on_board[0] if on_board else ""]
    return named


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
    return reply[0], _entries(offset + 1, _named_runs(db, board, reply[1:]))


def board_position(db: Database, board: Board, player: str, around: int) -> dict | None:
    """The player's place with ``around`` places either side (the player included), or None if unranked."""
    reply = scripts.board_position(db.redis, places=board.places, runs=board.runs, player=player, around=around)
    if not reply:
        return None
    index, first = reply[0], reply[1]
    window = _entries(first + 1, _named_runs(db, board, reply[2:]))
    mine = window[index - first]
    return {"rank": mine["rank"], "score": mine["score"], "run_id": mine["run_id"], "around": window}


def place_checks(run: Run) -> list[tuple[str, str]]:
    """Every place a run could hold, as ``(key, check)`` pairs: one a board of the registry it
    counts on whose place keeps a run in Redis (``domain.boards.Board.keeps_hot``).

    ``check`` is ``h`` (the hash at ``key`` names the run for its player: a
    board that names its runs), ``s<packed>`` (the player's rank key on the
    board at ``key`` is the run's own: a seed board keeps no run ids; only a
    run with a score can hold it) or ``m<member>`` (the run is in the
    player's window at ``key`` of a board ranking the latest, the ladder).
    ``holds_place`` and the retention's last check (``scripts.forget_run``)
    both read it.
    """
    checks = []
    for board in boards_of(run):
        if not board.board.keeps_hot:
            continue
        board_keys = placement(board, run.player).keys
        if board.board.order is Order.LATEST:
            checks.append((board_keys[1], f"m{run.id}:{'' if run.score is None else run.score}"))
        elif board.board.names_runs:
            checks.append((board_keys[1], "h"))
        elif run.score is not None:
            checks.append((board_keys[0], f"s{pack(run.score, run.submitted_ms)}"))
    return checks


def _holds(reply: object, run: Run, check: str) -> bool:
    if check == "h":
        return reply == run.id
    if check.startswith("s"):
        return reply is not None and int(float(str(reply))) == int(check[1:])
    return reply is not None


def holds_place(db: Database, runs: list[Run]) -> list[bool]:
    """Whether each run holds a place on any board (a run holding one stays in Redis), in one round trip."""
    checks = [place_checks(run) for run in runs]
    with db.redis.pipeline(transaction=False) as pipe:
        for run, run_checks in zip(runs, checks, strict=True):
            for key, check in run_checks:
                if check == "h":
                    pipe.hget(key, run.player)
                else:
                    pipe.zscore(key, run.player if check.startswith("s") else check[1:])
        replies = iter(pipe.execute())
    return [any([_holds(next(replies), run, check) for _, check in run_checks])
            for run, run_checks in zip(runs, checks, strict=True)]


def _ladder_entries(first_rank: int, flat: list) -> list[dict]:
    """Ladder entries from the scripts' flat (player, sum of the last games' scores, the latest
    game's submission ms, its run id, games) places.

    ``mean`` is exact at two decimals: a sum of ``LADDER_GAMES`` (20) integer scores over 20.
    """
    return [
        {"rank": first_rank + offset, "player": player, "mean": round(total / LADDER_GAMES, 2), "games": int(games),
         "run_id": run_id or None, "submitted_at": iso_time(latest_ms)}
        for offset, (player, total, latest_ms, run_id, games) in enumerate(zip(*[iter(flat)] * 5, strict=True))
    ]


def variant_ladder(variant: str) -> BoardId:
    """Each player's mean over their last dealt games of a variant."""
    return BoardId(LADDER, (variant,))


def season_board(variant: str, season: str) -> Board:
    """Each player's best verified dealt game of a variant that ended in ``season``."""
    return ranking(BoardId(SEASON_BOARD, (variant, season)))


def season_ladder(variant: str, season: str) -> BoardId:
    """Each player's mean over their last dealt games of a variant that ended in ``season``."""
    return BoardId(SEASON_LADDER, (variant, season))


def ladder_page(db: Database, ladder: BoardId, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)``: a ladder (a board ranking the latest) from rank ``offset + 1``."""
    reply = scripts.ladder_page(db.redis, ladder=ladder, first=offset, last=offset + limit - 1)
    return reply[0], _ladder_entries(offset + 1, reply[1:])


def ladder_position(db: Database, ladder: BoardId, player: str, around: int) -> dict | None:
    """The player's place on the ladder with ``around`` places either side, or None if not on it."""
    reply = scripts.ladder_position(db.redis, ladder=ladder, player=player, around=around)
    if not reply:
        return None
    index, first = reply[0], reply[1]
    window = _ladder_entries(first + 1, reply[2:])
    mine = window[index - first]
    return {"rank": mine["rank"], "mean": mine["mean"], "games": mine["games"], "run_id": mine["run_id"],
            "around": window}


def board_among(db: Database, board: BoardId, players: list[str], offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(how many of players have a place, entries)``: the places of ``players`` on any board of the
    registry ranked among themselves, ``limit`` of them from ``offset``.

    Each entry is the board's own (a ladder's, or a best or first board's)
    with ``rank`` among the players and ``global_rank`` on the whole board;
    a player without a place (none yet, or no such player) is left out. One
    script (``lua/_among.lua``): one ZMSCORE for the F players, ordered by
    their rank keys, then a ZREVRANK, O(log N), for each one listed; at most
    O(F log N) on a board of N places, never a scan of the board.
    """
    players = list(dict.fromkeys(players))
    first, last = offset, offset + limit - 1
    if board.board.order is Order.LATEST:
        reply = scripts.ladder_among(db.redis, ladder=board, players=players, first=first, last=last)
        entries = _ladder_entries(offset + 1, reply[2 + reply[1]:])
    else:
        ranked = ranking(board)
        reply = scripts.board_among(db.redis, places=ranked.places, runs=ranked.runs, players=players,
                                    first=first, last=last)
        entries = _entries(offset + 1, _named_runs(db, ranked, reply[2 + reply[1]:]))
    return reply[0], [{"rank": entry["rank"], "global_rank": index + 1, **entry}
                      for entry, index in zip(entries, reply[2:2 + reply[1]], strict=True)]
