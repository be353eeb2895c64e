"""Write tests/data/crosscheck.json: games judged by the Python engine, for the JS client to agree with.

Run from the repository root with the project's venv:

    .venv/bin/python clients/js/tools/make_crosscheck.py

Every game is built from legal play by the engine's own players
(``scoundrel.strategies``: random, greedy, and the win search), then some are cut short or given one illegal move, so the file
holds wins, losses and every rejection code in all three variants, plus
malformed submissions with the schema's field errors. Each entry records
the verdict the Python engine gives; ``node --test clients/js/test/`` checks
the JS engine gives the same, and ``tests/clients/test_crosscheck_fixture.py``
checks the file still says what the Python engine says. Deterministic: the
same engine and players write the same file (about two minutes, mostly
the win search).
"""

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import scoundrel  # noqa: E402
from schemas import load_submission  # noqa: E402
from scoundrel import strategies  # noqa: E402
from scoundrel.rules import check  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "crosscheck.json"
LEGAL_GAMES_PER_VARIANT = 40
WIN_SEEDS = 12  # seeds tried per variant by the win search (a few seconds each)
WIN_BUDGET = 24_000
WINS_PER_VARIANT = 3


def positions(seed: str, variant: str, moves: list[str]):
    """(index, state before the move) for each move of a legal game."""
    state = scoundrel.start(scoundrel.deal(seed))
    for index, notation in enumerate(moves):
        yield index, state.copy()
        scoundrel.apply(state, scoundrel.MOVES[notation], variant)


def illegal_candidates(state, variant: str, code: str) -> list[str]:
    """Well-formed moves that ``check`` refuses with ``code`` in ``state``."""
    found = []
    for notation in scoundrel.MOVES:
        violation = check(state, scoundrel.MOVES[notation], variant)
        if violation is not None and violation.code == code:
            found.append(notation)
    return found


def with_illegal_move(seed, variant, moves, code, rng):
    """``moves`` with one move replaced by (or inserted as) a move refused with ``code``, or None."""
    spots = []
    for index, state in positions(seed, variant, moves):
        candidates = illegal_candidates(state, variant, code)
        if candidates:
            spots.append((index, candidates))
    if not spots:
        return None
    index, candidates = rng.choice(spots)
    bad = rng.choice(candidates)
    if rng.random() < 0.5:
        return moves[:index] + [bad] + moves[index + 1 :]
    return moves[:index] + [bad] + moves[index:]


def wins(variant: str) -> list[tuple[str, list[str]]]:
    found = []
    for i in range(WIN_SEEDS):
        seed = f"cc-win-{variant}-{i}"
        moves = strategies.find_win(seed, variant, budget=WIN_BUDGET)
        if moves is not None:
            found.append((seed, moves))
            if len(found) == WINS_PER_VARIANT:
                break
    return found


def entry(kind: str, seed: str, variant: str, moves: list[str]) -> dict:
    return {
        "kind": kind,
        "seed": seed,
        "variant": variant,
        "moves": moves,
        "verdict": scoundrel.replay(seed, moves, variant).to_dict(),
    }


def games() -> list[dict]:
    rng = random.Random("crosscheck/v1")
    made = []
    for variant in scoundrel.VARIANTS:
        for seed, moves in wins(variant):
            made.append(entry("won", seed, variant, moves))
            made.append(entry("move_after_game_over", seed, variant, moves + [rng.choice(list(scoundrel.MOVES))]))
        for i in range(LEGAL_GAMES_PER_VARIANT):
            seed = f"cc-{variant}-{i}"
            moves = strategies.play_game(seed, variant, rng=rng, strategy=("random", "greedy")[i % 2])
            made.append(entry("finished", seed, variant, moves))
            # at least one move: no move at all is not a game (the API refuses it, and so does the JS replay)
            cut = moves[: rng.randrange(len(moves))] or moves[:1]
            if len(cut) < len(moves):
                made.append(entry("incomplete", seed, variant, cut))
            made.append(entry("move_after_game_over", seed, variant, moves + ["flee", "H2"][: rng.randint(1, 2)]))
            for code in ("card_not_in_room", "weapon_not_usable", "flee_not_allowed"):
                broken = with_illegal_move(seed, variant, moves, code, rng)
                if broken is not None:
                    made.append(entry(code, seed, variant, broken))
    return made


MALFORMED = [
    {},
    {"seed": None, "moves": None, "variant": None},
    {"seed": 3, "moves": "flee", "variant": 3},
    {"seed": "", "moves": []},
    {"seed": "a b", "moves": ["flee"]},
    {"seed": "x" * 65, "moves": []},
    {"seed": "abc", "moves": ["S8", "S8x", "H6w", "D2b", "flee ", "FLEE", 7, None, "S1b", "H11", "D14"]},
    {"seed": "abc", "moves": ["flee"] * 201},
    {"seed": "abc", "moves": [], "variant": "Classic"},
    {"seed": "abc", "moves": [], "variant": "ranked", "extra": True},
    {"seed": "abc", "moves": [["flee"]]},
    {"seed": "abc", "moves": []},  # the engine would say incomplete (R17); a submission needs a move
    [],
    "abc",
    None,
]


def fixture_text(fixture: dict) -> str:
    """JSON with one game (or malformed submission) per line, so a regenerated file diffs line by line."""
    head = {key: value for key, value in fixture.items() if key not in ("games", "malformed")}
    lines = [json.dumps(head)[:-1] + ","]
    for key in ("games", "malformed"):
        items = [" " + json.dumps(item) for item in fixture[key]]
        lines.append(f' "{key}": [')
        lines.append(",\n".join(items))
        lines.append(" ]" + ("," if key == "games" else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=FIXTURE)
    out = parser.parse_args().output
    fixture = {
        "about": "Verdicts of the Python engine for the JS client's cross-check; "
        "written by clients/js/tools/make_crosscheck.py, checked by tests/clients/test_crosscheck_fixture.py.",
        "ruleset": scoundrel.RULESET,
        "engine": scoundrel.ENGINE_VERSION,
        "games": games(),
        "malformed": [
            {"submission": payload, "errors": json.loads(json.dumps(load_submission(payload)[1]))}
            for payload in MALFORMED
        ],
    }
    out.write_text(fixture_text(fixture))
    counts = {}
    for game in fixture["games"]:
        verdict = game["verdict"]
        key = verdict.get("outcome") or verdict["error"]["code"]
        counts[key] = counts.get(key, 0) + 1
    print(f"{out}: {len(fixture['games'])} games {counts}, {len(fixture['malformed'])} malformed submissions")


if __name__ == "__main__":
    main()
