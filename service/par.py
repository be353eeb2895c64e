"""A public deal's par for a view: what is kept, else a request's quick search; a worker's search queued once.

Only for a deal whose seed is public (``domain.par``): every caller has
checked that first, so nothing here is computed for a hidden seed.

Only the API's par views search (``PAR_SEARCHING``), each request that
queues a search counted against its address's own limit
(``SCOUNDREL_RATE_LIMIT_PAR``, ``service.security``); a page shows the par
kept, or none yet, so no crawler following pages queues a search.
"""

from flask import g

from domain.par import ParView, quick_par
from domain.run import Run
from store.par import keep_par, queue_search, read_par

from .context import db, referee

# The views whose requests may search a par: an address's requests to them count against the par limit when
# they queue a search (``queued_search``)
PAR_SEARCHING = frozenset({"seeds.deal_par", "sealed.of_day"})


def par_of(seed: str, variant: str, *, line: bool = True) -> ParView:
    """The par of public ``seed`` played as ``variant``: what is kept of it, or what a quick search finds
    now (kept for the next request); unless a worker's whole search is kept or under way, one is queued
    (at most ``PAR_SEARCHES_QUEUED`` wait: past it, none)."""
    kept = read_par(db(), seed, variant)
    found = kept.found
    if found is None:
        found = quick_par(seed, variant)
        keep_par(db(), seed, variant, found, searched=False)
    searching = kept.searching
    if kept.unsearched and not found.exact:
        searching = _queue_search(seed, variant)
    return ParView.of(found, searching, line=line)


def _queue_search(seed: str, variant: str) -> bool:
    """Queue a worker's search of the par unless one is marked already or too many wait; whether one is
    (counted against the address's par limit, ``queued_search``)."""
    queued = queue_search(db(), seed, variant, referee().settings.par_seconds)
    g.par_search_queued = queued
    return queued


def queued_search(response) -> bool:
    """Whether the request answered by ``response`` queued a par search (the par limit counts those)."""
    return bool(g.get("par_search_queued"))


def kept_par(seed: str, variant: str, *, line: bool = False) -> ParView | None:
    """The par of public ``seed`` as far as it is kept, without its ``line`` unless asked, or None: for reads
    that never search (a page, a board, a run: clients poll their runs, and every open run may have a deal of
    its own)."""
    kept = read_par(db(), seed, variant)
    return None if kept.found is None else ParView.of(kept.found, kept.searching, line=line)


def run_par(run: Run) -> ParView | None:
    """The kept par of a verified run's deal, as the reader sees the run (``domain.sealing.shown``: a sealed
    run's seed is None until its day is over)."""
    if run.seed is None or run.status != "verified" or run.score is None:
        return None
    return kept_par(run.seed, run.variant)


def beside_par(entries: list[dict], found: ParView) -> list[dict]:
    """A board of one deal's entries, each with how far its score is from the deal's par (``from_par``)."""
    return [{**entry, "from_par": found.from_par(entry["score"])} for entry in entries]
