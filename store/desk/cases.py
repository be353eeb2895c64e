"""Who is on a case at the desk: a moderator takes a run's case, and the others see it in the queue and on
the case until the taker acts on it or ``CASE_HELD`` passes."""

from dataclasses import dataclass

from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.desk import scripts

CASE_HELD = 15 * 60 * 1000  # ms a case taken stays taken without its taker acting


@dataclass(frozen=True)
class Taken:
    """A case taken: by whom, since when (ms)."""

    moderator: str
    since_ms: int


def _taken(value: str | None) -> Taken | None:
    if not value:
        return None
    since, _, moderator = value.partition(" ")
    return Taken(moderator, int(since))


def take_case(db: Database, run_id: str, moderator: str) -> Taken:
    """``moderator`` takes the run's case (taking it again renews it; taking another's replaces theirs:
    the desk shows who it replaces before)."""
    taken = Taken(moderator, now_ms())
    db.redis.set(keys.desk_case(run_id), f"{taken.since_ms} {moderator}", px=CASE_HELD)
    return taken


def release_case(db: Database, run_id: str, moderator: str) -> None:
    """``moderator`` acted on the case (or let it go): it is released if they held it."""
    scripts.release_case(db.redis, run_id=run_id, moderator=moderator)


def cases_taken(db: Database, run_ids: list[str]) -> dict[str, Taken]:
    """Who is on each of these runs' cases, for those taken: one round trip."""
    if not run_ids:
        return {}
    held = db.redis.mget([keys.desk_case(run_id) for run_id in run_ids])
    return {run_id: taken for run_id, value in zip(run_ids, held, strict=True) if (taken := _taken(value))}
