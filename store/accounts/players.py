"""Players and their bearer tokens (issued and checked as ``tokens`` does for every holder)."""

from redis.exceptions import WatchError

from store.accounts.tokens import Holders, create_holder, find_holder, holder_for_token, new_token
from store.base import keys
from store.base.database import Database

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

    The old token stops working in the same transaction that creates the new one.
    """
    token, token_hash = new_token(PLAYERS)
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
