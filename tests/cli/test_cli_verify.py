"""``scoundrel verify``: one verdict JSON per input line, in order, whatever the line holds."""

import json

from .conftest import lines_of

MOVE_LIMIT = 200


def verdicts(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.decode().splitlines()]


def test_mixed_lines_keep_their_order_and_never_stop_the_command(scoundrel, won_game, lost_game, rejected_game):
    given = lines_of(
        won_game,
        "not json",
        "",
        [1, 2],
        {"seed": 5, "moves": "S8b"},
        {"seed": "abc", "moves": ["flee"], "colour": "red"},
        {"seed": "a b", "moves": ["S8b"]},
        {"seed": "abc", "moves": ["S8x", 3]},
        {"seed": "abc", "moves": ["flee"] * (MOVE_LIMIT + 1)},
        {"seed": "abc", "moves": ["S8b"], "variant": "nightmare"},
        rejected_game,
        lost_game,
    )
    result = scoundrel("verify", input=given)
    assert result.returncode == 0
    assert result.stderr == b""  # not a terminal: no bar, no summary
    out = verdicts(result)
    assert [v["status"] for v in out] == ["verified"] + ["invalid"] * 9 + ["rejected", "verified"]
    assert out[0]["outcome"] == "won" and out[0]["score"] == 19
    assert out[1]["errors"]["_schema"][0].startswith("Not valid JSON")
    assert out[2]["errors"]["_schema"][0].startswith("Blank line")
    assert out[3]["errors"] == {"_schema": ['Not a submission: expected a JSON object {"seed", "moves", "variant"}, '
                                          'got a list.']}
    assert set(out[4]["errors"]) == {"seed", "moves"}
    assert out[5]["errors"] == {"colour": ["Unknown field."]}
    assert "seed" in out[6]["errors"]
    assert set(out[7]["errors"]["moves"]) == {"0", "1"}
    assert "At most 200 moves" in out[8]["errors"]["moves"][0]
    assert "variant" in out[9]["errors"]
    assert out[10]["error"]["code"] == "weapon_not_usable" and out[10]["error"]["move_index"] == 2
    assert out[11]["outcome"] == "lost" and out[11]["score"] == -170


def test_bytes_that_are_not_utf8_get_an_invalid_verdict(scoundrel, lost_game):
    result = scoundrel("verify", "-", input=b"\xff\xfe\n" + lines_of(lost_game).encode())
    assert [v["status"] for v in verdicts(result)] == ["invalid", "verified"]
    assert "UTF-8" in verdicts(result)[0]["errors"]["_schema"][0]


def test_a_last_line_without_newline_is_judged(scoundrel, lost_game):
    result = scoundrel("verify", input=json.dumps(lost_game))
    assert [v["status"] for v in verdicts(result)] == ["verified"]


def test_verdicts_match_the_engine_and_schema(scoundrel, tmp_path, won_game):
    import scoundrel as engine

    path = tmp_path / "one.jsonl"
    path.write_text(lines_of(won_game))
    (verdict,) = verdicts(scoundrel("verify", str(path)))
    assert verdict == engine.replay(won_game["seed"], won_game["moves"]).to_dict()


def test_a_missing_file_is_an_error(scoundrel, tmp_path):
    result = scoundrel("verify", str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr.decode()


def test_ten_thousand_lines(scoundrel, ten_thousand):
    result = scoundrel("verify", str(ten_thousand), "--summary")
    assert result.returncode == 0
    out = verdicts(result)
    assert len(out) == 10_000
    assert [v["status"] for v in out[:10]] == [
        "verified", "verified", "rejected", "verified", "verified",
        "invalid", "verified", "rejected", "verified", "verified",
    ]
    assert result.stderr.decode() == "10000 submissions: 7000 verified, 2000 rejected, 1000 invalid\n"


def test_json_that_is_no_object_says_what_was_expected_and_what_came(scoundrel):
    given = "[]\nnull\n\"abc\"\n7\nfalse\n"
    out = verdicts(scoundrel("verify", input=given))
    expected = 'Not a submission: expected a JSON object {"seed", "moves", "variant"}, got '
    assert [verdict["errors"]["_schema"] for verdict in out] == [
        [f"{expected}{kind}."] for kind in ("a list", "null", "a string", "a number", "false")]
