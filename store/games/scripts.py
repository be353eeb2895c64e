"""The wrappers of dealt games' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from domain.streak import day_before
from store.base import keys
from store.log import log_keys
from store.lua import LuaScript, flatten

_START_GAME = LuaScript("start_game")


_PLAY_MOVES = LuaScript("play_moves")


_CLOSE_SEALED_DAY = LuaScript("close_sealed_day")


def start_game(client: Any, *, game_id: str, created_ms: int, slot: str, player: str, date: str,
               server_seed: str, sealed_ttl: int, fields: dict) -> list:
    """Store a new dealt game as being played: ``['new']``, or ``['existing', id]`` when the player has
    a game in ``slot`` (a free game) or that day's sealed daily (``date``, one a day) already;
    ``['redeal']`` when the player's next deal is no longer ``server_seed``; ``['closed']`` for a
    sealed day that is closed."""
    game_key = keys.game(game_id)
    sealed = bool(date)
    return _START_GAME.run(
        client,
        [game_key, keys.games_playing(), keys.player_games_playing(player),
         keys.sealed_game(date, player) if sealed else game_key, game_key if sealed else keys.next_deal(player),
         keys.sealed_closed(), keys.sealed_playing(date) if sealed else game_key, keys.metrics()],
        [game_id, created_ms, slot, "1" if sealed else "", sealed_ttl, date, server_seed, *flatten(fields)])


def play_moves(client: Any, *, game_id: str, played: int, codes: str, at_ms: int, status: str,
               ended_ttl: int, player: str, slot: str, date: str, tournament: str, closes_ms: int | None,
               run_id: str, intake_entry: str, ended_run: dict | None, closed_run: dict | None,
               latency_bucket: str = "", latency: float | None = None, counted_as: str = "") -> list:
    """Append the moves ``codes`` to a game still played with ``played`` moves, and set ``status``:
    ``['ok']``, ``['moved', count]``, ``['over', status]`` or ``['missing']``; a sealed daily game
    (``date``) or a tournament's (``tournament``) that is closed, or past ``closes_ms``, is forfeited
    instead (``['closed']`` if ``codes`` had moves). A game that ends here gets its run ``run_id`` in the
    same script: stored with ``ended_run``'s fields (the game as these moves end it), or ``closed_run``'s
    (the game as its close forfeits it), and put on the intake as ``intake_entry``. A move request's
    ``latency`` (seconds, in ``latency_bucket``) is counted with it, and a game that ends here under
    ``counted_as`` too (the metric ``games:<counted_as>``); a sealed daily game that ends here before its
    close counts its day in the player's streak."""
    ended, closed = flatten(ended_run or {}), flatten(closed_run or {})
    game_key = keys.game(game_id)
    closed_set, playing, closing = ((keys.tournaments_closed(), keys.tournament_playing(tournament), tournament)
                                    if tournament else
                                    (keys.sealed_closed(), keys.sealed_playing(date) if date else game_key, date))
    return _PLAY_MOVES.run(
        client,
        [game_key, keys.games_playing(), keys.player_games_playing(player), closed_set, playing, keys.metrics(),
         keys.move_latency(), keys.streak(player) if date else game_key, keys.run(run_id), keys.player_runs(player),
         keys.pending_runs(), keys.metrics(), keys.intake()],
        [game_id, played, codes, at_ms, status, ended_ttl, slot, closing, "" if closes_ms is None else closes_ms,
         latency_bucket, "" if latency is None else latency, counted_as, day_before(date) if date else "", run_id,
         intake_entry, len(ended), *ended, *closed])


def close_sealed_day(client: Any, *, date: str, reveal: list[str]) -> list[str]:
    """Mark ``date``'s sealed daily closed, appending its seed's ``reveal`` leaf (two items: around its index)
    to the public log the first time; the ids of its games still in play."""
    return _CLOSE_SEALED_DAY.run(client, [keys.sealed_closed(), keys.sealed_playing(date), *log_keys()],
                                 [date, *reveal])
