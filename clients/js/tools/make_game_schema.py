"""Write tests/data/game-schema.json: the game JSON as the service's OpenAPI document describes it.

Run from the repository root with the project's venv:

    .venv/bin/python clients/js/tools/make_game_schema.py

``schemas.games.GameSchema`` is the one definition of a dealt game's JSON;
the JS side cannot import it, so this records the ``Game`` component of
``/v1/openapi.json`` as the API serves it. The fake server builds its game
answers field by field in that document's order and refuses to send one
that does not fit it (``tools/game-schema.js``), and the client's tests
check that every field it reads is in it. ``tests/clients/test_game_schema.py``
fails when the file no longer says what the service's document says, so a
field renamed in the schema fails there, then in the fake and the client
until they follow.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from service.app import create_app  # noqa: E402

TARGET = ROOT / "tests" / "data" / "game-schema.json"


def game_schema() -> str:
    """The text of ``game-schema.json``: the ``Game`` component of the OpenAPI document the API serves now."""
    with create_app().test_client() as client:
        document = client.get("/v1/openapi.json").get_json()
    return json.dumps({"Game": document["components"]["schemas"]["Game"]}, indent=2) + "\n"


if __name__ == "__main__":
    TARGET.write_text(game_schema(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
