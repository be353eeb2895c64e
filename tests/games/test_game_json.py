"""A dealt game's JSON is GameSchema dumping a GameView: every field the schema lists, from the view.

marshmallow leaves a field out of a dump when the object has no attribute
of its name, so a field renamed in ``GameSchema`` or ``domain.dealer.GameView``
alone would vanish from the answers without an error: this dumps views of
games in every state and requires every field of the schema, in its order.
"""

import json

import pytest

from domain.dealer import GameView, position
from domain.game import DAILY, FORFEIT, PLAYING, Game
from schemas.games import GameSchema
from scoundrel.strategies import play_game

SEED = "game-json"
MOVES = play_game(SEED, "classic", strategy="greedy")


def game(**fields) -> Game:
    value = {"id": "c" * 32, "player": "ada", "variant": "classic", "challenge": "", "date": "", "seed": SEED,
             "server_seed": SEED, "client_seed": "", "moves": MOVES[:5], "move_gaps": "", "status": PLAYING,
             "created_ms": 1_000, "last_ms": 2_500, "ended_ms": None, "run_status": None, "run_score": None}
    return Game(**value | fields)


GAMES = {
    "in play": game(),
    "dealt": game(moves=[]),
    "ended, run verified": game(moves=MOVES, status="lost", ended_ms=9_000, run_status="verified", run_score=-40),
    "forfeited with a client seed": game(status=FORFEIT, client_seed="mine", ended_ms=9_000),
    "sealed daily in play": game(challenge=DAILY, date="2026-12-01"),
}


@pytest.mark.parametrize("revealed", [False, True])
@pytest.mark.parametrize("dealt", GAMES.values(), ids=GAMES.keys())
def test_every_field_of_the_schema_is_in_the_json_in_the_schemas_order(dealt, revealed):
    dumped = GameSchema().dump(GameView(dealt, position(dealt), revealed, now_ms=5_000))
    assert list(dumped) == list(GameSchema().dump_fields)
    json.dumps(dumped)  # plain JSON values, as the API sends them


def test_the_view_shows_the_position_and_the_seed_only_once_revealed():
    dealt = GAMES["forfeited with a client seed"]
    state = position(dealt)
    sealed = GameSchema().dump(GameView(dealt, state, False, now_ms=5_000))
    assert [sealed["seed"], sealed["server_seed"], sealed["client_seed"]] == [None, None, "mine"]
    assert [sealed["room"], sealed["health"], sealed["cards_left"]] == [state.room, state.health, len(state.dungeon)]
    shown = GameSchema().dump(GameView(dealt, state, True, now_ms=5_000))
    assert [shown["seed"], shown["server_seed"]] == [SEED, SEED]
