"""The wrappers of the tournaments' Lua scripts, one a script (how a wrapper reads: ``store.lua``)."""

from typing import Any

from store.base import keys
from store.log import log_keys
from store.lua import LuaScript, flatten

_JOIN_TOURNAMENT = LuaScript("join_tournament")
_START_TOURNAMENT_GAME = LuaScript("start_tournament_game")
_CLOSE_TOURNAMENT = LuaScript("close_tournament")
_END_TOURNAMENT = LuaScript("end_tournament")


def join_tournament(client: Any, *, tournament_id: str, player: str, at_ms: int, ends_ms: int,
                    max_entrants: int | None) -> list:
    """Join ``player`` to the tournament: ``['joined', 1]`` newly, ``['joined', 0]`` if they had,
    ``['ended']`` past ``ends_ms`` or closed, ``['full']`` with ``max_entrants`` entrants."""
    return _JOIN_TOURNAMENT.run(client, [keys.tournament_entrants(tournament_id), keys.tournaments_closed()],
                                [tournament_id, player, at_ms, ends_ms, "" if max_entrants is None else max_entrants])


def start_tournament_game(client: Any, *, tournament_id: str, player: str, at_ms: int, starts_ms: int,
                          ends_ms: int, join_required: bool, max_entrants: int | None, attempts_field: str,
                          attempts_read: int, game_id: str, slot: str, fields: dict) -> list:
    """Store a new game of the tournament as being played and count it as an attempt on its deal
    (``attempts_field``, read as ``attempts_read``): ``['new']``, or the refusal
    (``start_tournament_game.lua``)."""
    return _START_TOURNAMENT_GAME.run(
        client,
        [keys.tournament_entrants(tournament_id), keys.tournament_attempts(tournament_id),
         keys.tournaments_closed(), keys.player_games_playing(player), keys.game(game_id), keys.games_playing(),
         keys.tournament_playing(tournament_id), keys.metrics()],
        [tournament_id, player, at_ms, starts_ms, ends_ms, "1" if join_required else "",
         "" if max_entrants is None else max_entrants, attempts_field, attempts_read, game_id, slot, *flatten(fields)])


def close_tournament(client: Any, *, tournament_id: str, reveals: list[str]) -> list[str]:
    """Mark the tournament closed, appending the ``reveal`` leaf of each sealed deck (two items each: around
    its index) to the public log the first time; the ids of its games still in play."""
    return _CLOSE_TOURNAMENT.run(client, [keys.tournaments_closed(), keys.tournament_playing(tournament_id),
                                          *log_keys()], [tournament_id, *reveals])


def end_tournament(client: Any, *, tournament_id: str, at_ms: int, game_ids: list[str]) -> str:
    """Move a running tournament's end to ``at_ms``, in the copy of each of ``game_ids`` (its games in play)
    too: ``'ended_now'``, or the refusal, ``'ended'`` or ``'not_started'`` (``end_tournament.lua``)."""
    return _END_TOURNAMENT.run(client, [keys.tournament(tournament_id), keys.tournaments_ending(),
                                        keys.tournaments_closed(), *map(keys.game, game_ids)],
                               [tournament_id, at_ms])[0]
