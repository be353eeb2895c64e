"""A player's personal data across the store: found whole for its export (``personal_data``), and erased
on request, resumably (``erasure``, ``scripts``)."""

from store.privacy.erasure import begin_erasure, erase, erasure_log, finish_erasures
from store.privacy.personal_data import (
    account,
    boards_held,
    disputes_filed,
    followers,
    run_batches,
    tournaments_entered,
)

__all__ = [
    "begin_erasure", "erase", "erasure_log", "finish_erasures", "account", "boards_held", "disputes_filed",
    "followers", "run_batches", "tournaments_entered",
]
