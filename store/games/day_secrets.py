"""The secrets the daily seeds (open and sealed) are derived from, and the key that hashes the
addresses the sealed daily is started from, when the operator sets none."""

import secrets

from store.base import keys
from store.base.database import Database


def stored_secret(db: Database, key: str) -> str:
    """The secret kept at ``key``, created on first use; every API process agrees on it."""
    db.redis.set(key, secrets.token_hex(32), nx=True)
    return db.redis.get(key)


def daily_secret(db: Database) -> str:
    """The open daily's secret."""
    return stored_secret(db, keys.daily_secret())


def sealed_secret(db: Database) -> str:
    """The sealed daily's secret: a key of its own, so knowing one daily's seeds tells nothing of the other's."""
    return stored_secret(db, keys.sealed_secret())


def address_secret(db: Database) -> str:
    """The key of the client address hashes (``store.moderation.flags``): of its own, so it tells nothing of a seed."""
    return stored_secret(db, keys.address_secret())
