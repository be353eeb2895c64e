"""Players and their bearer tokens (issued and checked as ``tokens`` does for every holder)."""

from . import keys
from .database import Database
from .tokens import Holders, create_holder, find_holder, holder_for_token, replace_holder_token

PLAYERS = Holders(token_prefix="sr_", holder=keys.player, token=keys.token, spelling=keys.player_name)


def create_player(db: Database, name: str) -> str:
    """Register ``name`` and return its token. Raises ``NameTaken``, also for ``name`` in another case."""
    return create_holder(db, PLAYERS, name)


def player_for_token(db: Database, token: str) -> str | None:
    """The name of the player holding ``token``, or None."""
    return holder_for_token(db, PLAYERS, token)


def find_player(db: Database, name: str) -> str | None:
    """The registered spelling of the player named ``name`` in any case, or None."""
    return find_holder(db, PLAYERS, name)


def replace_token(db: Database, name: str) -> str | None:
    """Revoke the player's token and return a new one; None if there is no such player.

    The old token stops working in the step that makes the new one work (``tokens.replace_holder_token``).
    """
    return replace_holder_token(db, PLAYERS, name)
