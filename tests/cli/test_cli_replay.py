"""``scoundrel replay``: the step trace as a table to audit, then the verdict."""

import json


def table(result) -> list[str]:
    return result.stdout.decode().splitlines()


def row(lines: list[str], number: int) -> str:
    return next(line for line in lines if line.split()[:1] == [str(number)])


def test_won_game(scoundrel, won_game):
    result = scoundrel("replay", won_game["seed"], *won_game["moves"])
    assert result.returncode == 0, result.stderr
    lines = table(result)
    assert lines[0].startswith("seed 1, variant classic, 50 moves")
    assert lines[2].split() == ["#", "room", "move", "health", "weapon", "dungeon", "effect"]
    assert row(lines, 1).split()[:9] == ["1", "♠13", "♣3", "♦4", "♠5", "D4", "20", "♦4", "40"]
    assert "killed ♠13 with ♦4, took 9" in row(lines, 2)
    assert "♦4 (last ♠13)" in row(lines, 2)
    assert "new room: ♣3 ♦6 ♠7 ♥7" in row(lines, 3)
    assert "equipped ♦6, discarded ♦4+♠13+♠5+♣3" in row(lines, 6)
    assert "avoided: ♠7 ♣7 ♣13 ♠14 to the bottom; new room: ♣14 ♦3 ♦10 ♣4" in row(lines, 7)
    assert "healed 10" in row(lines, 21)
    assert "fought ♠3 barehanded, took 3" in row(lines, 39)
    assert "new room: ♦2 ♥2 (the last, play every card: R5)" in row(lines, 48)
    assert "dungeon cleared" in row(lines, 50)
    assert lines[-1] == "WON with score 19 = health 19 (R15); 50 moves, verified."


def test_columns_are_aligned(scoundrel, won_game):
    lines = table(scoundrel("replay", won_game["seed"], *won_game["moves"]))[2:-2]
    effect_column = lines[0].index("effect")
    assert all(line[effect_column - 2 : effect_column] == "  " and line[effect_column] != " " for line in lines)


def test_lost_game(scoundrel, lost_game):
    result = scoundrel("replay", "--ascii", lost_game["seed"], " ".join(lost_game["moves"]))
    assert result.returncode == 0
    lines = table(result)
    assert "fought C10 barehanded, took 10; dead (R12)" in row(lines, 4)
    assert row(lines, 4).split()[:7] == ["4", "H6", "C7", "C10", "S11", "C10b", "-6"]
    assert lines[-1] == (
        "LOST with score -170 = health -6 - 164, the monsters left in the dungeon (R16); 4 moves, verified."
    )


def test_rejected_game_points_at_the_offending_move(scoundrel, rejected_game):
    result = scoundrel("replay", "--ascii", rejected_game["seed"], *rejected_game["moves"])
    assert result.returncode == 1
    lines = table(result)
    assert "killed S5 with D4, took 1" in row(lines, 2)
    offending = row(lines, 3)
    assert offending.split()[:4] == ["3", "S13", "C3", "S13w"]
    assert "<< rejected: weapon_not_usable (R10)" in offending
    assert lines[-1].startswith("REJECTED at move 3 (S13w), weapon_not_usable (R10): The weapon D4 last killed S5")
    assert "\033[" not in result.stdout.decode()  # no colour when stdout is not a terminal


def test_an_unfinished_game_is_rejected_as_incomplete(scoundrel):
    result = scoundrel("replay", "abc", "S8b")
    assert result.returncode == 1
    assert table(result)[-1].startswith("REJECTED, incomplete (R17)")
    assert "The room still holds ♣5 ♥6 ♠3." in table(result)[-1]


def test_replay_from_a_file(scoundrel, tmp_path, won_game, lost_game):
    whole = tmp_path / "one.json"
    whole.write_text(json.dumps(won_game, indent=2))
    assert table(scoundrel("replay", "--file", str(whole)))[-1].startswith("WON")
    lines = tmp_path / "runs.jsonl"
    lines.write_text(json.dumps(lost_game) + "\n" + json.dumps(won_game) + "\n")
    assert table(scoundrel("replay", "--file", str(lines)))[-1].startswith("LOST")
    assert table(scoundrel("replay", "--file", "-", input=json.dumps(won_game)))[-1].startswith("WON")


def test_variant_decides_whether_a_flee_is_legal(scoundrel):
    assert "flee_not_allowed (R14)" in table(scoundrel("replay", "--variant", "hard", "abc", "flee"))[-1]
    assert "incomplete" in table(scoundrel("replay", "--variant", "easy", "abc", "flee", "flee"))[-1]


def test_invalid_input_prints_the_invalid_verdicts_messages(scoundrel):
    result = scoundrel("replay", "abc", "S8x", "H6")
    assert result.returncode == 2
    assert result.stdout == b""
    assert "moves[0] 'S8x': Not a move in the notation" in result.stderr.decode()
    bad_seed = scoundrel("replay", "a b", "S8b")
    assert bad_seed.returncode == 2
    assert "seed: Seed must be 1-64 characters" in bad_seed.stderr.decode()
    not_json = scoundrel("replay", "--file", "-", input="nope")
    assert not_json.returncode == 2
    assert "_schema: Not valid JSON" in not_json.stderr.decode()
    unknown = scoundrel("replay", "--file", "-", input='{"seed": "abc", "moves": [], "colour": 1}')
    assert "colour: Unknown field." in unknown.stderr.decode()
