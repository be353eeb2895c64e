"""Secrets the service makes itself and keeps in Redis, so every process agrees on them: the daily seeds'
(``store.games.day_secrets``) and the erased names' (``store.accounts.players``)."""

import secrets

from store.base.database import Database


def stored_secret(db: Database, key: str) -> str:
    """The secret kept at ``key``, created on first use; every API process agrees on it."""
    db.redis.set(key, secrets.token_hex(32), nx=True)
    return db.redis.get(key)
