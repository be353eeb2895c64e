"""Players and their bearer tokens.

A token is 256 random bits shown once at registration; Redis keeps only its
SHA-256, so a leaked database leaks no usable token.

A name is one name in every case: ``ADA`` cannot register once ``ada`` has,
and looking ``ADA`` up finds ``ada`` (the spelling registered is the one
shown). Players registered before this rule may differ only in case: each
keeps its name, token, runs and places, and is found by its exact spelling;
any other spelling finds the earliest registered of them. They are indexed
once, on the first registration or lookup that finds the index missing.
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


SCAN_BATCH = 1000


def index_player_names(db: Database) -> None:
    """Give every player registered before names were case-insensitive its ``player_name``.

    Idempotent and safe to run concurrently: each name is claimed only if
    unclaimed, earliest registration first, so of two legacy players who
    differ only in case, the earlier one holds the shared spelling.
    """
    names = [name.removeprefix(keys.player("")) for name in
             db.redis.scan_iter(match=keys.player_pattern(), count=SCAN_BATCH)]
    with db.redis.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.hget(keys.player(name), "created_ms")
        created = pipe.execute()
        for _, name in sorted(zip((int(ms or 0) for ms in created), names, strict=True)):
            pipe.set(keys.player_name(name), name, nx=True)
        pipe.set(keys.player_names_indexed(), 1)
        pipe.execute()


def create_player(db: Database, name: str) -> str:
    """Register ``name`` and return its token. Raises ``NameTaken``, also for ``name`` in another case."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token_hash = hash_token(token)
    script_keys = [keys.player(name), keys.token(token_hash), keys.player_name(name), keys.player_names_indexed()]
    args: list[str | int] = [name, token_hash, int(time.time() * 1000)]
    created = db.create_player_script(keys=script_keys, args=args)
    if created == -1:
        index_player_names(db)
        created = db.create_player_script(keys=script_keys, args=args)
    if not created:
        raise NameTaken(name)
    return token


def player_for_token(db: Database, token: str) -> str | None:
    """The name of the player holding ``token``, or None."""
    token_hash = hash_token(token)
    owner = db.token_owner_script(keys=[keys.token(token_hash)])
    if not owner:
        return None
    name, stored = owner
    return name if hmac.compare_digest(stored, token_hash) else None


def find_player(db: Database, name: str) -> str | None:
    """The registered spelling of the player named ``name`` in any case, or None.

    An exact spelling wins: a legacy player differing from another only in
    case is still found by its own.
    """
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.exists(keys.player(name))
        pipe.get(keys.player_name(name))
        pipe.exists(keys.player_names_indexed())
        exact, registered, indexed = pipe.execute()
    if exact:
        return name
    if registered is None and not indexed:
        index_player_names(db)
        registered = db.redis.get(keys.player_name(name))
    return registered


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
