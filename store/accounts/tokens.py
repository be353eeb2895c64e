"""Bearer tokens of players and moderators: issued and looked up one way for both.

A token is 256 random bits shown once; Redis keeps only its SHA-256, so a
leaked database leaks no usable token. Each kind of holder has its own
token index (``keys.token``, ``keys.moderator_token``), so a player's token
can never act as a moderator's.

A name is one name in every case: ``ADA`` cannot register once ``ada`` has,
and looking ``ADA`` up finds ``ada`` (the spelling registered is the one
shown): each holder's lower-case spelling names it (``Holders.spelling``).
Two holders may still differ only in case where an older release let them
register so: each keeps its name, token, runs and places and is found by
its exact spelling; any other spelling finds the earliest registered of them.
"""

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.errors import NameTaken
from store.accounts import scripts
from store.base.database import Database


@dataclass(frozen=True)
class Holders:
    """One kind of token holder: how its tokens look and where they are kept."""

    token_prefix: str
    holder: Callable[[str], str]  # name → the holder's hash (name, token hash, creation time)
    token: Callable[[str], str]  # token hash → the key naming its holder
    spelling: Callable[[str], str]  # name → the key holding the name as registered, under its lower-case spelling
    members: str | None = None  # a set of every holder's name, where one is kept


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token(holders: Holders) -> tuple[str, str]:
    """``(token, its hash)``: a fresh token of this kind of holder."""
    token = holders.token_prefix + secrets.token_urlsafe(32)
    return token, hash_token(token)


def create_holder(db: Database, holders: Holders, name: str) -> str:
    """Register ``name`` and return its token, shown this once. Raises ``NameTaken``, also for ``name`` in
    another case."""
    token, token_hash = new_token(holders)

    created = scripts.create_token_holder(
        db.redis, holder_key=holders.holder(name), token_key=holders.token(token_hash),
        spelling_key=holders.spelling(name), members_key=holders.members,
        name=name, token_hash=token_hash, created_ms=int(time.time() * 1000),
    )
    if not created:
        raise NameTaken(name, find_holder(db, holders, name))
    return token


def find_holder(db: Database, holders: Holders, name: str) -> str | None:
    """The registered spelling of the holder named ``name`` in any case, or None.

    An exact spelling wins: an older holder differing from another only in
    case is still found by its own.
    """
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.exists(holders.holder(name))
        pipe.get(holders.spelling(name))
        exact, registered = pipe.execute()
    return name if exact else registered


def holder_for_token(db: Database, holders: Holders, token: str) -> str | None:
    """The name of whoever holds ``token``, or None; one round trip, compared in constant time."""
    token_hash = hash_token(token)
    owner = scripts.token_owner(db.redis, token_key=holders.token(token_hash), holder_prefix=holders.holder(""))
    return _checked(owner, token_hash)


def queue_holder_lookup(pipe: Any, holders: Holders, token: str) -> Callable[[Any], str | None]:
    """Queue ``holder_for_token``'s lookup in ``pipe``, so a read can share its round trip;
    the function returned turns the lookup's reply (from ``execute``) into the holder's name or None."""
    token_hash = hash_token(token)
    scripts.token_owner(pipe, token_key=holders.token(token_hash), holder_prefix=holders.holder(""))
    return lambda reply: _checked(reply, token_hash)


def _checked(owner, token_hash: str) -> str | None:
    if not owner:
        return None
    name, stored = owner
    return name if hmac.compare_digest(stored, token_hash) else None


def list_holders(db: Database, holders: Holders) -> list[dict]:
    """Every holder of a kind that keeps its members, with its creation time (ms), by name."""
    assert holders.members is not None
    names = sorted(db.redis.smembers(holders.members))
    with db.redis.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.hget(holders.holder(name), "created_ms")
        created = pipe.execute()
    return [{"name": name, "created_ms": int(ms or 0)} for name, ms in zip(names, created, strict=True)]


def revoke_holder(db: Database, holders: Holders, name: str) -> str | None:
    """Remove holder ``name`` (in any case, as names are looked up) and invalidate its token: the name as it
    was registered, or None if there was no such holder."""
    if not db.redis.exists(holders.holder(name)):  # an exact spelling first: an older namesake's
        name = db.redis.get(holders.spelling(name)) or name
    token_hash = db.redis.hget(holders.holder(name), "token_hash")
    if token_hash is None:
        return None
    spelling_held = db.redis.get(holders.spelling(name)) == name  # not an older namesake's in another case
    with db.redis.pipeline() as pipe:
        pipe.delete(holders.holder(name), holders.token(token_hash))
        if spelling_held:
            pipe.delete(holders.spelling(name))  # the name is free again, in every case
        if holders.members is not None:
            pipe.srem(holders.members, name)
        pipe.execute()
    return name
