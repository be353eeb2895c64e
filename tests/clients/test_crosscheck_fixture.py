"""The JS client's cross-check fixture still says what the Python engine says.

``tests/data/crosscheck.json`` holds games with the verdicts the Python
engine gave when ``clients/js/tools/make_crosscheck.py`` wrote it; the JS
tests (``node --test clients/js/test/``) check the JS engine against those
verdicts. This test replays every game again, so a change to the Python
engine that the fixture does not reflect fails here instead of leaving the
JS client checked against stale answers. Regenerate with
``.venv/bin/python clients/js/tools/make_crosscheck.py``.
"""

import json
from pathlib import Path

import pytest

import scoundrel
from schemas import load_submission

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "data" / "crosscheck.json").read_text())


def test_fixture_records_current_ruleset_and_engine():
    assert FIXTURE["ruleset"] == scoundrel.RULESET
    assert FIXTURE["engine"] == scoundrel.ENGINE_VERSION


def test_fixture_covers_wins_losses_every_rejection_code_and_variant():
    games = FIXTURE["games"]
    kinds = {g["verdict"].get("outcome") or g["verdict"]["error"]["code"] for g in games}
    assert kinds == {"won", "lost", *scoundrel.REJECTION_CODES}
    assert {g["variant"] for g in games} == set(scoundrel.VARIANTS)
    assert len(games) >= 200


@pytest.mark.parametrize("game", FIXTURE["games"], ids=lambda g: f"{g['seed']}/{g['variant']}/{g['kind']}")
def test_python_engine_gives_the_recorded_verdict(game):
    assert scoundrel.replay(game["seed"], game["moves"], game["variant"]).to_dict() == game["verdict"]


@pytest.mark.parametrize("case", FIXTURE["malformed"], ids=lambda c: json.dumps(c["submission"])[:40])
def test_schema_gives_the_recorded_field_errors(case):
    submission, errors = load_submission(case["submission"])
    assert submission is None
    assert json.loads(json.dumps(errors)) == case["errors"]
