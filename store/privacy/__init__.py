"""A player's personal data across the store: found whole for its export (``personal_data``), erased on
request, resumably (``erasure``, ``scripts``), and moved whole to another name by a moderator's forced rename
(``renaming``)."""

from store.privacy.erasure import begin_erasure, erase, erasure_log, finish_erasures
from store.privacy.personal_data import (
    account,
    boards_held,
    disputes_filed,
    followers,
    run_batches,
    tournaments_entered,
)
from store.privacy.renaming import Renamed, rename

__all__ = [
    "begin_erasure", "erase", "erasure_log", "finish_erasures", "account", "boards_held", "disputes_filed",
    "followers", "run_batches", "tournaments_entered", "Renamed", "rename",
]
