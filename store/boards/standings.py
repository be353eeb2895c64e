"""How a board's scores spread, and where a player stands on a list of boards.

The spread (a histogram, the median, and how many places lie below a score)
is read from the board's own sorted set, not kept beside it: a rank key is
the score times a span plus a tie-break below the span (``packing``), so the
places with one score are one contiguous range of keys, and a ``ZCOUNT`` of
that range is O(log N) on the sorted set's skip list. One script
(``lua/board_spread.lua``) counts every bucket between the lowest and the
highest score, about 25 ranges, in one round trip: exact, at a million
places as at ten, with no extra memory and nothing added to the scripts that
place and unplace runs. A count hash kept by those scripts would make the
read a single ``HGETALL``, but it would cost memory on every board (the
seed boards are one key per deal) and a second truth to keep in step on
every void, restore and re-verification; ``bench/pages.py`` measures the
read at a million places well inside the pages' budget.

The ladder ranks means of ``LADDER_GAMES`` scores, which are not integers:
its buckets are whole points of mean (the sum's ranges in steps of 20).
"""

import bisect
from dataclasses import dataclass

from domain.boards import BoardId, percentile, top_percent
from store.base import keys
from store.base.database import Database
from store.base.packing import (
    LADDER_GAMES,
    LADDER_OFFSET,
    LADDER_SPAN,
    SCORE_OFFSET,
    TIME_SPAN,
    packed_ladder_total,
    packed_score,
)
from store.boards import scripts
from store.boards.cooling import board_name, is_sole, listed_places, sole_from
from store.boards.pages import ArchivedBoard, Board, archived_above, places_apart

SPREAD_BUCKETS = 40  # at most this many bars: the bucket width is the first of 1, 2, 5, 10, 20, 25, 50… that fits
SPREAD_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)  # as ``lua/board_spread.lua``


@dataclass(frozen=True)
class Bucket:
    """Places whose score (on the ladder: mean) is from ``low`` up to, not including, ``high``."""

    low: float
    high: float
    count: int


@dataclass(frozen=True)
class Spread:
    """How a board's places spread over scores.

    ``median`` is the score of the middle place in rank order (for an even
    total, the better of the two middle ones); ``below`` the number of places
    with a strictly lower score than the one asked about (ties are not
    beaten), None when none was asked.
    """

    total: int
    buckets: list[Bucket]
    median: float | None
    below: int | None = None

    def share_below(self) -> int | None:
        """``below`` as a whole percentage of the places, rounded down (never "100 %" unless it is)."""
        if self.below is None or not self.total:
            return None
        return self.below * 100 // self.total


def _spread(reply: list, offset: int, unit: int, asked: bool) -> Spread:
    if reply[0] == 0:
        return Spread(0, [], None, 0 if asked else None)
    total, first, width, middle, below, *counts = reply
    buckets = [Bucket((first - offset + index * width) / unit, (first - offset + (index + 1) * width) / unit, count)
               for index, count in enumerate(counts)]
    return Spread(total, buckets, (middle - offset) / unit, below if asked else None)


