"""What is proven of each deal's par, kept in Redis: the best line found, the upper bound, and whether a
worker's whole search is done or under way.

A request shows what is kept at once; a worker's search (``worker.par``)
adds to it. Two searches of one deal each prove an interval that holds
its par, so keeping one merges them (``lua/keep_par.lua``): the higher
line, the lower bound. A par is kept ``PAR_KEPT`` after its last search,
a few hundred bytes each; a par asked for again after that is searched
again, with the same result.
"""

from dataclasses import dataclass

from domain.par import PAR_SEARCHES_QUEUED
from scoundrel.par import Par
from store.base import keys
from store.base.database import Database
from store.lua import LuaScript
from store.queue.queues import enqueue_par_search, par_searches_queued

PAR_KEPT = 30 * 24 * 3600  # seconds a deal's par is kept after its last search
SEARCH_GRACE = 60  # seconds a search marker outlives its budget: a worker lost mid-search lets it go

_KEEP_PAR = LuaScript("keep_par")


@dataclass(frozen=True)
class KeptPar:
    """A deal's par as kept: ``found`` (``searched``: a worker's whole search is in it), and ``searching``:
    a worker's search is queued or running. ``found`` is None when nothing was searched yet."""

    found: Par | None
    searched: bool
    searching: bool

    @property
    def unsearched(self) -> bool:
        """Whether a worker's search would add to it: none is kept whole or under way, and no par is exact."""
        return not (self.searched or self.searching or (self.found is not None and self.found.exact))


def read_par(db: Database, seed: str, variant: str) -> KeptPar:
    """What is kept of the par of ``seed`` played as ``variant``, in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.par(variant, seed))
        pipe.exists(keys.par_search(variant, seed))
        fields, searching = pipe.execute()
    if not fields:
        return KeptPar(None, False, bool(searching))
    score, upper = int(fields["score"]), int(fields["upper"])
    found = Par(score, score == upper, upper, tuple(fields["line"].split()), int(fields["positions"]))
    return KeptPar(found, fields["searched"] == "1", bool(searching))


def keep_par(db: Database, seed: str, variant: str, found: Par, *, searched: bool) -> None:
    """Keep what ``found`` proves of the par, merged with what is kept (``searched``: a worker's whole
    search, whose marker then goes)."""
    _KEEP_PAR.run(db.redis, [keys.par(variant, seed), keys.par_search(variant, seed)],
                  [found.score, found.upper, " ".join(found.line), found.positions, int(searched), PAR_KEPT])


def begin_search(db: Database, seed: str, variant: str, seconds: float) -> bool:
    """Mark a worker's search of the par as under way: True if this call marked it (its caller queues
    the search), False if one is already."""
    return bool(db.redis.set(keys.par_search(variant, seed), "1", nx=True, ex=int(seconds) + SEARCH_GRACE))


def queue_search(db: Database, seed: str, variant: str, seconds: float) -> bool:
    """Queue a worker's search of the par, ``seconds`` of it, unless one is marked already or
    ``PAR_SEARCHES_QUEUED`` wait: whether one is under way now."""
    if par_searches_queued(db) >= PAR_SEARCHES_QUEUED:
        return False
    if begin_search(db, seed, variant, seconds):
        try:
            enqueue_par_search(db, seed, variant, seconds)
        except Exception:
            end_search(db, seed, variant)
            raise
    return True


def hold_search(db: Database, seed: str, variant: str, seconds: float) -> None:
    """Keep the marker of a search that gave way to runs and waits to resume, ``seconds`` of it left."""
    db.redis.set(keys.par_search(variant, seed), "1", ex=int(seconds) + SEARCH_GRACE)


def end_search(db: Database, seed: str, variant: str) -> None:
    """Unmark a search that was not queued after all (the queues' Redis away)."""
    db.redis.delete(keys.par_search(variant, seed))
