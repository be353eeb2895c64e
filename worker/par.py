"""The worker's search of a deal's par with the whole budget (``SCOUNDREL_PAR_SECONDS``), kept in the store.

Queued once per deal and variant by the first request that finds no whole
search kept (``service.par``). Safe to run twice: keeping merges what
each search proved (``store.par.results``).
"""

import logging

from scoundrel.par import par
from store.par.results import keep_par

from .process import database, settings

log = logging.getLogger("worker.par")


def search_par(seed: str, variant: str) -> None:
    """Search the par of ``seed`` played as ``variant`` and keep what it proved."""
    found = par(seed, variant, seconds=settings().par_seconds)
    keep_par(database(), seed, variant, found, searched=True)
    log.info("par searched", extra={"variant": variant, "exact": found.exact, "positions": found.positions})
