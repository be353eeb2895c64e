"""Players and their bearer tokens (issued and checked as ``tokens`` does for every holder), and the names
of erased players resting (``store.privacy.erasure``)."""

import hashlib
import hmac

from redis.exceptions import WatchError

from domain.errors import NameResting
from store.accounts.tokens import Holders, create_holder, find_holder, holder_for_token, new_token
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.kept_secrets import stored_secret

PLAYERS = Holders(token_prefix="sr_", holder=keys.player, token=keys.token, spelling=keys.player_name)


def create_player(db: Database, name: str) -> str:
    """Register ``name`` and return its token. Raises ``NameTaken``, also for ``name`` in another case, and
    ``NameResting`` for a name erased during its cool-off."""
    if (until := resting_until(db, name)) is not None:
        raise NameResting(name, until)
    return create_holder(db, PLAYERS, name)


def erased_name_key(db: Database, name: str) -> str:
    """The key an erased name rests under during its cool-off: its keyed hash (the name in any case), never the
    name."""
    secret = stored_secret(db, keys.erased_name_secret())
    return keys.erased_name(hmac.new(secret.encode(), name.lower().encode(), hashlib.sha256).hexdigest())


def resting_until(db: Database, name: str) -> int | None:
    """When the cool-off of the erased ``name`` ends (ms), while it lasts; else None."""
    left = db.redis.pttl(erased_name_key(db, name))
    return now_ms() + left if left > 0 else None


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
