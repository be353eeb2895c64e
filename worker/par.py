"""The worker's search of a deal's par with the whole budget (``SCOUNDREL_PAR_SECONDS``), kept in the store.

Queued once per deal and variant by the first API request that finds no
whole search kept (``service.par``), and for each sealed daily once its
day is over by the workers' sweep (``queue_sealed_search``): the pages,
which never search, show it then. Safe to run twice: keeping merges what
each search proved (``store.par.results``).

A verdict never waits on a search. A worker takes a search only while no
run waits (``worker.runner.behind_runs``), and a search in progress looks
every ``LOOK_SECONDS`` whether one does: if so it stops at once, keeps the
interval it proved, and queues itself again at the head of the searches'
queue with the budget it has left, its marker kept (a request queues no
second one meanwhile). The search it resumes with starts over, bounded by
that budget: what each part proved is merged as it is kept. A search that
ends without proving the par keeps the line of a request's own search
(``domain.par.quick_par``) too: the par kept is never worse than a request's.
"""

import logging
import time
from datetime import timedelta

from domain.daily_seed import sealed_seed, today
from domain.par import quick_par
from domain.run import daily_seal
from scoundrel import CLASSIC
from scoundrel.par import par
from settings import Settings
from store.base import Database
from store.games import sealed_secret
from store.par import hold_search, keep_par, queue_search, read_par
from store.queue import enqueue_par_search, runs_waiting
from store.tournaments import seal_revealed

from .process import database, settings

log = logging.getLogger("worker.par")

LOOK_SECONDS = 0.01  # how often a search looks whether a run waits (a round trip to each Redis)
_PAST_ANY_DEADLINE = 1e9  # seconds the clock leaps once a run waits: more than any search's budget


class GivingWay:
    """A search's clock (``scoundrel.par``'s ``clock``): wall time until a run waits for its verdict, then
    past every deadline, so the search ends at its next look at the clock with what it proved."""

    def __init__(self) -> None:
        self.started = self.looked = time.monotonic()
        self.gave_way = False

    def __call__(self) -> float:
        now = time.monotonic()
        if not self.gave_way and now - self.looked >= LOOK_SECONDS:
            self.looked = now
            self.gave_way = runs_waiting(database())
        return now + _PAST_ANY_DEADLINE if self.gave_way else now

    def spent(self) -> float:
        """Seconds searched so far."""
        return time.monotonic() - self.started


def search_par(seed: str, variant: str, seconds: float | None = None) -> None:
    """Search the par of ``seed`` played as ``variant`` for ``seconds`` (the whole budget unless a search that
    gave way resumes) and keep what it proved; give way to waiting runs, and resume with what is left."""
    db = database()
    budget = settings().par_seconds if seconds is None else seconds
    clock = GivingWay()
    found = par(seed, variant, seconds=budget, clock=clock)
    if not found.exact:
        # Its budget spent on proving more than lines (an eighth finds them), or cut short (it gave way, or the
        # machine ran it little): what a request's own search finds is kept too, a few milliseconds more, so that
        # the par kept, which the pages show, is never a worse line than a request would show.
        keep_par(db, seed, variant, quick_par(seed, variant), searched=False)
    left = budget - clock.spent()
    resumes = clock.gave_way and not found.exact and left > 0
    keep_par(db, seed, variant, found, searched=not resumes)
    if resumes:
        hold_search(db, seed, variant, left)
        enqueue_par_search(db, seed, variant, left, resumed=True)
    log.info("par searched", extra={"variant": variant, "exact": found.exact, "positions": found.positions,
                                    "gave_way": resumes})


def queue_sealed_search(db: Database, config: Settings) -> bool:
    """Queue the search of yesterday's sealed daily's par once that day is over and closed, unless one is
    kept whole or under way; whether one was (the sweep's: ``worker.runner``)."""
    day = today() - timedelta(days=1)
    if not seal_revealed(db, daily_seal(day.isoformat())):
        return False
    seed = sealed_seed(config.sealed_secret or sealed_secret(db), day)
    return read_par(db, seed, CLASSIC).unsearched and queue_search(db, seed, CLASSIC, config.par_seconds)
