"""Redis refusing: what the store's callers need to tell a refused write from a bug.

What the service refuses by its rules is in ``domain.errors``. Redis itself
can refuse too: reachable, but not writing (``refuses_writes``: full, a
replica, a master Sentinel demoted), or not yet holding a change on its
replicas (``NotReplicated``). The API answers both as it answers Redis
being away (503 with ``Retry-After``), and a worker waits for them to pass.
"""

from redis.exceptions import OutOfMemoryError, ReadOnlyError, RedisError, ResponseError

# Why a Redis that answers may still refuse a write: full (``maxmemory`` reached under
# ``noeviction``), a read-only replica, or a failed save it stops writes for (MISCONF).
WRITE_REFUSALS = (OutOfMemoryError, ReadOnlyError)
MISCONF = "MISCONF"


def first_line(error: BaseException) -> str:
    """An error's message for a log line: its first line (Redis's can run to several), or its type if it has none."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def refuses_writes(error: BaseException) -> bool:
    """Whether ``error`` is Redis refusing a write rather than a bug: retry later, nothing was written.

    A refused command changes nothing: a MULTI with one aborts whole, and a
    script is refused at its first write, before it has changed anything.
    """
    return isinstance(error, WRITE_REFUSALS) or (
        isinstance(error, ResponseError) and str(error).startswith(MISCONF))


class NotReplicated(RedisError):
    """A change its master took but fewer replicas than ``SCOUNDREL_WAIT_REPLICAS`` acknowledged in
    time (``store.base.replicas``): not acknowledged to the client, who tries again (a run's acceptance
    then finds the run, if it was kept)."""


class TokenRevoked(Exception):
    """The token a write was checked against names no one now: revoked or replaced since the
    caller learnt whose it was (``store.runs.accept_runs``); nothing was written."""
