"""A run's origin, which decides the boards it counts on (``domain.boards``).

An open run was submitted whole: its player knew the seed, so the whole
deck, before the first move. A dealt run is a game the server dealt card by
card. Stored as the run's ``origin`` field (``dealt``); a run without one is open.
"""

from domain.run import DEALT

__all__ = ["DEALT"]
