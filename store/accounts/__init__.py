"""Who may act: players and their tokens (``players``, ``tokens``), moderators (``moderators``), and
who follows whom (``following``)."""

from store.accounts.following import MOST_FOLLOWED, follow, followed_by, following_page, unfollow
from store.accounts.links import link_new_player, linked_player
from store.accounts.moderators import create_moderator, list_moderators, moderator_for_token, revoke_moderator
from store.accounts.players import create_player, find_player, player_for_token, replace_token
from store.accounts.server_keys import (
    SERVER,
    create_server_key,
    is_server_key,
    list_server_keys,
    revoke_server_key,
    server_key_for_token,
)
from store.accounts.tokens import hash_token

__all__ = [
    "MOST_FOLLOWED", "follow", "followed_by", "following_page", "unfollow", "link_new_player", "linked_player",
    "create_moderator", "list_moderators", "moderator_for_token", "revoke_moderator", "create_player",
    "find_player", "player_for_token", "replace_token", "SERVER", "create_server_key", "is_server_key",
    "list_server_keys", "revoke_server_key", "server_key_for_token", "hash_token",
]
