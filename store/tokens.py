"""Bearer tokens of players and moderators: issued and looked up one way for both.

A token is 256 random bits shown once; Redis keeps only its SHA-256, so a
leaked database leaks no usable token. Each kind of holder has its own
token index (``keys.token``, ``keys.moderator_token``), so a player's token
can never act as a moderator's.
"""

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from . import scripts
from .database import Database
from .errors import NameTaken


@dataclass(frozen=True)
class Holders:
    """One kind of token holder: how its tokens look and where they are kept."""

    token_prefix: str
    holder: Callable[[str], str]  # name → the holder's hash (name, token hash, creation time)
    token: Callable[[str], str]  # token hash → the key naming its holder
    members: str | None = None  # a set of every holder's name, where one is kept


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token(holders: Holders) -> tuple[str, str]:
    """``(token, its hash)``: a fresh token of this kind of holder."""
    token = holders.token_prefix + secrets.token_urlsafe(32)
    return token, hash_token(token)


def create_holder(db: Database, holders: Holders, name: str) -> str:
    """Register ``name`` and return its token, shown this once. Raises ``NameTaken``."""
    token, token_hash = new_token(holders)
    created = scripts.create_token_holder(
        db.redis, holder_key=holders.holder(name), token_key=holders.token(token_hash), members_key=holders.members,
        name=name, token_hash=token_hash, created_ms=int(time.time() * 1000),
    )
    if not created:
        raise NameTaken(name)
    return token


def holder_for_token(db: Database, holders: Holders, token: str) -> str | None:
    """The name of whoever holds ``token``, or None; one round trip, compared in constant time."""
    token_hash = hash_token(token)
    owner = scripts.token_owner(db.redis, token_key=holders.token(token_hash), holder_prefix=holders.holder(""))
    if owner is None:
        return None
    name, stored = owner
    return name if hmac.compare_digest(stored, token_hash) else None
