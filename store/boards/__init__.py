"""The boards: which keys a run's boards are (``placements``), their pages and positions (``pages``),
standings and spreads (``standings``), seasons and their close (``seasons``), and cold boards
moving to the archive and back (``cooling``)."""

from store.boards.pages import (
    Board,
    board_among,
    board_page,
    board_position,
    ladder_page,
    ladder_position,
    page_of,
    position_on,
    ranking,
)
from store.boards.seasons import UnknownSeason, close_ended_seasons, current_season, known_season, past_seasons
from store.boards.standings import Spread, Standing, board_spread, ladder_spread
from store.boards.standings import standings as player_standings

__all__ = [
    "Board", "board_among", "board_page", "board_position", "ladder_page", "ladder_position", "page_of",
    "position_on", "ranking", "UnknownSeason", "close_ended_seasons", "current_season", "known_season", "past_seasons",
    "Spread", "Standing", "board_spread", "ladder_spread", "player_standings",
]
