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

A token's key is in the token's shard and its holder's keys in the
holder's (a player's name's; a moderator's are the service's), so on a
Redis Cluster they are written in steps, each in one shard:

- Registering: (1) the token's key, naming the holder; (2) the holder and
  its spelling (and the moderators' set), claimed in one script, or refused
  if the name is taken; (3) on a refusal, the token's key is deleted again.
- Replacing a player's token: (1) the new token's key; (2) the old
  token's key deleted; (3) the holder's token hash swapped, old for new,
  where it is still the old one.

A token counts only where its key names a holder whose hash is the token's
own (``holder_for_token`` reads both), so a crash between steps loses no
name and lets no token act for anyone else: a token key left by a
registration that stopped before (2), or by a replacement that stopped
before (3), names a holder that does not hold that token, and that token
was never shown. A registration that stopped so is not done: the caller
tries again. A replacement that stopped after (2) has revoked the old
token already (what was asked first), and a retry issues the new one. So
every token anyone was given is either refused by both reads or counts by
both: a check of the token's key alone (the accept path's) agrees.
"""

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.exceptions import WatchError

from domain.errors import NameTaken

from . import scripts
from .database import Database


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
    another case. In the steps the module describes."""
    token, token_hash = new_token(holders)
    db.redis.set(holders.token(token_hash), name)
    created = scripts.create_token_holder(
        db.redis, holder_key=holders.holder(name), spelling_key=holders.spelling(name),
        members_key=holders.members, name=name, token_hash=token_hash, created_ms=int(time.time() * 1000),
    )
    if not created:
        db.redis.delete(holders.token(token_hash))
        raise NameTaken(name, find_holder(db, holders, name))
    return token


def replace_holder_token(db: Database, holders: Holders, name: str) -> str | None:
    """Revoke the token of holder ``name`` and return a new one; None if there is no such holder.

    In the steps the module describes: the old token is refused before the new one works.
    """
    token, token_hash = new_token(holders)
    holder = holders.holder(name)
    db.redis.set(holders.token(token_hash), name)
    with db.redis.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(holder)
                old_hash = pipe.hget(holder, "token_hash")
                if old_hash is None:
                    pipe.reset()
                    db.redis.delete(holders.token(token_hash))
                    return None
                db.redis.delete(holders.token(old_hash))
                pipe.multi()
                pipe.hset(holder, "token_hash", token_hash)
                pipe.execute()
                return token
            except WatchError:
                continue


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
    """The name of whoever holds ``token``, or None: the holder its key names, where that holder's
    stored hash is the token's (compared in constant time)."""
    token_hash = hash_token(token)
    return _holding(db, holders, token_hash, db.redis.get(holders.token(token_hash)))


def queue_holder_lookup(db: Database, pipe: Any, holders: Holders, token: str) -> Callable[[Any], str | None]:
    """Queue ``holder_for_token``'s first read (the token's key) in ``pipe``, so a read can share its
    round trip; the function returned takes that read's reply (from ``execute``) and answers the
    holder's name or None, reading the holder's hash."""
    token_hash = hash_token(token)
    pipe.get(holders.token(token_hash))
    return lambda named: _holding(db, holders, token_hash, named)


def _holding(db: Database, holders: Holders, token_hash: str, named: str | None) -> str | None:
    """``named`` if that holder's stored token hash is ``token_hash``, else None."""
    if not named:
        return None
    stored = db.redis.hget(holders.holder(named), "token_hash") or ""
    return named if hmac.compare_digest(stored, token_hash) else None
