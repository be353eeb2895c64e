"""Settling a closed competition: each player granted, once, the reward their final rank earns.

``settle`` takes what the ranks earn (``domain.rewards.earned``) and, one
script a player (``lua/grant_reward.lua``, ``lua/withdraw_reward.lua``)
in pipelines of ``BATCH``, makes the inboxes hold exactly that: a reward
granted once with its ``reward.granted`` event in the same step, so a
settling cut short and run again grants nothing twice. Settled again after
a void or a restore (``among``: the players whose rank may have changed),
an unclaimed reward follows the new ranks and a claimed one is flagged for
the moderators, never taken back.

Each reward granted is told through ``notify_granted``, the one place a
grant is announced beyond its webhook event.
"""

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from domain.events import REWARD_GRANTED
from domain.rewards import Earned, reward_id
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time
from store.base.replicas import written
from store.live import publish
from store.rewards import scripts
from store.webhooks.hooks import wake_if_waiting
from store.webhooks.scripts import encoded_event

BATCH = 1000  # players' grants per pipeline
GRANTED, CHANGED, FLAGGED = 1, 2, 3


@dataclass(frozen=True)
class Settled:
    """What a settling changed: rewards granted (or changed), withdrawn, and claimed ones flagged."""

    granted: list[Earned]
    withdrawn: list[str]
    flagged: list[str]


def terms(rank: int, payload_json: str) -> str:
    """A reward's terms as one short string: equal for the same rank and payload (``payload_json``: its
    canonical JSON, keys sorted)."""
    return hashlib.sha256(f"{rank} {payload_json}".encode()).hexdigest()[:16]


def grant_calls(source: str, rewards: Iterable[Earned], at_ms: int) -> list[Callable[[Any], Any]]:
    """The grants of ``rewards``, each a call of a client or pipeline (``store.base.replicas.written`` sends
    them, scripts by SHA), in order. Each reward is kept as its inbox shows it (``schemas.rewards.RewardSchema``'s
    fields but its claim: ``store.rewards.inbox``), encoded once, so its payload is kept as given."""
    calls: list[Callable[[Any], Any]] = []
    granted_at, held_id = iso_time(at_ms), reward_id(source)
    canonical: dict[int, str] = {}  # a band's payload, the same object for every player it covers
    for reward in rewards:
        if (payload_json := canonical.get(id(reward.payload))) is None:
            payload_json = canonical[id(reward.payload)] = json.dumps(reward.payload, sort_keys=True)
        shown = {"id": held_id, "source": source, "rank": reward.rank, "payload": reward.payload,
                 "granted_at": granted_at}
        event = encoded_event(REWARD_GRANTED, at_ms, {"player": reward.player, "reward": {**shown, "claimed_at": None}})
        calls.append(partial(scripts.grant_reward, source=source, player=reward.player, reward_id=held_id,
                             shown=json.dumps(shown), terms=terms(reward.rank, payload_json), at_ms=at_ms,
                             event=event))
    return calls


def settle(db: Database, source: str, rewards: list[Earned], among: Iterable[str] = ()) -> Settled:
    """Grant each of ``rewards`` once, and withdraw the reward of each player of ``among`` who earns none
    now (a re-settling's). Safe to run again, and in several processes at once."""
    at = now_ms()
    earning = {reward.player for reward in rewards}
    leaving = [player for player in dict.fromkeys(among) if player not in earning]
    granted, withdrawn, flagged = [], [], []
    for start in range(0, len(rewards), BATCH):
        batch = rewards[start:start + BATCH]
        replies = written(db, db.redis, grant_calls(source, batch, at))
        granted += [reward for reward, reply in zip(batch, replies, strict=True) if reply in (GRANTED, CHANGED)]
        flagged += [reward.player for reward, reply in zip(batch, replies, strict=True) if reply == FLAGGED]
    for start in range(0, len(leaving), BATCH):
        players = leaving[start:start + BATCH]
        replies = written(db, db.redis, [partial(scripts.withdraw_reward, source=source, player=player,
                                                 reward_id=reward_id(source), at_ms=at) for player in players])
        withdrawn += [player for player, reply in zip(players, replies, strict=True) if reply == GRANTED]
        flagged += [player for player, reply in zip(players, replies, strict=True) if reply == FLAGGED]
    notify_granted(db, source, granted)
    return Settled(granted, withdrawn, flagged)


def granted_players(db: Database, source: str) -> list[str]:
    """The players holding a reward of ``source`` now: whom a re-settling looks at."""
    return list(db.redis.hkeys(keys.rewards_granted(source)))


def is_settled(db: Database, source: str) -> bool:
    """Whether ``source`` was settled (``mark_settled``): a void after it settles it again."""
    return db.redis.zscore(keys.settled(), source) is not None


def mark_settled(db: Database, source: str) -> None:
    db.redis.zadd(keys.settled(), {source: now_ms()}, nx=True)


def notify_granted(db: Database, source: str, granted: list[Earned]) -> None:
    """Tell of the rewards of ``source`` just granted (or changed), beyond the ``reward.granted`` events their
    grants recorded: the webhook deliveries woken, and each player's live events told. Every grant is
    announced here, whatever settled it."""
    if granted:
        wake_if_waiting(db)
    for earned in granted:
        publish(db, earned.player, {"type": REWARD_GRANTED, "source": source, "rank": earned.rank,
                                    "payload": earned.payload})
