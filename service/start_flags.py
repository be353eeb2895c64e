"""What a game's start tells the flags for moderators: the address a sealed daily is started from.

The address is the one the rate limiter counts (``security.client_address``:
behind ``SCOUNDREL_TRUSTED_PROXIES`` proxies, the one they forwarded). It is
hashed here with the address secret (HMAC-SHA-256) before anything leaves
the request, so the address itself is never stored, queued or logged; the
worker notes the hash with the player (``worker.flags``) and raises
``shared_address`` when a second player starts the same day's sealed daily
from it (``store.moderation.flags``).

Flags never block play: the game is dealt before this runs, and a Redis
failure here is logged (without the address) and the start answered as usual.
"""

import hashlib
import hmac
import logging

from redis.exceptions import RedisError

from domain.game import DAILY, Game, game_run_id
from store.base import first_line
from store.moderation import queue_sealed_start

from .context import db, referee
from .security import client_address

log = logging.getLogger(__name__)


def address_hash(secret: str, address: str) -> str:
    """The keyed hash of a client address: 128 bits of HMAC-SHA-256, unguessable without the secret."""
    return hmac.new(secret.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def note_game_start(game: Game) -> None:
    """Queue the flags' note of a sealed daily game's start (nothing for any other game)."""
    if game.challenge != DAILY:
        return
    try:
        queue_sealed_start(db(), game.date, address_hash(referee().address_secret(), client_address()),
                           game.player, game_run_id(game.id))
    except RedisError as error:
        log.warning("sealed daily start not noted for flags: storage unavailable",
                    extra={"error": first_line(error), "player": game.player})
