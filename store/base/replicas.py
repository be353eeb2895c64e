"""Acknowledging a change only once replicas hold it (``SCOUNDREL_WAIT_REPLICAS``).

Redis replicates asynchronously: a master that takes a write answers at
once and sends it to its replicas after. A master killed in between loses
the write for good once Sentinel promotes a replica, so a run acknowledged
with a 202 could vanish. WAIT closes that gap: sent on the connection that
made the writes, it answers once that many replicas have acknowledged them
(or its timeout passes), so a change is acknowledged only when a replica
that could take over holds it.

WAIT counts the writes of its own connection, so the writes and the WAIT go
in one pipeline, WAIT last. Fewer replicas than asked within the timeout
raise ``NotReplicated`` (a 503: the client tries again, and finds the run if
it was kept).
"""

from collections.abc import Callable
from typing import Any

from redis.exceptions import NoScriptError

from store.base.database import Database
from store.base.errors import NotReplicated
from store.lua import BY_SHA


def written(db: Database, client: Any, calls: list[Callable[[Any], Any]]) -> list:
    """Each call's reply (a function of ``client``, ``db.redis`` or ``db.raw``, or of a pipeline of it),
    sent in one pipeline; with ``db.wait_replicas``, a WAIT for that many replicas ends it. Raises
    ``NotReplicated`` when fewer acknowledge in time. A call alone, not waited for, goes on the client
    itself: a script then by its SHA, where a pipeline sends its text."""
    if len(calls) == 1 and not db.wait_replicas:
        return [calls[0](client)]
    replies, acknowledged = _sent(db, client, calls, by_sha=True)
    unknown = [position for position, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
    if unknown:  # a Redis restarted, or promoted, since the scripts were loaded: those calls again, by text
        # (a later WAIT on any connection waits for every write before it: this one's covers both sends)
        again, acknowledged = _sent(db, client, [calls[position] for position in unknown], by_sha=False)
        for position, reply in zip(unknown, again, strict=True):
            replies[position] = reply
    if acknowledged < db.wait_replicas:
        raise NotReplicated(f"{acknowledged} of {db.wait_replicas} replicas acknowledged in time")
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


def _sent(db: Database, client: Any, calls: list[Callable[[Any], Any]], *, by_sha: bool) -> tuple[list, int]:
    """The calls' replies, errors among them, in one pipeline (its scripts by SHA, or by text), and how
    many replicas acknowledged them: a WAIT last when ``db.wait_replicas`` asks for one."""
    with client.pipeline(transaction=False) as pipe:
        setattr(pipe, BY_SHA, by_sha)
        for call in calls:
            call(pipe)
        if not db.wait_replicas:
            return pipe.execute(raise_on_error=False), 0
        timeout_ms = max(1, int(db.socket_timeout * 1000 / 2))  # answered well within the socket's timeout
        pipe.execute_command("WAIT", db.wait_replicas, timeout_ms)
        *replies, acknowledged = pipe.execute(raise_on_error=False)
    if isinstance(acknowledged, Exception):
        raise acknowledged
    return replies, int(acknowledged)


def replicas_short(db: Database) -> int:
    """How many replicas the primary lacks for ``SCOUNDREL_WAIT_REPLICAS`` now (0 when it asks for none): while
    any, every change is refused (``NotReplicated``), as after a failover with one replica, until a replica
    is back."""
    if not db.wait_replicas:
        return 0
    return max(0, db.wait_replicas - int(db.redis.info("replication").get("connected_slaves", 0)))
