"""The wrappers of players', tokens' and following's Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from redis.client import Pipeline

from store.base import keys
from store.lua import LuaScript

_CREATE_TOKEN_HOLDER = LuaScript("create_token_holder")


_TOKEN_OWNER = LuaScript("token_owner")


_FOLLOW_PLAYER = LuaScript("follow_player")


def create_token_holder(client: Any, *, holder_key: str, token_key: str, spelling_key: str,
                        name: str, token_hash: str, created_ms: int, members_key: str | None = None) -> int:
    """Claim a player's or moderator's name in every case with its token hash: 1, or 0 if the name is
    taken in any case."""
    return int(_CREATE_TOKEN_HOLDER.run(
        client, [holder_key, token_key, spelling_key, *([members_key] if members_key else [])],
        [name, token_hash, created_ms]))


def token_owner(client: Any, *, token_key: str, holder_prefix: str) -> tuple[str, str] | None:
    """``(name, stored token hash)`` of whom ``token_key`` names (their key: ``holder_prefix`` + name), or None.

    In a pipeline the call is queued; ``execute`` answers ``[name, hash]`` or None in its place.
    """
    owner = _TOKEN_OWNER.run(client, [token_key], [holder_prefix])
    if isinstance(owner, Pipeline):
        return None
    return (owner[0], owner[1]) if owner else None


def follow_player(client: Any, *, follower: str, followed: str, at_ms: int, most: int) -> bool:
    """``follower`` follows ``followed`` from ``at_ms`` (kept if they did already); False if they follow
    ``most`` players already."""
    return bool(_FOLLOW_PLAYER.run(client, [keys.following(follower)], [followed, at_ms, most]))
