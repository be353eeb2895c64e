"""Dealt games: dealing, moving and ending one, each a script (``dealt``), the sealed daily's close,
streaks (``streaks``) and the secrets the daily seeds come from (``day_secrets``)."""

from store.games.day_secrets import address_secret, daily_secret, sealed_secret
from store.games.dealt import (
    FORFEITED_IDLE,
    games_in_play,
    load_game,
    load_game_as,
    next_deal,
    play_moves,
    start_game,
    sweep_games,
)
from store.games.streaks import load_streak, share_card

__all__ = [
    "address_secret", "daily_secret", "sealed_secret", "FORFEITED_IDLE", "games_in_play", "load_game",
    "load_game_as", "next_deal", "play_moves", "start_game", "sweep_games", "load_streak", "share_card",
]
