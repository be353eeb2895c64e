"""Whom a player follows: the players their friends' views rank them among.

One sorted set per follower (``keys.following``): each player followed,
by their name as registered, scored by when they were followed. A player
follows at most ``MOST_FOLLOWED``: a friends view of F players reads F
places, O(F log N) on a board of N (``boards.board_among``), so F stays
small however large the boards grow. Following is one script
(``lua/follow_player.lua``), so two requests at once cannot pass the cap.
"""

from domain.errors import FollowingFull
from store.accounts import scripts
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time

MOST_FOLLOWED = 1000


def follow(db: Database, follower: str, followed: str) -> None:
    """``follower`` follows ``followed`` (both as registered); following again changes nothing.
    Raises ``FollowingFull`` when they follow ``MOST_FOLLOWED`` players already."""
    if not scripts.follow_player(db.redis, follower=follower, followed=followed, at_ms=now_ms(), most=MOST_FOLLOWED):
        raise FollowingFull(MOST_FOLLOWED)


def unfollow(db: Database, follower: str, followed: str) -> None:
    """``follower`` no longer follows ``followed``; nothing changes if they did not."""
    db.redis.zrem(keys.following(follower), followed)


def following_page(db: Database, follower: str, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)``: ``limit`` of the players ``follower`` follows from ``offset``, the latest
    followed first, each ``{"player", "since"}``."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.following(follower))
        pipe.zrevrange(keys.following(follower), offset, offset + limit - 1, withscores=True)
        total, followed = pipe.execute()
    return total, [{"player": player, "since": iso_time(int(since))} for player, since in followed]


def followed_by(db: Database, follower: str) -> list[str]:
    """Every player ``follower`` follows (at most ``MOST_FOLLOWED``)."""
    return db.redis.zrange(keys.following(follower), 0, -1)
