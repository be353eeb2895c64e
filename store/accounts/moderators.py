"""Moderators: who may settle disputes, void and restore runs.

Their tokens are issued and checked as players' are (``tokens``), in an
index of their own (``keys.moderator_token``).
"""

from store.accounts.tokens import Holders, create_holder, holder_for_token, list_holders, revoke_holder
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
    return list_holders(db, MODERATORS)


def revoke_moderator(db: Database, name: str) -> str | None:
    """Remove moderator ``name`` (in any case) and invalidate its token: the name as registered, or None."""
    return revoke_holder(db, MODERATORS, name)
