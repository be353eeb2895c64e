"""Players linked to a studio's accounts: a studio's signed token (``service.sign_in``) acts as the player
linked to its ``sub``, the link made on the account's first use.

The link is a claim first (``SET NX`` of the account's key, expiring), then
the player, then the claim kept for good: two first uses of one account
racing make one player (the other is told to try again), a name taken
undoes the claim, and a claim left by a process that died before
registering its player expires.
"""

from domain.errors import AccountBusy, NameTaken
from store.accounts.players import create_player, find_player
from store.base import keys
from store.base.database import Database

CLAIM_SECONDS = 30  # a first use's claim on an account, until its player is registered


def linked_player(db: Database, issuer: str, subject: str) -> str | None:
    """The player the account ``subject`` of ``issuer`` is linked to, or None (none yet)."""
    name = db.redis.get(keys.external_link(issuer, subject))
    return name if name is not None and find_player(db, name) == name else None


def link_new_player(db: Database, issuer: str, subject: str, name: str) -> tuple[str, bool]:
    """Register ``name`` linked to the account, unless the account is linked already: ``(the player, made
    now)``. Raises ``NameTaken`` (and links nothing) for a name registered already, ``AccountBusy`` while
    another first use of the account registers its player."""
    link = keys.external_link(issuer, subject)
    if not db.redis.set(link, name, nx=True, ex=CLAIM_SECONDS):
        if (held := linked_player(db, issuer, subject)) is not None:
            return held, False
        raise AccountBusy()
    try:
        create_player(db, name)  # its token is never shown: the studio's tokens sign this player in
    except NameTaken:
        db.redis.delete(link)
        raise
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.persist(link)
        pipe.hset(keys.player_links(name), issuer, subject)
        pipe.execute()
    return name, True
