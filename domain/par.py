"""A deal's par where the service shows it: what a reader may see of it, and the search a request makes.

``scoundrel.par`` finds a deal's par (the best score with the whole deck
known) or, within its budget, a proven interval. A request never waits on
a long search: it makes a short one of ``QUICK_POSITIONS`` positions (a few
milliseconds) for a line, shown at once, while a worker searches on with the
whole budget (``SCOUNDREL_PAR_SECONDS``, ``worker.par``) and keeps what it
proves (``store.par``).

A par tells something of its deal (the line names every card), so it is
shown only where the deal's seed is public: a seed a client names, a
free game once it ends, a sealed daily once its day is over and closed.
Until then nothing of it is computed for a reader, let alone shown.
"""

from dataclasses import dataclass

from scoundrel.par import Par, par

# A request's own search, a line to show at once (its whole budget goes to finding lines: proving par is the
# worker's): under 15 ms of CPU, classic and easy alike
QUICK_POSITIONS = 300
PAR_SEARCHES_QUEUED = 100  # searches waiting at most: past it a request shows what it found, and queues none


@dataclass(frozen=True)
class ParView:
    """A deal's par as a reader sees it: ``par``, the best score a line found reaches (the par itself when
    ``exact``), ``upper`` a proven bound above it, the ``line`` that reaches ``par`` (None where the caller
    hides it), and ``searching``: a worker's search goes on."""

    par: int
    exact: bool
    upper: int
    line: tuple[str, ...] | None
    searching: bool

    @classmethod
    def of(cls, found: Par, searching: bool, *, line: bool = True) -> "ParView":
        return cls(found.score, found.exact, found.upper, found.line if line else None, searching)

    def from_par(self, score: int) -> int:
        """How far ``score`` is from par: negative below it (a run above a par not yet proven exact
        shows the search has not found its line yet)."""
        return score - self.par


def quick_par(seed: str, variant: str) -> Par:
    """What a request proves of a deal's par itself, at once."""
    return par(seed, variant, positions=QUICK_POSITIONS, line_share=1)
