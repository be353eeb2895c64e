"""Which shard each key belongs to, and the hash tag that shard's keys carry.

Redis Cluster places a key by its hash tag, and runs a Lua script or a
MULTI only over keys of one slot. So every key is tagged by what it
belongs to (``store.keys``): a player's keys by the player, a run's by the
run, a game's by its game, a board's by the board. Owners are spread over
``SHARDS`` shards; the keys that one script changes together belong to one
shard. An index every owner writes to (the pending runs, the intake, the
counters, the outbox) is kept once per shard, so a script touching a run and
its index stays inside the run's shard; its readers look at every shard's.

Each shard's tag is chosen so the shards' slots are evenly spaced over the
16,384: a cluster that splits the slots into equal ranges (as ``redis-cli
--cluster create`` does) gives each master the same number of shards.

On one Redis there are no slots to spread: ``Layout.SINGLE`` gives every
shard the one tag ``scoundrel``, so each per-shard index is a single key
and every key keeps the name it has always had. ``Layout.CLUSTER`` gives
each shard its own tag. A process talks to one store, so its layout is set
once, when it connects (``store.database``).

A dealt game's id begins with its player's shard (``game_id_prefix``), so
the game and its player's keys change together in one script; other ids are
spread by a hash of themselves (``of_id``).
"""

import zlib
from enum import Enum
from functools import cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

SHARDS = 64  # owners are spread over this many shards, whatever the layout
ALL = range(SHARDS)
SERVICE_TAG = "scoundrel"  # the tag of the keys that belong to the service as a whole (and of all, on one Redis)


class Layout(Enum):
    """How keys are tagged: one tag for every key (one Redis), or one tag per shard (a Redis Cluster)."""

    SINGLE = "single"
    CLUSTER = "cluster"


@cache
def cluster_tags() -> tuple[str, ...]:
    """Each shard's tag on a cluster: ``s<shard>.<n>``, the first ``n`` whose slot falls in the shard's
    even share of the slots (shard ``i`` of 64: slots ``256 i`` to ``256 i + 255``)."""
    width = REDIS_CLUSTER_HASH_SLOTS // SHARDS
    tags = []
    for shard in ALL:
        tag = next(f"s{shard}.{n}" for n in range(100_000) if key_slot(f"s{shard}.{n}".encode()) // width == shard)
        tags.append(tag)
    return tuple(tags)


def tag(shard: int, layout: Layout) -> str:
    """The hash tag (without its braces) of ``shard``'s keys in ``layout``."""
    return cluster_tags()[shard] if layout is Layout.CLUSTER else SERVICE_TAG


def of_name(name: str) -> int:
    """The shard of a player's or moderator's keys: their name's, in any case (``Ada`` and ``ADA`` are one name)."""
    return zlib.crc32(name.lower().encode()) % SHARDS


def of_id(some_id: str) -> int:
    """The shard of what an id names (a run, a token, a board), spread by a hash of the id."""
    return zlib.crc32(some_id.encode()) % SHARDS


def game_id_prefix(player: str) -> str:
    """What a new dealt game's id begins with: its player's shard, two hex digits."""
    return f"{of_name(player):02x}"


def of_game(game_id: str) -> int:
    """The shard of a dealt game: the one its id begins with (its player's, ``game_id_prefix``)."""
    try:
        return int(game_id[:2], 16) % SHARDS
    except ValueError:
        return of_id(game_id)
