"""Event-stream tickets: how a browser's ``EventSource``, which cannot send an Authorization header, opens a
player's stream. A ticket is asked for with the player's token, opens that player's stream once, and only
within ``TICKET_SECONDS``; Redis keeps its hash, never the ticket."""

import secrets

from store.accounts.tokens import hash_token
from store.base import keys
from store.base.database import Database

TICKET_SECONDS = 60
TICKET_PREFIX = "evt_"


def issue_ticket(db: Database, player: str) -> str:
    """A new ticket to ``player``'s event stream, good once within ``TICKET_SECONDS``."""
    ticket = TICKET_PREFIX + secrets.token_urlsafe(24)
    db.redis.set(keys.live_ticket(hash_token(ticket)), player, ex=TICKET_SECONDS)
    return ticket


def redeem_ticket(db: Database, ticket: str) -> str | None:
    """The player whose stream ``ticket`` opens, the ticket used up by asking; None for a ticket unknown,
    used or expired."""
    return db.redis.getdel(keys.live_ticket(hash_token(ticket)))
