"""Tournaments in the store: created, listed, joined, played, closed (``domain.tournaments``)."""

from store.tournaments.closing import end_tournament, tell_ended, tell_started, tournament_revealed
from store.tournaments.seals import seal_revealed
from store.tournaments.tournaments import (
    create_tournament,
    entry_of,
    join_tournament,
    load_tournament,
    load_tournaments,
    progress_of,
    start_tournament_game,
    tournament_secret,
    tournaments_in,
)

__all__ = [
    "end_tournament", "tell_ended", "tell_started", "tournament_revealed", "seal_revealed", "create_tournament",
    "entry_of", "join_tournament", "load_tournament", "load_tournaments", "progress_of", "start_tournament_game",
    "tournament_secret", "tournaments_in",
]