def _archived_spread(rank_keys: list[int], below: int | None) -> list:
    """``lua/board_spread.lua``'s reply for a board the archive holds (``rank_keys``, best first), counted here."""
    values = sorted(rank_key // TIME_SPAN for rank_key in rank_keys)
    if not values:
        return [0]
    lowest, highest = values[0], values[-1]
    width = next((step for step in SPREAD_STEPS if -(-(highest - lowest + 1) // step) <= SPREAD_BUCKETS),
                 SPREAD_STEPS[-1])
    first = lowest - (lowest - SCORE_OFFSET) % width
    total = len(values)
    middle = values[total - 1 - (total - 1) // 2]
    counts = [bisect.bisect_left(values, low + width) - bisect.bisect_left(values, low)
              for low in range(first, highest + 1, width)]
    return [total, first, width, middle, -1 if below is None else bisect.bisect_left(values, below), *counts]


def board_spread(db: Database, board: Board, score: int | None = None) -> Spread:
    """How the scores on ``board`` spread; with ``score``, how many places are below it. A board
    the archive holds (``store.boards.cooling``) is counted from its places there."""
    packing = board.packing
    below = None if score is None else score + packing.offset
    copy = listed_places(db, board.of)
    if copy is not None:
        reply = _archived_spread([place.rank_key for place in copy], below)
    else:
        reply = scripts.board_spread(db.redis, places=board.places, span=packing.span, offset=packing.offset, unit=1,
                                     most=SPREAD_BUCKETS, below=below)
    return _spread(reply, packing.offset, 1, score is not None)


def _ladder_places(ladder: BoardId) -> str:
    return keys.board_places(ladder.board.kind, ladder.parts)


def ladder_spread(db: Database, ladder: BoardId, mean: float | None = None) -> Spread:
    """How the means on a ladder spread, in buckets of whole points; with ``mean``, how many
    players are below it."""
    below = None if mean is None else round(mean * LADDER_GAMES) + LADDER_OFFSET
    reply = scripts.board_spread(db.redis, places=_ladder_places(ladder), span=LADDER_SPAN, offset=LADDER_OFFSET,
                                 unit=LADDER_GAMES, most=SPREAD_BUCKETS, below=below)
    return _spread(reply, LADDER_OFFSET, LADDER_GAMES, mean is not None)


@dataclass(frozen=True)
class Standing:
    """A player's place on one board: rank (1-based) of ``total``, the score (the ladder: mean) there, and
    how many places score strictly higher (``above``, which gives its share: ``domain.boards.percentile``)."""

    rank: int
    total: int
    score: float
    above: int

    @property
    def percentile(self) -> float:
        return percentile(self.above, self.total)

    @property
    def top_percent(self) -> float:
        return top_percent(self.above, self.total)


def standings(db: Database, player: str, boards: list[Board], ladders: list[BoardId]) -> list[Standing | None]:
    """The player's place on each of ``boards``, then on each of ``ladders`` (None where they
    have none), in one round trip to Redis; a board the archive holds (``store.boards.cooling``)
    is read from its copy there, and a board kept as its sole place (``domain.boards.Board.sole``) from
    that place."""
    places = [(board.places, board.packing.span) for board in boards] + [(_ladder_places(ladder), LADDER_SPAN)
                                                                          for ladder in ladders]
    with db.redis.pipeline(transaction=False) as pipe:  # a short script, sent as text: no NOSCRIPT to answer
        for key, span in places:
            scripts.board_standing(pipe, places=key, player=player, span=span)
        kept_so = [board.of for board in boards if board.of.board.sole]
        for board_id in kept_so:
            pipe.hget(keys.sole_places(board_id.name), board_id.name)
        replies = pipe.execute()
    soles = {board_id: sole_from(held) for board_id, held in zip(kept_so, replies[len(places):], strict=True)
             if is_sole(held)}
    found: list[Standing | None] = []
    for index, reply in enumerate(replies[:len(places)]):
        sole = soles.get(boards[index].of) if index < len(boards) else None
        if sole is not None and sole.player == player:
            reply = [0, sole.rank_key, 1, 0]
        if not reply:
            found.append(None)
            continue
        rank, packed, total, above = reply
        score = (boards[index].packing.score(float(packed)) if index < len(boards)
                 else round(packed_ladder_total(float(packed)) / LADDER_GAMES, 2))
        found.append(Standing(rank + 1, total, score, above))
    held = {(kind.kind, name) for kind in {board.of.board for board in boards if board.of.board.cools}
            for name in db.archive.boards_held(kind.kind, [board_name(board.of) for board in boards
                                                           if board.of.board is kind])}
    for index, board in enumerate(boards):
        if (board.of.board.kind, board_name(board.of)) not in held:
            continue  # in Redis alone (its sorted set, or its one place, read above)
        apart = places_apart(db, board.of)
        if isinstance(apart, ArchivedBoard):
            found[index] = _standing_alone(apart, player)
        elif copy := apart:
            found[index] = next((Standing(rank + 1, len(copy), packed_score(place.rank_key),
                                          archived_above(copy, rank))
                                 for rank, place in enumerate(copy) if place.player == player), None)
    return found


def _standing_alone(board: ArchivedBoard, player: str) -> Standing | None:
    """The player's place on a board the archive alone holds, by indexed queries."""
    found = board.places_of([player])
    if not found:
        return None
    return Standing(board.index_of(found[0]) + 1, board.total(), packed_score(found[0].rank_key),
                    board.above(found[0]))
