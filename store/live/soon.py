"""The "in 10 minutes" notices: each entrant of a tournament told, once, that it starts or ends within
``SOON_MS`` (``tournament.starting``, ``tournament.ending``), by the worker's periodic sweep.

A notice is marked sent before its events are published (``ZADD NX``, so two workers' sweeps never
both send it): a worker that dies between the two leaves it unsent, rather than sent twice. Its
entrants are those joined when it is sent.
"""

from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time

from .events import event_json
from .scripts import publish_live

SOON_MS = 10 * 60 * 1000
STARTING, ENDING = "tournament.starting", "tournament.ending"
_MOMENTS = ((STARTING, keys.tournaments_starting, "starts_at"), (ENDING, keys.tournaments_ending, "ends_at"))
_BATCH = 500  # entrants told in one round trip


def tell_soon(db: Database) -> int:
    """Tell each entrant of each tournament starting or ending within ``SOON_MS``, once: how many were told."""
    at = now_ms()
    told = 0
    for event_type, moments, field in _MOMENTS:
        for tournament_id, moment in db.redis.zrangebyscore(moments(), at, at + SOON_MS, withscores=True):
            if not db.redis.zadd(keys.live_told(), {f"{event_type}:{tournament_id}": moment}, nx=True):
                continue
            data = event_json({"type": event_type, "tournament_id": tournament_id, field: iso_time(int(moment))})
            entrants = db.redis.zrange(keys.tournament_entrants(tournament_id), 0, -1)
            for first in range(0, len(entrants), _BATCH):
                with db.redis.pipeline(transaction=False) as pipe:
                    for player in entrants[first:first + _BATCH]:
                        publish_live(pipe, player=player, data=data)
                    pipe.execute()
            told += len(entrants)
    db.redis.zremrangebyscore(keys.live_told(), "-inf", f"({at}")  # moments passed: never asked about again
    return told
