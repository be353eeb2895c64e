"""Whether a sealed deal may be shown now, its close recorded first: the store's half of
``domain.sealing``, for each kind of seal."""

from datetime import date

from domain import sealing
from domain.run import DAILY, TOURNAMENT
from store.base.database import Database
from store.games.dealt import close_sealed_day
from store.tournaments.closing import tournament_revealed


def seal_revealed(db: Database, seal: str) -> bool:
    """Whether the deal ``seal`` seals (``daily:<date>``, ``tournament:<id>``) may be shown now, its close
    recorded in ``db`` first: how every process that shows a sealed run binds the rule."""
    kind, _, sealed = seal.partition(":")
    if kind == DAILY:
        return sealing.day_revealed(date.fromisoformat(sealed), lambda over: close_sealed_day(db, over.isoformat()))
    if kind == TOURNAMENT:
        return tournament_revealed(db, sealed)
    raise ValueError(f"unknown seal {seal!r}")
