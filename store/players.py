"""Players and their bearer tokens.

A token is 256 random bits shown once at registration; Redis keeps only its
SHA-256, so a leaked database leaks no usable token.
"""

import hashlib
import hmac
import secrets
import time

from redis.exceptions import WatchError

from . import keys
from .database import Database

TOKEN_PREFIX = "sr_"


class NameTaken(Exception):
    """The player name is already registered."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_player(db: Database, name: str) -> str:
    """Register ``name`` and return its token. Raises ``NameTaken``."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token_hash = hash_token(token)
    created = db.create_player_script(
        keys=[keys.player(name), keys.token(token_hash)], args=[name, token_hash, int(time.time() * 1000)]
    )
    if not created:
        raise NameTaken(name)
    return token


def player_for_token(db: Database, token: str) -> str | None:
    """The name of the player holding ``token``, or None."""
    token_hash = hash_token(token)
    return checked_owner(db.token_owner_script(keys=[keys.token(token_hash)]), token_hash)


def checked_owner(owner: list | None, token_hash: str) -> str | None:
    """The player TOKEN_OWNER answered, if the stored hash is the token's (compared in constant time)."""
    if not owner:
        return None
    name, stored = owner
    return name if hmac.compare_digest(stored, token_hash) else None


def player_exists(db: Database, name: str) -> bool:
    return bool(db.redis.exists(keys.player(name)))


def replace_token(db: Database, name: str) -> str | None:
    """Revoke the player's token and return a new one; None if there is no such player.

    The old token stops working in the same transaction that creates the new one.
    """
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token_hash = hash_token(token)
    with db.redis.pipeline() as pipe:
        while True:
            try:
                pipe.watch(keys.player(name))
                old_hash = pipe.hget(keys.player(name), "token_hash")
                if old_hash is None:
                    pipe.reset()
                    return None
                pipe.multi()
                pipe.delete(keys.token(old_hash))
                pipe.hset(keys.player(name), "token_hash", token_hash)
                pipe.set(keys.token(token_hash), name)
                pipe.execute()
                return token
            except WatchError:
                continue
