"""``scoundrel conformance``: golden cases for every ruling, checked against any engine over JSON lines.

The reference adapter (this engine, ``--serve``) and the JS client's adapter
(``clients/js/tools/conformance-adapter.mjs``) must pass every case; an engine
that lets a worn weapon fight an equal monster (R10 read as "less or equal",
as other engines do) must fail.
"""

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli import conformance

JS_ADAPTER = Path(__file__).resolve().parents[2] / "clients" / "js" / "tools" / "conformance-adapter.mjs"
RULINGS = {f"R{number}" for number in range(1, 19)}
# The places other engines were found to depart from the rules texts: a case each.
DISAGREEMENTS = {"wear-strictly-less", "last-short-room", "death-score", "no-room-after-killing-blow"}

# The reference adapter with R10 read as "less or equal": a weapon may fight a monster equal to its last kill.
WEAR_AS_LESS_OR_EQUAL = """
import sys
import scoundrel.rules as rules
from scoundrel.cards import VALUE
from cli.conformance import serve

strict = rules._weapon_violation

def less_or_equal(state, move):
    if state.weapon is not None and state.kills and move.value == VALUE[state.kills[-1]]:
        return None
    return strict(state, move)

rules._weapon_violation = less_or_equal
serve(sys.stdin, sys.stdout)
"""


def cases() -> list[dict]:
    return list(conformance.golden_cases())


def python_engine(source: str = "") -> str:
    return shlex.join([sys.executable, "-c", source]) if source else shlex.join(
        [sys.executable, "-m", "cli.main", "conformance", "--serve"])


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


def test_the_reference_adapter_passes_every_case(scoundrel):
    result = scoundrel("conformance", "--engine", python_engine())
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert f"{len(cases())} of {len(cases())} cases passed" in result.stdout.decode()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_js_client_passes_every_case(scoundrel):
    result = scoundrel("conformance", "--engine", shlex.join(["node", str(JS_ADAPTER)]))
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert f"{len(cases())} of {len(cases())} cases passed" in result.stdout.decode()


def test_an_engine_reading_wear_as_less_or_equal_fails(scoundrel):
    result = scoundrel("conformance", "--engine", python_engine(WEAR_AS_LESS_OR_EQUAL))
    assert result.returncode == 1
    output = result.stdout.decode()
    assert "FAIL wear-strictly-less [R10]" in output
    assert "legal is" in output


def test_an_engine_that_cannot_start_is_one_line_and_status_2(scoundrel):
    result = scoundrel("conformance", "--engine", "/nonexistent/engine")
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1



ADAPTERS = {
    "reference": shlex.split(python_engine()),
    "js": ["node", str(JS_ADAPTER)],
}


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_an_adapter_refuses_a_move_outside_the_notation_and_answers_the_next_request(adapter):
    if adapter == "js" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    typo = {"case": "typo", "seed": "conformance-0", "variant": "classic", "moves": ["flee", "X99"], "forfeit": False}
    after = conformance.request_of(cases()[0])
    lines = "".join(json.dumps(request) + "\n" for request in (typo, after))
    result = subprocess.run(ADAPTERS[adapter], input=lines, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    refused, answered = [json.loads(line) for line in result.stdout.splitlines()]
    assert refused["illegal"] == {"index": 1, "code": conformance.NOT_IN_NOTATION}
    assert len(refused["states"]) == 2
    assert answered["case"] == after["case"] and conformance.differences(cases()[0], answered) == []
