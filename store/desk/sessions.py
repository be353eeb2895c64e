"""The moderators' desk sessions: what a browser's session cookie stands for, kept server side.

The cookie holds a random id; Redis keeps the session under that id's
SHA-256 only (as it keeps tokens), so a copy of the store signs no one in.
A session names its moderator and how they signed in: with a moderator
token (its hash kept, so that revoking the moderator, or adding them again
with a new token, ends the session at its next request) or with a studio's
token whose role claim holds ``moderator`` (no token kept: it ends when idle
or signed out). It expires after its idle time, renewed by every request,
and holds the CSRF token the desk's forms carry.
"""

import secrets
from dataclasses import dataclass

from store.accounts import hash_token
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.desk import scripts

TOKEN = "token"  # signed in with a moderator token
STUDIO = "studio"  # signed in with a studio's token (its issuer's moderator_claim)


@dataclass(frozen=True)
class DeskSession:
    """A signed-in moderator at the desk: who, how they signed in, the CSRF token their forms carry."""

    moderator: str
    kind: str
    csrf: str
    began_ms: int


def open_session(db: Database, moderator: str, kind: str, token_hash: str, idle_ms: int) -> tuple[str, DeskSession]:
    """A new session for ``moderator``: ``(its id, for the cookie alone; the session)``. ``token_hash``: the
    moderator token's hash (empty for a studio's sign-in)."""
    session_id = secrets.token_urlsafe(32)
    session = DeskSession(moderator=moderator, kind=kind, csrf=secrets.token_urlsafe(32), began_ms=now_ms())
    key = keys.desk_session(hash_token(session_id))
    with db.redis.pipeline() as pipe:
        pipe.hset(key, mapping={"moderator": moderator, "kind": kind, "token_hash": token_hash,
                                "csrf": session.csrf, "began_ms": session.began_ms})
        pipe.pexpire(key, idle_ms)
        pipe.execute()
    return session_id, session


def session_of(db: Database, session_id: str, idle_ms: int) -> DeskSession | None:
    """The session ``session_id`` names, its idle time begun again; None for none (expired, signed out, or its
    moderator token revoked)."""
    found = scripts.desk_session(db.redis, session_hash=hash_token(session_id), idle_ms=idle_ms)
    if not found:
        return None
    fields = dict(zip(found[::2], found[1::2], strict=True))
    return DeskSession(moderator=fields["moderator"], kind=fields["kind"], csrf=fields["csrf"],
                       began_ms=int(fields["began_ms"]))


def end_session(db: Database, session_id: str) -> None:
    """Sign out: the session is gone."""
    db.redis.delete(keys.desk_session(hash_token(session_id)))
