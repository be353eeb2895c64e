"""Moderators: who may settle disputes, void and restore runs.

Their tokens are issued and checked as players' are (``tokens``), in an
index of their own (``keys.moderator_token``).
"""

from store.accounts.tokens import Holders, create_holder, holder_for_token
from store.base import keys
from store.base.database import Database

MODERATORS = Holders(token_prefix="sr_mod_", holder=keys.moderator, token=keys.moderator_token,
                     spelling=keys.moderator_name, members=keys.moderators())


def create_moderator(db: Database, name: str) -> str:
    """Create moderator ``name`` and return its token. Raises ``NameTaken``."""
    return create_holder(db, MODERATORS, name)


def moderator_for_token(db: Database, token: str) -> str | None:
    """The name of the moderator holding ``token``, or None."""
    return holder_for_token(db, MODERATORS, token)


def list_moderators(db: Database) -> list[dict]:
    """Every moderator with its creation time (ms), by name."""
    names = sorted(db.redis.smembers(keys.moderators()))
    with db.redis.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.hget(keys.moderator(name), "created_ms")
        created = pipe.execute()
    return [{"name": name, "created_ms": int(ms or 0)} for name, ms in zip(names, created, strict=True)]


def revoke_moderator(db: Database, name: str) -> str | None:
    """Remove moderator ``name`` (in any case, as names are looked up) and invalidate its token:
    the name as it was registered, or None if there was no such moderator."""
    if not db.redis.exists(keys.moderator(name)):  # an exact spelling first: an older namesake's
        name = db.redis.get(keys.moderator_name(name)) or name
    token_hash = db.redis.hget(keys.moderator(name), "token_hash")
    if token_hash is None:
        return None
    spelling_held = db.redis.get(keys.moderator_name(name)) == name  # not an older namesake's in another case
    with db.redis.pipeline() as pipe:
        pipe.delete(keys.moderator(name), keys.moderator_token(token_hash))
        if spelling_held:
            pipe.delete(keys.moderator_name(name))  # the name is free again, in every case
        pipe.srem(keys.moderators(), name)
        pipe.execute()
    return name
