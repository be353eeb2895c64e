"""A deal's par as the service keeps it: what searches proved, and whether a worker searches now (``results``)."""

from store.par.results import hold_search, keep_par, queue_search, read_par

__all__ = [
    "hold_search", "keep_par", "queue_search", "read_par",
]
