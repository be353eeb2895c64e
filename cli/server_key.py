"""``scoundrel server-key add|list|revoke``: a studio's backend keys, which act for its players
(docs/integrators.md; REDIS_URL, else the Redis scoundrel up runs)."""

from .holders import Kind, register_kind


def _calls():
    from store.accounts import create_server_key, list_server_keys, revoke_server_key

    return create_server_key, list_server_keys, revoke_server_key


SERVER_KEY = Kind("server-key", "server key", "Server key", "add, list or revoke a studio's server keys", _calls)


def register(subparsers) -> None:
    register_kind(subparsers, SERVER_KEY)
