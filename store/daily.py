"""The secret daily seeds are derived from, when the operator sets none."""

import secrets

from . import keys
from .database import Database


def daily_secret(db: Database) -> str:
    """The stored secret, created on first use; every API process agrees on it."""
    db.redis.set(keys.daily_secret(), secrets.token_hex(32), nx=True)
    return db.redis.get(keys.daily_secret())
