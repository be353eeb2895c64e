"""A player's inbox: the rewards granted them, each claimed once.

The inbox is one hash (``keys.inbox``): each reward's JSON under its id, as
shown (``{"id", "source", "rank", "payload", "granted_at"}``, encoded once, so
the payload is kept byte for byte), under ``terms:<id>`` its terms (telling a
re-settling whether it changed), its claim's time under ``claimed:<id>``, and
under ``flagged:<id>`` the terms a claimed reward was flagged for. A claim is one script (``lua/claim_reward.lua``): the
``HSETNX`` of its time and its ``reward.claimed`` event, so two racing claims
claim it once.
"""

import json
from datetime import datetime

from domain.rewards import AlreadyClaimed, NoSuchReward, Reward
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time
from store.rewards import scripts
from store.webhooks.hooks import wake_if_waiting

CLAIMED, FLAGGED, TERMS = "claimed:", "flagged:", "terms:"


def _reward(player: str, shown: str, claimed: str | None) -> Reward:
    held = json.loads(shown)
    granted_ms = int(datetime.fromisoformat(held["granted_at"]).timestamp() * 1000)
    return Reward(held["id"], held["source"], player, held["rank"], held["payload"], granted_ms,
                  int(claimed) if claimed else None)


def inbox(db: Database, player: str) -> list[Reward]:
    """Every reward granted to ``player`` and not withdrawn, newest first."""
    held = db.redis.hgetall(keys.inbox(player))
    found = [_reward(player, shown, held.get(CLAIMED + field)) for field, shown in held.items()
             if not field.startswith((CLAIMED, FLAGGED, TERMS))]
    return sorted(found, key=lambda reward: (reward.granted_ms, reward.id), reverse=True)


def claim(db: Database, player: str, reward_id: str) -> Reward:
    """Claim one of ``player``'s rewards: the reward, claimed now. ``NoSuchReward``, or ``AlreadyClaimed`` for
    a second claim."""
    at = now_ms()
    reply = scripts.claim_reward(db.redis, player=player, reward_id=reward_id, at_ms=at, at_iso=str(iso_time(at)))
    if reply[0] == "none":
        raise NoSuchReward(reward_id)
    if reply[0] == "already":
        raise AlreadyClaimed(reward_id)
    wake_if_waiting(db)
    return _reward(player, reply[1], str(at))


def flagged_rewards(db: Database, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, flags)``: claimed rewards a re-ranking no longer grants as they were, newest first: each
    ``{"player", "reward", "claimed", "now_earned", "at_ms"}`` (``now_earned`` null: withdrawn)."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.llen(keys.rewards_flagged())
        pipe.lrange(keys.rewards_flagged(), offset, offset + limit - 1)
        total, flags = pipe.execute()
    return total, [json.loads(flag) for flag in flags]
