"""``scoundrel check``: do the boards agree with the runs they were built from?

The boards are updated one verdict at a time; this recomputes them from
scratch out of the stored runs and lists every difference, and every run
pending for too long. An empty list means all is well. Only verified runs
count (a void run is not verified), each on the boards the registry says it
counts on (``domain.boards``), ranked by the board's order:

- best: each player's best run there, the higher score, at equal scores
  the earlier submission (the open, seed and dealt boards);
- first: each player's first-submitted run, whatever its score (the daily
  and sealed boards);
- latest (the ladder): the player's last ``LADDER_GAMES`` games by
  submission time (then run id), their count, and for players with that
  many the ladder key of their sum.

The runs are those in Redis and in the archive alike (a run holding a
place may be archived), and a board of a kind that cools is read where it
is, Redis, the archive or both merged (``store.boards.cooling``). Every run
lives in exactly one place, Redis or the archive, and every board place
names a run in one of them. A run found in both is a move interrupted by a
crash, which the next retention pass finishes; it is reported all the same.

A place held by an erased player's pseudonym (a closed season's, a closed
day's sealed board: ``store.privacy.erasure``) has no run, rightly.

A closed season's boards are frozen at its close (``store.boards.seasons``): they
may rightly differ from what the runs give now (a late verdict, a void
since), so they are left out.
"""

import json
from collections import defaultdict

from domain.boards import BOARDS, BoardId, Order, boards_of, deal_boards
from domain.pseudonyms import is_pseudonym
from domain.run import PENDING, Run
from store.archive import BoardPlace
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import LADDER_GAMES, RANK, pack, pack_ladder, packed_score
from store.boards.cooling import BATCH, read_boards, redis_boards, submitted_ms
from store.boards.pages import Board, ranking
from store.boards.seasons import Frozen, frozen_boards
from store.operations import scripts
from store.queue.intake import entry_parts
from store.runs.index import stored_run_ids
from store.runs.records import load_runs, run_from_stored

SCAN_BATCH = 1000

# Board → player → (packed rank key, run id) of the place the runs give.
Places = dict[Board, dict[str, tuple[int, str]]]
# (board ranking the latest, player) → the player's verified runs on it, oldest first.
Ladders = dict[tuple[BoardId, str], list[Run]]


def _never(board: BoardId) -> bool:
    return False


def _scan(db: Database, pattern: str) -> list[str]:
    return list(db.redis.scan_iter(match=pattern, count=SCAN_BATCH))


def stored_runs(db: Database) -> list[Run]:
    """Every run in Redis."""
    run_ids = stored_run_ids(db)
    runs: list[Run] = []
    for start in range(0, len(run_ids), SCAN_BATCH):
        runs.extend(run for run in load_runs(db, run_ids[start:start + SCAN_BATCH]) if run)
    return runs


def _in_order(runs: list[Run]) -> list[Run]:
    """The verified runs, oldest submission first (then by id)."""
    verified = [run for run in runs if run.status == "verified"]
    return sorted(verified, key=lambda run: (run.submitted_ms, run.id))


def expected_boards(runs: list[Run], frozen: Frozen = _never) -> Places:
    """Every best, first and sum board's places (but the ``frozen`` ones), recomputed from the runs."""
    boards: Places = defaultdict(dict)
    sums: set[tuple[BoardId, str]] = set()
    for mine in _in_order(runs):
        packed = pack(mine.score or 0, mine.submitted_ms)
        for board in boards_of(mine):
            order = board.board.order
            if order is Order.LATEST or frozen(board):
                continue  # ``expected_ladders``, or not checked
            if order is Order.SUM:
                sums.add((board, mine.player))
                continue
            places = boards[ranking(board)]
            if order is Order.FIRST:
                places.setdefault(mine.player, (packed, mine.id))
            elif mine.player not in places or packed > places[mine.player][0]:
                places[mine.player] = (packed, mine.id)
    for board, player in sums:  # the sum of the player's places on the boards it adds up
        held = [place for deal in deal_boards(board) if (place := boards.get(ranking(deal), {}).get(player))]
        latest = max(held, key=lambda place: submitted_ms(place[0]))
        boards[ranking(board)][player] = (pack_ladder(sum(packed_score(key) for key, _ in held),
                                                      submitted_ms(latest[0])), latest[1])
    return boards


