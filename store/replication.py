"""Acknowledging a new run only once replicas hold it (``SCOUNDREL_WAIT_REPLICAS``).

Redis replicates asynchronously: a master that takes a write answers at
once and sends it to its replicas after. A master killed in between loses
the write for good once its replica takes over, so a run acknowledged with
a 202 could vanish. WAIT closes that gap: sent on the connection that made
the writes, it answers once that many replicas have acknowledged them (or
its timeout passes), so a run is acknowledged only when a replica that could
take over holds it.

WAIT counts the writes of its own connection, so each master's share of the
writes goes in one pipeline on one connection of that master, WAIT last.
Fewer replicas than asked within the timeout raise ``NotReplicated`` (a 503:
the client tries again, and finds the run if it was kept). A master that no
longer serves a key's slot (a failover under way) answers MOVED: the
cluster's map of slots is read again and the call is a 503 too, tried again
by the client once the cluster has a master for the slot.
"""

from collections.abc import Callable
from typing import Any

from redis.exceptions import AskError, ClusterDownError, ConnectionError

from .database import Database
from .errors import NotReplicated

Call = tuple[str, Callable[[Any], Any]]  # a key the call writes, and the call itself (a function of a client)


def replicated(db: Database, calls: list[Call]) -> list:
    """Each call's reply (decoded, as ``db.redis`` answers), every master's share sent in one pipeline
    ending with WAIT for ``db.wait_replicas`` replicas. Raises ``NotReplicated`` when fewer
    acknowledge in time."""
    shares: dict[int, tuple[Any, list[int]]] = {}
    for position, (key, _) in enumerate(calls):
        client = _master_client(db, key)
        shares.setdefault(id(client), (client, []))[1].append(position)
    replies: list = [None] * len(calls)
    for client, positions in shares.values():
        for position, reply in zip(positions, _on_one_connection(db, client, [calls[p][1] for p in positions]),
                                   strict=True):
            replies[position] = reply
    return replies


def _master_client(db: Database, key: str) -> Any:
    """A client of the master serving ``key``, its replies decoded as ``db.redis``'s are: the one Redis
    itself, or a cluster's node."""
    if not db.cluster:
        return db.redis
    return db.redis.get_redis_connection(db.redis.get_node_from_key(key))


def _on_one_connection(db: Database, client: Any, calls: list[Callable[[Any], Any]]) -> list:
    timeout_ms = max(1, int(db.socket_timeout * 1000 / 2))  # answered well within the socket's timeout
    try:
        with client.pipeline(transaction=False) as pipe:
            for call in calls:
                call(pipe)
            pipe.execute_command("WAIT", db.wait_replicas, timeout_ms)
            *replies, acknowledged = pipe.execute()
    except (ConnectionError, AskError) as error:  # AskError: MovedError's base
        if not db.cluster:
            raise
        db.redis.nodes_manager.initialize()  # the slots have moved, or their master is gone: ask the cluster again
        raise ClusterDownError(f"a master is changing: {error}") from error
    if int(acknowledged) < db.wait_replicas:
        raise NotReplicated(f"{acknowledged} of {db.wait_replicas} replicas acknowledged in {timeout_ms} ms")
    return replies
