"""Cold boards leave Redis for the archive whole, and come back when they warm up.

A kind of board the registry says ``cools`` (``domain.boards``: the seed
boards, one per deal played) costs Redis two keys a board (a seed board of
one place: a field of a shared hash, ``keys.sole_places``) for as long as it
is there. A board of such a kind whose newest place is older than
``SCOUNDREL_HOT_DAYS`` (no verdict placed on it since) is cold: a retention
pass (``store.operations.retention``) moves it to the archive's
``archived_board_places``, one indexed row a place with what the board shows
(player, rank key, run id), and reads find it there (``store.boards.pages``).

A move is three steps, as a run's is: read the board from Redis; write it
to the archive and commit (replacing what the archive held of it, so a
second write changes nothing); remove it from Redis only if it is unchanged
since the read (``lua/forget_board.lua``). A crash between the commit and
the removal leaves both copies, alike. A large board (a season's, a week's
league board: a million places) is read, removed and brought back a
``SLICE`` of places a call, so that no call holds Redis for more than a few
milliseconds; its removal takes each place only if unchanged
(``lua/forget_places.lua``), and what a verdict changed meanwhile stays, read
merged with the archive's copy as above.

A verdict placed on a board the archive holds goes into Redis as usual,
beside the archive's copy: a read merges the two, each player's place the
better one by the board's order (``merged``), which is what placing the
archive's places as verdicts would give. The next pass settles such a board:
cold, its Redis part joins the archive's (merged, then removed as above);
warm, the archive's places come back into Redis (offered as verdicts,
``lua/bring_back_board.lua``, then removed from the archive). A crash
between those two steps leaves both copies, and the merge reads them right.

A void, restore or re-verification recomputes a player's places from their
runs, which the merge cannot follow (a place taken away would still show in
the archive's copy): so it first brings the run's boards back from the
archive (``hot_boards``). Moving boards and recomputing on moved boards take
one lock (``keys.board_archive_lock``), so neither sees the other half done.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeGuard

from redis.exceptions import LockError, RedisError
from redis.lock import Lock

from domain.boards import BOARDS, Board, BoardId, Order, board_named
from store.archive import BoardPlace
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import LATEST_MS, TIME_SPAN
from store.boards import scripts
from store.boards.placements import board_keys

BATCH = 500  # boards read, written and removed together
SLICE = 1000  # places of one board read, removed or brought back in one call: a few ms of Redis each
LOCK_SECONDS = 20  # the lock's expiry, renewed while it is held: a process killed holding it frees it so soon
LOCK_WAIT = 25  # seconds a recompute or a pass waits for the lock: longer than a dead holder keeps it


@dataclass
class Tally:
    """What a pass did to the boards that cool: moved to the archive, brought back, left as they changed."""

    cooled: int = 0
    brought_back: int = 0
    changed: int = 0


def board_name(board: BoardId) -> str:
    """The board's name in the archive: its key parts, ':' between (as its Redis keys end)."""
    return ":".join(board.parts)


def submitted_ms(rank_key: int) -> int:
    """The submission time a rank key packs (``packing.pack``'s second part)."""
    return LATEST_MS - rank_key % TIME_SPAN


def wins(order: Order, rank_key: int, held: int | None) -> bool:
    """Whether a place of ``rank_key`` takes the player's place from the one ``held`` (``_placement.lua``'s rule)."""
    if held is None:
        return True
    if order is Order.FIRST:
        return submitted_ms(rank_key) < submitted_ms(held)
    return rank_key > held


def merged(order: Order, *copies: list[BoardPlace]) -> list[BoardPlace]:
    """One board's copies as one: each player's place the winner among theirs, best first."""
    places: dict[str, BoardPlace] = {}
    for copy in copies:
        for place in copy:
            held = places.get(place.player)
            if wins(order, place.rank_key, None if held is None else held.rank_key):
                places[place.player] = place
    # best first; equal rank keys by player, descending, as Redis' ZREVRANGE orders them
    return sorted(places.values(), key=lambda place: (place.rank_key, place.player), reverse=True)


@contextmanager
def board_lock(db: Database) -> Iterator[None]:
    """The lock of moving boards, held for as long as the work inside takes (a large board's move can take
    minutes): a keeper renews it every quarter of ``LOCK_SECONDS``, so a process killed holding it frees
    it that soon after."""
    lock = db.redis.lock(keys.board_archive_lock(), timeout=LOCK_SECONDS, blocking_timeout=LOCK_WAIT,
                         thread_local=False)
    with lock:
        done = threading.Event()
        keeper = threading.Thread(target=_keep, args=(lock, done), name="board-lock-keeper", daemon=True)
        keeper.start()
        try:
            yield
        finally:
            done.set()
            keeper.join()


def _keep(lock: Lock, done: threading.Event) -> None:
    while not done.wait(LOCK_SECONDS / 4):
        try:
            lock.reacquire()
        except (LockError, RedisError):
            return  # lost: the holder's release says so


SPREAD = "*"  # a board's field in the hash of sole places while its places are in its two keys (``lua/_sole.lua``)