def expected_ladders(runs: list[Run], frozen: Frozen = _never) -> Ladders:
    """(board, player) → the player's verified runs on each board ranking the latest (the ladder) but the
    ``frozen`` ones, oldest first."""
    games: Ladders = defaultdict(list)
    for run in _in_order(runs):
        for board in boards_of(run):
            if board.board.order is Order.LATEST and not frozen(board):
                games[board, run.player].append(run)
    return games


def stored_boards(db: Database, frozen: Frozen = _never) -> set[Board]:
    """Every best and first board Redis or the archive holds places of, but the ``frozen`` ones."""
    found = set()
    for board in BOARDS:
        if board.order is Order.LATEST:
            continue
        board_ids = {board_id for batch in redis_boards(db, board) for board_id in batch}
        if board.cools:
            board_ids |= {BoardId(board, tuple(name.split(":", len(board.key) - 1)))
                          for names in db.archive.board_names(board.kind) for name in names}
        found |= {ranking(board_id) for board_id in board_ids if not frozen(board_id)}
    return found


def _board_problems(board: Board, copy: list[BoardPlace], expected: dict[str, tuple[int, str]],
                    runs_by_id: dict[str, Run]) -> list[str]:
    """What differs between the board's places as a read finds them (``copy``) and those its runs give."""
    places = {place.player: place for place in copy}
    problems = []
    for player in sorted(set(places) | set(expected)):
        want, have = expected.get(player), places.get(player)
        if want is None:
            if not is_pseudonym(player):  # an erased player's kept place has no run (``store.privacy.erasure``)
                problems.append(f"{board.places}: {player} is on the board but has no verified run that belongs "
                                f"there")
        elif have is None:
            problems.append(f"{board.places}: {player} is missing (run {want[1]})")
        elif have.rank_key != want[0]:
            problems.append(f"{board.places}: {player} holds rank key {have.rank_key}, the runs give {want[0]} "
                            f"(run {want[1]})")
        else:
            holder = runs_by_id.get(have.run_id)
            # at an exact tie (same score, same millisecond) either run is a right answer
            if holder is None or (board.packing is RANK and pack(holder.score or 0, holder.submitted_ms) != want[0]
                                  or board.packing is not RANK and holder.id != want[1]):
                problems.append(f"{board.places}: {player}'s place names run {have.run_id or None!r}, "
                                f"expected {want[1]}")
    return problems


def _archived_ids(db: Database) -> set[str]:
    archived: set[str] = set()
    for batch in db.archive.run_ids():
        archived.update(batch)
    return archived


def _archived_runs(db: Database, run_ids: set[str]) -> list[Run]:
    """The archived runs of ``run_ids``."""
    ordered = sorted(run_ids)
    runs: list[Run] = []
    for start in range(0, len(ordered), SCAN_BATCH):
        runs.extend(run_from_stored(run_id, copy.fields)
                    for run_id, copy in db.archive.load(ordered[start:start + SCAN_BATCH]).items())
    return runs


def _placement_problems(db: Database, runs: list[Run], archived: set[str]) -> list[str]:
    """Runs in both Redis and the archive, index entries naming a run in neither, and run hashes no player's
    run list names."""
    hot = {run.id for run in runs}
    indexed = set(stored_run_ids(db))
    problems = [f"run {run_id} is both in Redis and in the archive (an interrupted move; "
                f"the next `scoundrel archive` finishes it)" for run_id in sorted(hot & archived)]
    problems += [f"run {run_id} is in its player's run list but neither in Redis nor in the archive"
                 for run_id in sorted(indexed - hot - archived)]
    held = {key.removeprefix(keys.run("")) for key in _scan(db, keys.run("*"))}
    problems += [f"run {run_id} is in Redis but not in its player's run list: its game sent again would be "
                 f"taken as a new run (the accept script's test of a run Redis holds is that list)"
                 for run_id in sorted(held - indexed)]
    return problems


def _stored_latest(db: Database, frozen: Frozen) -> tuple[set[BoardId], set[tuple[BoardId, str]]]:
    """The boards ranking the latest that Redis holds places or counts of, and the (board, player)
    of every window it holds (as a SCAN finds them), but the ``frozen`` ones."""
    boards, windows = set(), set()
    for board in BOARDS:
        if board.order is not Order.LATEST:
            continue
        parts = len(board.key)
        for key_of in (keys.board_places, keys.board_games):
            prefix = key_of(board.kind, ("",))  # the parts follow it, ':' between
            boards |= {BoardId(board, tuple(key.removeprefix(prefix).split(":", parts - 1)))
                       for key in _scan(db, key_of(board.kind, ("*",) * parts))}
        prefix = keys.board_window(board.kind, ("",), "")[:-1]  # the parts, then the player
        for key in _scan(db, keys.board_window(board.kind, ("*",) * parts, "*")):
            *named, player = key.removeprefix(prefix).split(":", parts)
            windows.add((BoardId(board, tuple(named)), player))
    return ({board for board in boards if not frozen(board)},
            {(board, player) for board, player in windows if not frozen(board)})


