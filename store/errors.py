"""Redis refusing: what the store's callers need to tell a refused write from a bug.

What the service refuses by its rules is in ``domain.errors``. Redis itself
can refuse too: reachable, but not writing (``refuses_writes``), or a
cluster between a master's loss and its replica's promotion
(``failing_over``). The API answers both as it answers Redis being away
(503 with ``Retry-After``), and a worker waits for them to pass.
"""

from redis.exceptions import (
    ClusterError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)

# Why a Redis that answers may still refuse a write: full (``maxmemory`` reached under
# ``noeviction``), a read-only replica, or a failed save it stops writes for (MISCONF).
WRITE_REFUSALS = (OutOfMemoryError, ReadOnlyError)
MISCONF = "MISCONF"


def first_line(error: BaseException) -> str:
    """An error's message for a log line: its first line (Redis's can run to several), or its type if it has none."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


# What a Redis Cluster answers while it fails over: CLUSTERDOWN (or MASTERDOWN) while some slots
# have no master, TRYAGAIN while a slot moves, and what redis-py gives up with after its retries
# (ClusterError) or when its map of the slots has a hole (SlotNotCoveredError).
FAILING_OVER = (ClusterError, TryAgainError, SlotNotCoveredError)


def failing_over(error: BaseException) -> bool:
    """Whether ``error`` is a cluster without a master for some slots for now: retry in a moment."""
    return isinstance(error, FAILING_OVER)


def refuses_writes(error: BaseException) -> bool:
    """Whether ``error`` is Redis refusing a write rather than a bug: retry later, nothing was written.

    A refused command changes nothing: a MULTI with one aborts whole, and a
    script is refused at its first write, before it has changed anything.
    """
    return isinstance(error, WRITE_REFUSALS) or (
        isinstance(error, ResponseError) and str(error).startswith(MISCONF))


class NotReplicated(RedisError):
    """A write its master took but fewer replicas than ``SCOUNDREL_WAIT_REPLICAS`` acknowledged in
    time (``store.replication``): not acknowledged to the client, who tries again (a run's
    acceptance then finds the run, if it was kept)."""


class TokenRevoked(Exception):
    """The token a write was checked against names no one now: revoked or replaced since the
    caller learnt whose it was (``store.runs.accept_runs``); nothing was written."""
