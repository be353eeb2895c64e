"""``scoundrel conformance``: golden cases for every ruling, checked against any engine over JSON lines.

The reference adapter (this engine, ``--serve``) and the JS client's adapter
(``clients/js/tools/conformance-adapter.mjs``) must pass every case; an engine
that lets a worn weapon fight an equal monster (R10 read as "less or equal",
as other engines do) must fail. The engines are processes the command talks to: those cases are
``test_as_processes.py``'s.
"""

import json

from cli import conformance

RULINGS = {f"R{number}" for number in range(1, 19)}
# The places other engines were found to depart from the rules texts: a case each.
DISAGREEMENTS = {"wear-strictly-less", "last-short-room", "death-score", "no-room-after-killing-blow"}

def cases() -> list[dict]:
    return list(conformance.golden_cases())


def test_every_stored_case_is_what_this_engine_answers():
    for case in cases():
        reply = conformance.answer(conformance.request_of(case))
        assert conformance.differences(case, reply) == [], case["case"]
        assert reply["states"] == case["states"]


def test_there_is_a_case_for_every_ruling_and_every_disagreement():
    stored = cases()
    assert RULINGS <= {ruling for case in stored for ruling in case["rulings"]}
    assert DISAGREEMENTS <= {case["case"] for case in stored}


def test_the_wear_case_holds_a_monster_equal_to_the_last_kill_that_the_weapon_may_not_fight():
    case = next(case for case in cases() if case["case"] == "wear-strictly-less")
    worn = [state for state in case["states"] if state["last_kill"] and not state["over"]]
    assert any(f"{card}w" not in state["legal"] for state in worn for card in state["room"]
               if card[0] in "SC" and int(card[1:]) == int(state["last_kill"][1:]))


def test_without_options_the_cases_are_printed_as_json_lines(scoundrel):
    result = scoundrel("conformance")
    assert result.returncode == 0, result.stderr
    printed = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert printed == cases()


def test_an_engine_that_cannot_start_is_one_line_and_status_2(scoundrel):
    result = scoundrel("conformance", "--engine", "/nonexistent/engine")
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1
