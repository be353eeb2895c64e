"""Rewards: a closed competition's grants into its players' inboxes (``settling``), claimed once (``inbox``)."""

from store.rewards.inbox import claim, flagged_rewards
from store.rewards.inbox import inbox as player_inbox
from store.rewards.settling import Settled, granted_players, is_settled, mark_settled, settle

__all__ = [
    "Settled", "claim", "flagged_rewards", "granted_players", "player_inbox", "is_settled", "mark_settled", "settle",
]
