"""Seasons in the store: closing those that have ended, and telling which are known.

A season's boards (``domain.boards.SEASON_BOARD``, ``SEASON_LADDER``) are
ordinary registry boards under their ordinary keys, placed by the generic
placement. Closing a season is one script (``lua/mark_once.lua``): a
``ZADD NX`` of its id into the set of closed seasons (``keys.closed``),
scored by its end, and its ``season.ended`` event in the same step: atomic
and idempotent, and its reply says whether this call closed it. Every placing script reads that set
in the same script as it would place (``lua/_placement.lua``), so from the
instant a season is listed as past its standings never change: a late
verdict of one of its runs lands on the all-time boards only, and a void or
re-verification moves no frozen place.

Which seasons close: every season that has ended, from the one in force when
the service began keeping seasons (``keys.seasons_began``, set by the first
pass) or just after the newest closed one, in order; the workers' periodic
pass does it (``worker.runner``), and so does every API read of a season
first, so no reader sees an ended season that is not closed yet.
"""

from collections.abc import Callable

from domain.boards import BOARDS, BoardId
from domain.events import SEASON_ENDED
from domain.seasons import Season, parse_season, season_at
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time
from store.webhooks.hooks import wake_if_waiting
from store.webhooks.scripts import mark_once

SEASON_PART = "season"  # the seasonal boards' key part that closes them (``Board.closed_by``)


class UnknownSeason(LookupError):
    """A well-formed season id that is neither the current season nor a closed one (404)."""


def close_season(db: Database, season: Season) -> bool:
    """Close ``season`` (freeze its boards, list it as past): True if this call closed it, False if
    it was closed already. Its ``season.ended`` event (the season as ``schemas.seasons.SeasonSchema``
    shows it) is recorded in the same step, so it is told once, whatever process dies when."""
    shown = {"id": season.id, "starts_at": iso_time(season.starts_ms), "ends_at": iso_time(season.ends_ms)}
    closed = bool(mark_once(db.redis, marks=keys.closed(SEASON_PART), member=season.id, score=season.ends_ms,
                            event=SEASON_ENDED, at_ms=now_ms(), fields={"season": shown}))
    if closed:
        wake_if_waiting(db)
    return closed


def close_ended_seasons(db: Database, at_ms: int | None = None) -> list[Season]:
    """Close every season of ``db.seasons`` that has ended by ``at_ms`` (now) and is not closed yet,
    oldest first; the seasons this call closed. Safe in several processes at once."""
    at = now_ms() if at_ms is None else at_ms
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.get(keys.seasons_began())
        pipe.zrevrange(keys.closed(SEASON_PART), 0, 0, withscores=True)
        began, newest = pipe.execute()
    if began is None:  # the first pass: written once, so that a read writes nothing (a full Redis refuses writes)
        db.redis.set(keys.seasons_began(), season_at(db.seasons, at).starts_ms, nx=True)
        began = db.redis.get(keys.seasons_began())
    since = max(int(began), int(newest[0][1]) if newest else 0)
    closed = []
    season = season_at(db.seasons, since)
    while season.ends_ms <= at:
        if close_season(db, season):
            closed.append(season)
        season = season.following()
    return closed


def current_season(db: Database, at_ms: int | None = None) -> Season:
    """The season in force now, of the service's calendar."""
    return season_at(db.seasons, now_ms() if at_ms is None else at_ms)


def past_seasons(db: Database, offset: int, limit: int) -> tuple[int, list[Season]]:
    """``(total, seasons)``: ``limit`` closed seasons from ``offset``, newest first."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.closed(SEASON_PART))
        pipe.zrevrange(keys.closed(SEASON_PART), offset, offset + limit - 1)
        total, ids = pipe.execute()
    return total, [parse_season(season_id) for season_id in ids]


def known_season(db: Database, season_id: str) -> tuple[Season, bool]:
    """``(season, closed)`` for a season the service has: the current one or a closed one, after
    closing those that have ended. ``ValueError`` for a malformed id, ``UnknownSeason`` for another."""
    season = parse_season(season_id)
    close_ended_seasons(db)
    if db.redis.zscore(keys.closed(SEASON_PART), season.id) is not None:
        return season, True
    if season == current_season(db):
        return season, False
    raise UnknownSeason(season.id)


# Whether a board is frozen: a closed season's, which no script changes any more.
Frozen = Callable[[BoardId], bool]


def frozen_boards(db: Database) -> Frozen:
    """Which boards are frozen: those whose closing key part (``Board.closed_by``) holds a closed value."""
    parts = {board.closed_by for board in BOARDS if board.closed_by is not None}
    closed = {part: set(db.redis.zrange(keys.closed(part), 0, -1)) for part in parts}
    return lambda board: board.closer is not None and board.closer in closed[str(board.board.closed_by)]
