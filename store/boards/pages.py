"""Reading the rankings: a page of a board, and one player's place on it.

A board is a sorted set of players by packed rank key (see ``packing``) and
a hash naming the run behind each place: what a board shows (player, score,
time, run id) is in its entries, so reading it reads no run, and a run may
leave Redis for the archive while it holds a place. A board of a kind that
cools may be in the archive, whole or in part (``store.boards.cooling``):
its reads find it there. A board of a kind kept as its one place while it
has one (``domain.boards.Board.sole``) is read as a list of that place, as
an archived board's copy is (``cooling.listed_places``). Ranks are 1-based and distinct. The ladder ranks
means, not runs: ``ladder_page``, ``ladder_position``. ``page_of`` and ``position_on`` read
any board of the registry, either way; ``board_among`` reads chosen players' places on any.
"""

from dataclasses import dataclass

from domain.boards import BoardId, Order, with_share
from store.archive import BoardPlace
from store.base.database import Database
from store.base.packing import LADDER_GAMES, RANK, TOTAL, Packing, iso_time, least_above, packed_score
from store.boards import scripts
from store.boards.cooling import board_name, listed_beside, sole_place, submitted_ms
from store.boards.placements import board_keys

SHARE = ("total", "percentile", "top_percent")  # what ``domain.boards.with_share`` adds to an entry


@dataclass(frozen=True)
class Board:
    """The keys one ranking lives in: its places, and the hash naming each place's run; and which board it is."""

    places: str
    runs: str
    of: BoardId

    @property
    def packing(self) -> Packing:
        """How its rank keys pack a score: one game's, or a sum's (a tournament's ``sum`` board)."""
        return TOTAL if self.of.board.order is Order.SUM else RANK


def ranking(board: BoardId) -> Board:
    """The keys of a best or first board of the registry (``domain.boards``)."""
    places, runs, *_ = board_keys(board)
    return Board(places, runs, of=board)


def _entries(first_rank: int, flat: list) -> list[dict]:
    """Board entries from the scripts' flat (player, score, submission ms, run id) places."""
    return [
        {"rank": first_rank + offset, "player": player, "score": score, "run_id": run_id or None,
         "submitted_at": iso_time(submitted_ms)}
        for offset, (player, score, submitted_ms, run_id) in enumerate(zip(*[iter(flat)] * 4, strict=True))
    ]


def _flat(places: list[BoardPlace]) -> list:
    """Archived places as the scripts list them (``_entries``)."""
    return [item for place in places
            for item in (place.player, packed_score(place.rank_key), submitted_ms(place.rank_key), place.run_id)]


def _shared(entries: list[dict], total: int, above_first: int, value: str = "score") -> list[dict]:
    """Contiguous places, best first, each with its share of the board (``domain.boards.with_share``).
    ``above_first``: the places scoring strictly higher than the first (Redis counts them); a later
    place has as many as its rank says, unless its ``value`` (score, or mean) ties the place before it."""
    shared: list[dict] = []
    above = above_first
    for index, entry in enumerate(entries):
        if index and entry[value] != entries[index - 1][value]:
            above = entry["rank"] - 1
        shared.append(with_share(entry, above, total))
    return shared


def archived_above(copy: list[BoardPlace], index: int) -> int:
    """The places of an archived board (``copy``, best first) scoring strictly higher than its ``index``th."""
    score = packed_score(copy[index].rank_key)
    while index and packed_score(copy[index - 1].rank_key) == score:
        index -= 1
    return index


def _archived_window(copy: list[BoardPlace], first: int, last: int) -> list[dict]:
    """The entries of an archived board's places from index ``first`` to ``last``, with their shares."""
    window = copy[first:last + 1]
    return _shared(_entries(first + 1, _flat(window)), len(copy), archived_above(copy, first) if window else 0)


@dataclass(frozen=True)
class ArchivedBoard:
    """A board the archive alone holds (none of it in Redis), read by indexed queries: a place, its index,
    the places above it, a window, never the whole board (a million places is a season's or a week's)."""

    db: Database
    kind: str
    name: str

    def places_of(self, players: list[str]) -> list[BoardPlace]:
        return self.db.archive.board_places_of(self.kind, self.name, players)

    def index_of(self, place: BoardPlace) -> int:
        return self.db.archive.board_count_before(self.kind, self.name, place)

    def above(self, place: BoardPlace) -> int:
        """The places scoring strictly higher than ``place``."""
        return self.db.archive.board_count_from(self.kind, self.name, least_above(place.rank_key))

    def total(self) -> int:
        return self.db.archive.board_page(self.kind, self.name, 0, 0)[0]

    def window(self, first: int, last: int) -> tuple[int, list[dict]]:
        """``(total, the entries from index first to last, with their shares)``."""
        total, places = self.db.archive.board_page(self.kind, self.name, first, last - first + 1)
        return total, _shared(_entries(first + 1, _flat(places)), total, self.above(places[0]) if places else 0)


def places_apart(db: Database, board: BoardId,
                 in_sorted_set: bool | None = None) -> ArchivedBoard | list[BoardPlace] | None:
    """Where the board's places are read when Redis' sorted set does not hold them all: the board as the
    archive alone holds it (read there by indexed queries), or its places as a list (merged from Redis
    and the archive, or the one place of a board kept so: ``cooling.listed_places``); None when the
    sorted set holds them all (or no one has a place). Its one place is read once; ``in_sorted_set``,
    where the caller knows it, spares the look at whether the sorted set exists."""
    sole = sole_place(db, board)
    if board.board.cools and sole is None:
        if in_sorted_set is None:
            in_sorted_set = bool(db.redis.exists(board_keys(board)[0]))
        if not in_sorted_set:
            name = board_name(board)
            held = db.archive.boards_held(board.board.kind, [name])
            return ArchivedBoard(db, board.board.kind, name) if held else None
    return listed_beside(db, board, sole)