def _ladder_problems(db: Database, ladders: Ladders, frozen: Frozen) -> list[str]:
    """Each window, count and place of every board ranking the latest (the ladder) but the ``frozen`` ones
    against the player's verified runs on it."""
    problems = []
    stored, windows = _stored_latest(db, frozen)
    seen = [*ladders, *windows]
    for board in sorted({board for board, _ in seen} | stored, key=lambda board: (board.board.kind, board.parts)):
        kind, parts = board.board.kind, board.parts
        places_key, games_key = keys.board_places(kind, parts), keys.board_games(kind, parts)
        ranked = {player: int(float(packed)) for player, packed in db.redis.zrange(places_key, 0, -1, withscores=True)}
        counts = db.redis.hgetall(games_key)
        players = {player for on, player in seen if on == board} | set(ranked) | set(counts)
        for player in sorted(players):
            games = ladders.get((board, player), [])
            latest = games[-LADDER_GAMES:]
            window_key = keys.board_window(kind, parts, player)
            window = db.redis.zrange(window_key, 0, -1)
            want_window = [f"{run.id}:{run.score}" for run in latest]
            if window != want_window:
                problems.append(f"{window_key} holds {window}, the runs give {want_window}")
            played = len(games)
            if int(counts.get(player, 0)) != played:
                problems.append(f"{games_key}: {player} counts {counts.get(player, 0)} games, the runs give {played}")
            want = (pack_ladder(sum(run.score or 0 for run in latest), latest[-1].submitted_ms)
                    if len(latest) == LADDER_GAMES else None)
            if ranked.get(player) != want:
                problems.append(f"{places_key}: {player} holds ladder key {ranked.get(player)}, the runs give {want}")
    return problems


def check(db: Database, pending_limit_seconds: float) -> list[str]:
    """Every inconsistency found, as a sentence; empty when the boards match the runs."""
    runs = stored_runs(db)
    frozen = frozen_boards(db)
    archived = _archived_ids(db)
    erasing = set(db.redis.hkeys(keys.erasures_begun()))  # their runs left in the archive are on no board
    every_run = [run for run in runs + _archived_runs(db, archived - {run.id for run in runs})
                 if run.player not in erasing]
    runs_by_id = {run.id: run for run in every_run}
    expected = expected_boards(every_run, frozen)
    stored = stored_boards(db, frozen)
    problems = _placement_problems(db, runs, archived)
    boards = sorted(set(expected) | stored, key=lambda board: board.places)
    for first in range(0, len(boards), BATCH):
        batch = boards[first:first + BATCH]
        for board, copy in zip(batch, read_boards(db, [board.of for board in batch]), strict=True):
            problems.extend(_board_problems(board, copy, expected.get(board, {}), runs_by_id))
    problems.extend(_ladder_problems(db, expected_ladders(every_run, frozen), frozen))
    problems += [f"the erasure of a player (pseudonym {json.loads(noted)['pseudonym']}) was begun and not "
                 f"finished: `scoundrel erase --finish` finishes it"
                 for noted in db.redis.hvals(keys.erasures_begun())]
    cutoff = now_ms() - int(pending_limit_seconds * 1000)
    indexed = {*db.redis.zrange(keys.pending_runs(), 0, -1),
               *(entry_parts(entry)[0] for entry in db.redis.lrange(keys.intake(), 0, -1))}
    for run in runs:
        if run.status != PENDING:
            continue
        if run.submitted_ms < cutoff:
            problems.append(f"run {run.id} has been pending since {run.submitted_ms} ms "
                            f"(more than {pending_limit_seconds:g} s)")
        if run.id not in indexed:
            problems.append(f"run {run.id} is pending but neither in the intake nor in the pending index: nothing "
                            f"will re-queue it")
    return problems


def place_on_seed_boards(db: Database) -> int:
    """Put every player on the seed board of each deal they have a verified open run on,
    as the verdict script does today: for runs verified before seed boards existed.
    Safe beside running workers (each player in one script); the places made."""
    prefix = keys.player_runs("")
    return sum(scripts.place_seed_boards(db, player=key.removeprefix(prefix))
               for key in _scan(db, keys.player_runs("*")))
