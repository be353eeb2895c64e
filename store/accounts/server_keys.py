"""Server keys: a studio's backend acting for its players (``service.auth``), issued, checked and revoked as
moderators' tokens are (``tokens``), in an index of their own. A key acts as a player, never as a moderator."""

from store.accounts.tokens import Holders, create_holder, holder_for_token, list_holders, revoke_holder
from store.base import keys
from store.base.database import Database

SERVER_KEYS = Holders(token_prefix="sr_srv_", holder=keys.server_key, token=keys.server_key_token,
                      spelling=keys.server_key_name, members=keys.server_keys())
SERVER = "server"  # the issuer of the accounts server keys link players to (``store.accounts.links``)


def is_server_key(token: str) -> bool:
    """Shaped as a server key (its prefix); whether it is one is ``server_key_for_token``'s to say."""
    return token.startswith(SERVER_KEYS.token_prefix)


def create_server_key(db: Database, name: str) -> str:
    """Create server key ``name`` and return it, shown this once. Raises ``NameTaken``."""
    return create_holder(db, SERVER_KEYS, name)


def server_key_for_token(db: Database, token: str) -> str | None:
    """The name of the server key ``token`` is, or None."""
    return holder_for_token(db, SERVER_KEYS, token)


def list_server_keys(db: Database) -> list[dict]:
    """Every server key with its creation time (ms), by name."""
    return list_holders(db, SERVER_KEYS)


def revoke_server_key(db: Database, name: str) -> str | None:
    """Remove server key ``name`` (in any case): the name as registered, or None if there was none."""
    return revoke_holder(db, SERVER_KEYS, name)
