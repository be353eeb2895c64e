"""The JS side's record of the game JSON is the service's OpenAPI document, written, never typed twice.

``schemas.games.GameSchema`` is the one definition of a dealt game's JSON.
``tests/data/game-schema.json`` records its ``Game`` component as the API
serves it (``clients/js/tools/make_game_schema.py``); the JS client's fake
server builds every game answer from that record and the client's tests
check the fields it reads against it (``clients/js/test/game-schema.test.js``).
A field renamed or retyped in the schema fails here until the record is
written again, and then fails the JS tests until the fake and the client
follow: no copy of the shape can drift without a test saying so.
"""

from .conftest import js_tool


def test_the_recorded_game_schema_is_the_openapi_documents():
    generator = js_tool("make_game_schema")
    assert generator.TARGET.read_text(encoding="utf-8") == generator.game_schema(), (
        "GameSchema changed: run .venv/bin/python clients/js/tools/make_game_schema.py, then make "
        "node --test clients/js/test/ pass")