def board_page(db: Database, board: Board, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)`` for ``limit`` places from rank ``offset + 1``."""
    reply = scripts.board_page(db.redis, places=board.places, runs=board.runs, first=offset, last=offset + limit - 1,
                               packing=board.packing.name)
    apart = places_apart(db, board.of, in_sorted_set=bool(reply[0]))
    if isinstance(apart, ArchivedBoard):
        return apart.window(offset, offset + limit - 1)
    if apart is not None:  # in both, merged; or its one place
        return len(apart), _archived_window(apart, offset, offset + limit - 1)
    total, above_first = reply[0], reply[1]
    return total, _shared(_entries(offset + 1, reply[2:]), total, above_first)


def board_position(db: Database, board: Board, player: str, around: int) -> dict | None:
    """The player's place with ``around`` places either side (the player included), or None if unranked."""
    apart = places_apart(db, board.of)
    if isinstance(apart, ArchivedBoard):
        found = apart.places_of([player])
        if not found:
            return None
        index = apart.index_of(found[0])
        first = max(0, index - around)
        _, window = apart.window(first, index + around)
    elif apart is not None:
        held = next((index for index, place in enumerate(apart) if place.player == player), None)
        if held is None:
            return None
        index, first = held, max(0, held - around)
        window = _archived_window(apart, first, index + around)
    else:
        reply = scripts.board_position(db.redis, places=board.places, runs=board.runs, player=player, around=around,
                                       packing=board.packing.name)
        if not reply:
            return None
        index, first, total, above_first = reply[:4]
        window = _shared(_entries(first + 1, reply[4:]), total, above_first)
    mine = window[index - first]
    return {**{field: mine[field] for field in ("rank", "score", "run_id", *SHARE)}, "around": window}


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


def ladder_page(db: Database, ladder: BoardId, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)``: a ladder (a board ranking the latest) from rank ``offset + 1``."""
    reply = scripts.ladder_page(db.redis, ladder=ladder, first=offset, last=offset + limit - 1)
    total, above_first = reply[0], reply[1]
    return total, _shared(_ladder_entries(offset + 1, reply[2:]), total, above_first, "mean")


def ladder_position(db: Database, ladder: BoardId, player: str, around: int) -> dict | None:
    """The player's place on the ladder with ``around`` places either side, or None if not on it."""
    reply = scripts.ladder_position(db.redis, ladder=ladder, player=player, around=around)
    if not reply:
        return None
    index, first, total, above_first = reply[:4]
    window = _shared(_ladder_entries(first + 1, reply[4:]), total, above_first, "mean")
    mine = window[index - first]
    return {**{field: mine[field] for field in ("rank", "mean", "games", "run_id", *SHARE)}, "around": window}


def page_of(db: Database, board: BoardId, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)`` of any board of the registry from rank ``offset + 1``: a ladder's
    (``ladder_page``) or a best, first or sum board's (``board_page``)."""
    if board.board.order is Order.LATEST:
        return ladder_page(db, board, offset, limit)
    return board_page(db, ranking(board), offset, limit)


def position_on(db: Database, board: BoardId, player: str, around: int) -> dict | None:
    """The player's place on any board of the registry with ``around`` places either side, or None."""
    if board.board.order is Order.LATEST:
        return ladder_position(db, board, player, around)
    return board_position(db, ranking(board), player, around)


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
        listed = reply[1]
        entries = _ladder_entries(offset + 1, reply[3 + 2 * listed:])
    elif isinstance(apart := places_apart(db, board), ArchivedBoard):
        return _among_alone(apart, players, offset, limit)
    elif apart is not None:
        return _among_archived(apart, players, offset, limit)
    else:
        ranked = ranking(board)
        reply = scripts.board_among(db.redis, places=ranked.places, runs=ranked.runs, players=players,
                                    first=first, last=last, packing=ranked.packing.name)
        listed = reply[1]
        entries = _entries(offset + 1, reply[3 + 2 * listed:])
    total, indexes, above = reply[2], reply[3:3 + listed], reply[3 + listed:3 + 2 * listed]
    return reply[0], [with_share({"rank": entry["rank"], "global_rank": index + 1, **entry}, beaten_by, total)
                      for entry, index, beaten_by in zip(entries, indexes, above, strict=True)]


def _among_alone(board: ArchivedBoard, players: list[str], offset: int, limit: int) -> tuple[int, list[dict]]:
    """``board_among`` on a board the archive alone holds: the players' places by primary key, then an
    index count for each one listed."""
    found = board.places_of(players)
    listed = found[offset:offset + limit]
    total = board.total()
    return len(found), [with_share({"rank": entry["rank"], "global_rank": board.index_of(place) + 1, **entry},
                                   board.above(place), total)
                        for entry, place in zip(_entries(offset + 1, _flat(listed)), listed, strict=True)]


def _among_archived(copy: list[BoardPlace], players: list[str], offset: int, limit: int) -> tuple[int, list[dict]]:
    """``board_among`` on a board the archive holds (``copy``: its places, best first)."""
    chosen = set(players)
    found = [(index, place) for index, place in enumerate(copy) if place.player in chosen]
    listed = found[offset:offset + limit]
    entries = _entries(offset + 1, _flat([place for _, place in listed]))
    return len(found), [with_share({"rank": entry["rank"], "global_rank": index + 1, **entry},
                                   archived_above(copy, index), len(copy))
                        for entry, (index, _) in zip(entries, listed, strict=True)]