def sole_from(held: str) -> BoardPlace:
    """A board's one place as the hash of sole places holds it (``lua/_sole.lua``)."""
    packed, player, run_id = held.split(" ")
    return BoardPlace(player, int(packed), run_id)


def is_sole(held: str | None) -> TypeGuard[str]:
    """Whether a board's field in the hash of sole places, as read, is its one place (not none, nor ``SPREAD``)."""
    return held is not None and held != SPREAD


def sole_read(board: BoardId, held: str | None) -> BoardPlace | None:
    """The board's one place as its field of the hash of sole places was read (``held``), or None: a kind never
    kept so (``domain.boards.Board.sole``), an empty board, or one in its sorted set."""
    return sole_from(held) if board.board.sole and is_sole(held) else None


def sole_place(db: Database, board: BoardId) -> BoardPlace | None:
    """The one place of a board kept so (``domain.boards.Board.sole``), or None: it is empty, or in its
    sorted set (where a second player's place moved it)."""
    if not board.board.sole:
        return None
    return sole_read(board, db.redis.hget(keys.sole_places(board.name), board.name))


def redis_places(db: Database, boards: list[BoardId]) -> list[list[BoardPlace]]:
    """Each board's places in Redis (a board kept as its sole place: that one): the small ones in one round
    trip, a large one (over ``SLICE`` places) a slice at a time, so that no call holds Redis for long (a
    slice read as a verdict moves a place may miss or repeat it: ``merged`` keeps each player once, and a
    move finds the board changed)."""
    with db.redis.pipeline(transaction=False) as pipe:
        for board in boards:
            pipe.zcard(board_keys(board)[0])
        sizes = pipe.execute()
    small = [board for board, size in zip(boards, sizes, strict=True) if size <= SLICE]
    with db.redis.pipeline(transaction=False) as pipe:
        for board in small:
            places_key, runs_key, *_ = board_keys(board)
            pipe.zrange(places_key, 0, -1, withscores=True)
            pipe.hgetall(runs_key)
            pipe.hget(keys.sole_places(board.name), board.name)  # a kind never kept so: None
        replies = pipe.execute()
    read = {board: [BoardPlace(player, int(packed), holders.get(player, "")) for player, packed in ranked]
            or ([place] if (place := sole_read(board, sole)) else [])
            for board, ranked, holders, sole in zip(small, replies[::3], replies[1::3], replies[2::3], strict=True)}
    return [read[board] if board in read else _sliced_places(db, board, size)
            for board, size in zip(boards, sizes, strict=True)]


def _sliced_places(db: Database, board: BoardId, size: int) -> list[BoardPlace]:
    places_key, runs_key, *_ = board_keys(board)
    places: list[BoardPlace] = []
    for first in range(0, size, SLICE):
        ranked = db.redis.zrange(places_key, first, first + SLICE - 1, withscores=True)
        holders = db.redis.hmget(runs_key, [player for player, _ in ranked]) if ranked else []
        places += [BoardPlace(player, int(packed), holder or "")
                   for (player, packed), holder in zip(ranked, holders, strict=True)]
    return places


def listed_places(db: Database, board: BoardId) -> list[BoardPlace] | None:
    """The board's places, best first, where Redis' sorted set does not hold them all: merged from Redis
    and the archive when the archive holds some, or a board's one place kept so (``Board.sole``); None
    when Redis alone holds the board, in its sorted set (or holds none of it, the archive neither)."""
    return listed_beside(db, board, sole_place(db, board))


def listed_beside(db: Database, board: BoardId, sole: BoardPlace | None) -> list[BoardPlace] | None:
    """``listed_places`` for a caller that has read the board's one place (``sole_place``) already."""
    archived = db.archive.board_places(board.board.kind, board_name(board)) if board.board.cools else []
    if not archived:
        return None if sole is None else [sole]
    return merged(board.board.order, archived, [sole] if sole is not None else redis_places(db, [board])[0])


def read_boards(db: Database, boards: list[BoardId]) -> list[list[BoardPlace]]:
    """Each board's places as a read finds them (``listed_places``, else Redis' sorted set), a batch in a few
    round trips and queries: the archive read for those of its boards it holds places of."""
    with db.redis.pipeline(transaction=False) as pipe:
        for board in boards:
            pipe.hget(keys.sole_places(board.name), board.name)
        soles = [sole_read(board, held) for board, held in zip(boards, pipe.execute(), strict=True)]
    archived = {(kind.kind, name): places for kind in {board.board for board in boards if board.board.cools}
                for name, places in db.archive.boards_places(
                    kind.kind, [board_name(one) for one in boards if one.board is kind]).items()}
    spread = iter(redis_places(db, [board for board, sole in zip(boards, soles, strict=True) if sole is None]))
    read = []
    for board, sole in zip(boards, soles, strict=True):
        own = [sole] if sole is not None else next(spread)
        held = archived.get((board.board.kind, board_name(board)))
        read.append(merged(board.board.order, held, own) if held is not None else own)
    return read


