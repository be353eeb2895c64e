"""How much waits at the desk: the size of each queue's index, in one round trip."""

from dataclasses import dataclass

from store.base import keys
from store.base.database import Database
from store.moderation import FLAG_STATUSES, OPEN, REASONS
from store.sanctions import REPORT_OPEN

FLAG_OPEN = FLAG_STATUSES[0]


@dataclass(frozen=True)
class Waiting:
    """Open disputes, open flags (and of each reason), open reports, runs in ``error``."""

    disputes: int
    flags: int
    reports: int
    errored: int
    flags_by_reason: dict[str, int]


def waiting(db: Database) -> Waiting:
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.disputes(OPEN))
        pipe.zcard(keys.flags("", FLAG_OPEN))
        pipe.zcard(keys.reports(REPORT_OPEN))
        pipe.zcard(keys.errored_runs())
        for reason in REASONS:
            pipe.zcard(keys.flags(reason, FLAG_OPEN))
        found = pipe.execute()
    disputes, flags, reports, errored = found[:4]
    return Waiting(disputes, flags, reports, errored, dict(zip(REASONS, found[4:], strict=True)))
