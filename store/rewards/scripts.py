"""The wrappers of the rewards' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from domain.events import REWARD_CLAIMED
from store.base import keys
from store.lua import LuaScript

_GRANT_REWARD = LuaScript("grant_reward")
_WITHDRAW_REWARD = LuaScript("withdraw_reward")
_CLAIM_REWARD = LuaScript("claim_reward")


def grant_reward(client: Any, *, source: str, player: str, reward_id: str, shown: str, terms: str, at_ms: int,
                 event: str) -> int:
    """Grant ``player`` the reward (``shown``: its JSON) once, with its ``reward.granted`` ``event`` (JSON):
    1 granted, 2 changed, 3 flagged (claimed with other terms), 0 held already (``grant_reward.lua``)."""
    return _GRANT_REWARD.run(
        client, [keys.rewards_granted(source), keys.inbox(player), keys.rewards_flagged(), keys.webhook_outbox(),
                 keys.webhooks()], [player, reward_id, shown, terms, at_ms, event])


def withdraw_reward(client: Any, *, source: str, player: str, reward_id: str, at_ms: int) -> int:
    """Withdraw a reward no longer earned: 1 withdrawn, 3 flagged (claimed), 0 none held."""
    return _WITHDRAW_REWARD.run(client, [keys.rewards_granted(source), keys.inbox(player), keys.rewards_flagged()],
                                [player, reward_id, at_ms])


def claim_reward(client: Any, *, player: str, reward_id: str, at_ms: int, at_iso: str) -> list:
    """Claim a reward once: ``['claimed', shown]``, ``['already']`` or ``['none']``."""
    return _CLAIM_REWARD.run(client, [keys.inbox(player), keys.webhook_outbox(), keys.webhooks()],
                             [player, reward_id, at_ms, at_iso, REWARD_CLAIMED])
