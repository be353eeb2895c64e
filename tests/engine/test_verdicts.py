"""The JSON shapes of verdicts and of the step trace, which the CLI and the API pass on."""

import pytest

import scoundrel

ENGINE = scoundrel.ENGINE_VERSION
LOST_ABC = ["S8b", "C5b", "S3b", "C7b"]


def test_verified_shape():
    assert scoundrel.replay("abc", LOST_ABC).to_dict() == {
        "status": "verified",
        "outcome": "lost",
        "score": scoundrel.replay("abc", LOST_ABC).score,
        "health": -3,
        "moves": 4,
        "ruleset": "scoundrel-1",
        "engine": ENGINE,
    }


def test_verified_won_shape(won_game):
    seed, moves, variant = won_game
    body = scoundrel.replay(seed, moves, variant).to_dict()
    assert list(body) == ["status", "outcome", "score", "health", "moves", "ruleset", "engine"]
    assert body["outcome"] == "won" and body["moves"] == len(moves)
    assert isinstance(body["score"], int) and isinstance(body["health"], int)


def test_rejected_shape():
    body = scoundrel.replay("abc", ["S8w"]).to_dict()
    assert body == {
        "status": "rejected",
        "error": {
            "code": "weapon_not_usable",
            "move_index": 0,
            "message": body["error"]["message"],
            "ruling": "R11",
        },
        "ruleset": "scoundrel-1",
        "engine": ENGINE,
    }
    assert body["error"]["message"].startswith("Move 1: ") and body["error"]["message"].endswith("(R11).")


@pytest.mark.parametrize("code", scoundrel.REJECTION_CODES)
def test_rejection_codes_are_the_five_of_rules_md(code):
    assert code in {"card_not_in_room", "weapon_not_usable", "flee_not_allowed", "move_after_game_over", "incomplete"}


def test_invalid_shape():
    verdict = scoundrel.Verdict.invalid({"seed": ["bad"]})
    assert verdict.to_dict() == {"status": "invalid", "errors": {"seed": ["bad"]}}


@pytest.mark.parametrize(
    "seed, moves, variant, field",
    [
        ("", ["flee"], "classic", "seed"),
        ("abc", ["flee"], "normal", "variant"),
        ("abc", "flee", "classic", "moves"),
        ("abc", ["flee"] * 201, "classic", "moves"),
        ("abc", [None], "classic", "moves"),
    ],
)
def test_malformed_input_raises_invalid_submission(seed, moves, variant, field):
    with pytest.raises(scoundrel.InvalidSubmission) as raised:
        scoundrel.replay(seed, moves, variant)
    assert field in raised.value.errors


def test_200_moves_are_not_too_many():
    verdict = scoundrel.replay("abc", ["flee", "S8b"] * 100, "easy")
    assert verdict.status == "rejected"


def test_trace_has_one_step_per_move_with_its_json():
    verdict = scoundrel.replay("abc", LOST_ABC, trace=True)
    assert [step.move for step in verdict.steps] == LOST_ABC
    first = verdict.steps[0].to_dict()
    assert first == {
        "index": 0,
        "move": "S8b",
        "room": ["S8", "C5", "H6", "S3"],
        "health": 12,
        "weapon": None,
        "kills": [],
        "last_kill": None,
        "room_after": ["C5", "H6", "S3"],
        "dungeon": 40,
        "effect": {
            "damage": 8, "healed": 0, "wasted": 0, "equipped": None,
            "discarded": [], "killed": None, "avoided": [], "dealt": [],
        },
    }
    third = verdict.steps[2].to_dict()
    assert third["room_after"] == ["H6", "C7", "C10", "S11"]
    assert third["effect"]["dealt"] == ["C7", "C10", "S11"]
    assert third["dungeon"] == 37


def test_trace_of_a_rejected_run_stops_before_the_offending_move():
    verdict = scoundrel.replay("abc", ["D2", "S8b"], trace=True)
    assert verdict.error.code == "card_not_in_room" and verdict.error.move_index == 0
    assert verdict.steps == ()
    verdict = scoundrel.replay("abc", ["S8b", "S8b"], trace=True)
    assert verdict.error.move_index == 1 and len(verdict.steps) == 1


def test_trace_records_weapon_kills_and_avoids():
    verdict = scoundrel.replay("abc", ["flee", "D2", "C7w"], trace=True)
    avoid, equip, fight = (step.to_dict() for step in verdict.steps)
    assert avoid["effect"]["avoided"] == ["S8", "C5", "H6", "S3"]
    assert avoid["room_after"] == ["C7", "C10", "S11", "D2"]
    assert equip["weapon"] == "D2" and equip["effect"]["equipped"] == "D2"
    assert fight["kills"] == ["C7"] and fight["last_kill"] == "C7" and fight["effect"]["killed"] == "C7"
    assert fight["health"] == 15


def test_traced_and_untraced_verdicts_agree(won_game):
    seed, moves, variant = won_game
    assert scoundrel.replay(seed, moves, variant, trace=True) == scoundrel.replay(seed, moves, variant)


def test_game_plays_move_by_move_to_the_same_verdict():
    game = scoundrel.Game("abc")
    assert "S8b" in game.legal_moves() and "S8w" not in game.legal_moves()
    for notation in LOST_ABC:
        game.play(notation)
    assert game.over
    assert game.verdict() == scoundrel.replay("abc", LOST_ABC)
    with pytest.raises(ValueError):
        game.play("S5")
