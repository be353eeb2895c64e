"""``scoundrel moderator add|list|revoke``: managing moderators (REDIS_URL, else the Redis scoundrel up runs)."""

from .holders import Kind, register_kind


def _calls():
    from store import create_moderator, list_moderators, revoke_moderator

    return create_moderator, list_moderators, revoke_moderator


MODERATOR = Kind("moderator", "moderator", "Moderator", "add, list or revoke moderators", _calls)


def register(subparsers) -> None:
    register_kind(subparsers, MODERATOR)
