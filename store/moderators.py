"""Moderators: who may settle disputes, void and restore runs.

Their tokens live apart from players' tokens (see ``keys.moderator_token``)
and, like players', are kept only as SHA-256 hashes.
"""

import hmac
import secrets
import time

from . import keys
from .database import Database
from .players import NameTaken, hash_token

TOKEN_PREFIX = "sr_mod_"


def create_moderator(db: Database, name: str) -> str:
    """Create moderator ``name`` and return its token. Raises ``NameTaken``."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token_hash = hash_token(token)
    created = db.create_moderator_script(
        keys=[keys.moderator(name), keys.moderator_token(token_hash), keys.moderators()],
        args=[name, token_hash, int(time.time() * 1000)],
    )
    if not created:
        raise NameTaken(name)
    return token


def moderator_for_token(db: Database, token: str) -> str | None:
    token_hash = hash_token(token)
    name = db.redis.get(keys.moderator_token(token_hash))
    if name is None:
        return None
    stored = db.redis.hget(keys.moderator(name), "token_hash") or ""
    return name if hmac.compare_digest(stored, token_hash) else None


def list_moderators(db: Database) -> list[dict]:
    """Every moderator with its creation time (ms), by name."""
    names = sorted(db.redis.smembers(keys.moderators()))
    with db.redis.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.hget(keys.moderator(name), "created_ms")
        created = pipe.execute()
    return [{"name": name, "created_ms": int(ms or 0)} for name, ms in zip(names, created)]


def revoke_moderator(db: Database, name: str) -> bool:
    """Remove moderator ``name`` and invalidate its token; False if there was none."""
    token_hash = db.redis.hget(keys.moderator(name), "token_hash")
    if token_hash is None:
        return False
    with db.redis.pipeline() as pipe:
        pipe.delete(keys.moderator(name), keys.moderator_token(token_hash))
        pipe.srem(keys.moderators(), name)
        pipe.execute()
    return True
