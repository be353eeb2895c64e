"""The secrets the daily seeds (open and sealed) are derived from, and the key that hashes the
addresses the sealed daily is started from, when the operator sets none."""

from store.base import keys
from store.base.database import Database
from store.base.kept_secrets import stored_secret


def daily_secret(db: Database) -> str:
    """The open daily's secret."""
    return stored_secret(db, keys.daily_secret())


def sealed_secret(db: Database) -> str:
    """The sealed daily's secret: a key of its own, so knowing one daily's seeds tells nothing of the other's.
    The operator's (``SCOUNDREL_SEALED_SECRET``, which ``Database.from_settings`` hands over) if set."""
    return db.sealed_secret or stored_secret(db, keys.sealed_secret())


def address_secret(db: Database) -> str:
    """The key of the client address hashes (``store.moderation.flags``): of its own, so it tells nothing of a seed."""
    return stored_secret(db, keys.address_secret())