def redis_boards(db: Database, kind: Board, batch: int = BATCH) -> Iterator[list[BoardId]]:
    """Every board of ``kind`` Redis holds places of (as a SCAN finds them, and those kept as their sole
    place), in batches."""
    prefix = keys.board_places(kind.kind, ("",))  # the parts follow it, ':' between
    found: list[BoardId] = []
    for places_key in db.redis.scan_iter(match=keys.board_places(kind.kind, ("*",) * len(kind.key)), count=batch):
        found.append(BoardId(kind, tuple(places_key.removeprefix(prefix).split(":", len(kind.key) - 1))))
        if len(found) == batch:
            yield found
            found = []
    if kind.sole:
        for names in _sole_names(db, batch):
            found += [board for board in map(board_named, names) if board.board is kind]
            if len(found) >= batch:
                yield found
                found = []
    if found:
        yield found


def _sole_names(db: Database, batch: int) -> Iterator[list[str]]:
    """The names of the boards kept as their sole place, a batch of their hashes at a time (not those whose
    field says they are in their two keys, which a SCAN finds)."""
    buckets = keys.every_sole_places()
    for first in range(0, len(buckets), batch):
        yield scripts.sole_names(db.redis, buckets[first:first + batch])


def cool_boards(db: Database, cutoff_ms: int, batch: int = BATCH) -> Tally:
    """Move every cold board of a kind that cools to the archive, and bring back from it every
    board a verdict warmed (one the archive holds whose Redis part has a place newer than ``cutoff_ms``)."""
    tally = Tally()
    for kind in BOARDS:
        if kind.cools:
            for boards in redis_boards(db, kind, batch):
                _settle_batch(db, kind, boards, cutoff_ms, tally)
    return tally


def _settle_batch(db: Database, kind: Board, boards: list[BoardId], cutoff_ms: int, tally: Tally) -> None:
    with board_lock(db):
        hot = redis_places(db, boards)
        held = db.archive.boards_held(kind.kind, [board_name(board) for board in boards])
        cold = [(board, places) for board, places in zip(boards, hot, strict=True)
                if places and max(submitted_ms(place.rank_key) for place in places) < cutoff_ms]
        cold_names = {board_name(board) for board, _ in cold}
        warm = [board for board, places in zip(boards, hot, strict=True)
                if places and board_name(board) in held and board_name(board) not in cold_names]
        _bring_back(db, warm)
        tally.brought_back += len(warm)
        if not cold:
            return
        archived = db.archive.boards_places(kind.kind, [name for name in cold_names if name in held])
        written = {board_name(board): merged(kind.order, archived.get(board_name(board), []), places)
                   if board_name(board) in held else places for board, places in cold}
        write_boards(db, kind, written)
        small = [(board, places) for board, places in cold if len(places) <= SLICE]
        with db.redis.pipeline(transaction=False) as pipe:
            for board, places in small:
                scripts.forget_board(pipe, board=board, places=places)
            answers = pipe.execute()
        answers += [_forget_sliced(db, board, places) for board, places in cold if len(places) > SLICE]
        # a board a verdict changed meanwhile is in both places: the reads merge them, the next pass settles it
        tally.changed += answers.count("changed")
        tally.cooled += answers.count("ok")


def _forget_sliced(db: Database, board: BoardId, places: list[BoardPlace]) -> str:
    """Remove a large board the archive holds now a slice at a time, each place only if unchanged since it
    was read: 'ok' once none is left, else 'changed' (what changed stays, and the reads merge the two)."""
    left = 0
    for first in range(0, len(places), SLICE):
        left = scripts.forget_places(db.redis, board=board, places=places[first:first + SLICE])
    return "ok" if left == 0 else "changed"


def _bring_back(db: Database, boards: list[BoardId]) -> None:
    """Each board's archived places back into Redis (merged with what Redis holds), then out of the archive."""
    for board in boards:
        archived = db.archive.board_places(board.board.kind, board_name(board))
        if archived:
            for first in range(0, len(archived), SLICE):  # a slice a call: no call holds Redis for long
                scripts.bring_back_board(db.redis, board=board, places=archived[first:first + SLICE])
            drop_archived(db, board)


def write_boards(db: Database, kind: Board, boards: dict[str, list[BoardPlace]]) -> None:
    """A move's step 2: the boards into the archive, committed (a fault test kills the pass on either side)."""
    db.archive.write_boards(kind.kind, boards, now_ms())


def drop_archived(db: Database, board: BoardId) -> None:
    """A bringing back's last step: the board out of the archive, once Redis holds it merged (a fault
    test kills the pass before it)."""
    db.archive.delete_boards(board.board.kind, [board_name(board)])


@contextmanager
def hot_boards(db: Database, boards: list[BoardId]) -> Iterator[None]:
    """For a recompute of a player's places on ``boards``: those the archive holds are brought back
    into Redis first, and no pass moves any of them until the recompute is done (the lock)."""
    cooling = [board for board in boards if board.board.cools]
    if not cooling:
        yield
        return
    with board_lock(db):
        _bring_back(db, [board for board in cooling
                         if board_name(board) in db.archive.boards_held(board.board.kind, [board_name(board)])])
        yield
