"""``scoundrel conformance``: golden cases of the ruleset, and a check of any engine against them.

A case is a seed, a variant and legal moves, with the state this engine
reaches after the deal and after every move, and the rulings it exercises
(at least one case for each of R1–R18, and one for each place other engines
were found to depart from the rules texts). The cases are generated from
this engine (``--generate``) and kept in ``conformance_cases.jsonl`` next to
this module, so a change to the engine that changes a case shows in review.

The protocol (docs/conformance.md) is JSON lines over an engine's stdin and
stdout: one request a case, ``{"case", "seed", "variant", "moves", "forfeit"}``,
one answer a case, ``{"case", "states": [...]}`` (``"forfeit_score"`` when asked,
``"illegal": {"index", "code"}`` for a move the engine refuses, code
``not_in_notation`` for a string that is no move at all). ``--serve`` is this
engine behind that protocol: the reference adapter.

Exit status: 0 when every case passes (or the cases were printed), 1 when a
case fails, 2 when the engine cannot be started or stops answering.
"""

import json
import select
import shlex
import subprocess
import sys
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import scoundrel
from scoundrel import strategies

CASES = "conformance_cases.jsonl"
ANSWER_SECONDS = 30.0  # an engine silent this long on one case is taken as stopped
NOT_IN_NOTATION = "not_in_notation"  # the protocol's code for a move outside the notation (RULES.md calls it invalid)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="print the golden cases of the ruleset, or check an engine against them",
        description=(
            "Without options, print the golden cases as JSON lines. With --engine, start COMMAND, send it each "
            "case over the JSON-lines protocol of docs/conformance.md and report each case passed or failed; "
            "exit 1 if any failed. With --serve, answer that protocol with this engine (the reference adapter)."
        ),
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--engine", metavar="COMMAND", help="the engine to check, a command line reading stdin")
    mode.add_argument("--serve", action="store_true", help="answer the protocol on stdin/stdout with this engine")
    mode.add_argument("--generate", action="store_true", help="print the cases as this engine generates them now")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.serve:
        serve(sys.stdin, sys.stdout)
        return 0
    if args.engine:
        return check_engine(args.engine, list(golden_cases()))
    for case in generate_cases() if args.generate else golden_cases():
        print(json.dumps(case))
    return 0


def golden_cases() -> Iterator[dict[str, Any]]:
    """The stored cases, in order."""
    for line in files(__package__).joinpath(CASES).read_text(encoding="utf-8").splitlines():
        yield json.loads(line)


def state_view(state: scoundrel.State, variant: str) -> dict[str, Any]:
    """What a case pins down of a position: the protocol's state object."""
    return {
        "legal": sorted(scoundrel.legal_moves(state, variant)) if not state.over else [],
        "health": state.health,
        "weapon": state.weapon,
        "last_kill": state.last_kill,
        "room": list(state.room),
        "dungeon": len(state.dungeon),
        "over": state.over,
        "score": state.score() if state.over else None,
    }


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """This engine's answer to one request of the protocol."""
    game = scoundrel.Game(request["seed"], request["variant"])
    states = [state_view(game.state, game.variant)]
    reply: dict[str, Any] = {"case": request["case"], "states": states}
    for index, notation in enumerate(request["moves"]):
        refused = _refusal(game, notation)
        if refused is not None:
            reply["illegal"] = {"index": index, "code": refused}
            return reply
        states.append(state_view(game.state, game.variant))
    if request.get("forfeit"):
        reply["forfeit_score"] = game.state.forfeit_score()
    return reply


def _refusal(game: scoundrel.Game, notation: str) -> str | None:
    """Play ``notation``; the protocol's code when the engine refuses it, None when it was played."""
    if scoundrel.parse_move(notation) is None:
        return NOT_IN_NOTATION
    try:
        game.play(notation)
    except scoundrel.IllegalMove as illegal:
        return illegal.violation.code
    return None


def serve(requests, replies) -> None:
    """Answer every request line of ``requests`` with one line on ``replies``."""
    for line in requests:
        if line.strip():
            replies.write(json.dumps(answer(json.loads(line))) + "\n")
            replies.flush()


def request_of(case: dict[str, Any]) -> dict[str, Any]:
    return {key: case[key] for key in ("case", "seed", "variant", "moves", "forfeit")}


def differences(case: dict[str, Any], reply: dict[str, Any]) -> list[str]:
    """How ``reply`` departs from ``case``, first difference first; empty when it matches."""
    found = []
    if "illegal" in reply:
        index = reply["illegal"].get("index")
        move = case["moves"][index] if isinstance(index, int) and 0 <= index < len(case["moves"]) else "?"
        found.append(f"move {index} ({move}) refused as {reply['illegal'].get('code')}; it is legal")
    states = reply.get("states")
    if not isinstance(states, list):
        return [*found, "no states in the answer"]
    for index, (expected, given) in enumerate(zip(case["states"], states, strict=False)):
        where = "after the deal" if index == 0 else f"after move {index - 1} ({case['moves'][index - 1]})"
        for field, value in expected.items():
            got = given.get(field) if isinstance(given, dict) else None
            if got != value:
                found.append(f"{where}: {field} is {json.dumps(got)}, expected {json.dumps(value)}")
        if found:
            return found
    if len(states) != len(case["states"]) and not found:
        found.append(f"{len(states)} states, expected {len(case['states'])}")
    if "forfeit_score" in case and reply.get("forfeit_score") != case["forfeit_score"]:
        found.append(f"forfeit_score is {reply.get('forfeit_score')}, expected {case['forfeit_score']}")
    return found


def check_engine(command: str, cases: list[dict[str, Any]]) -> int:
    """Drive ``command`` over every case; one line a case, exit status 1 if any failed."""
    try:
        engine = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    except OSError as error:
        print(f"scoundrel conformance: cannot start {command!r}: {error.strerror or error}", file=sys.stderr)
        return 2
    assert engine.stdin is not None and engine.stdout is not None  # both are pipes
    failed = 0
    try:
        for case in cases:
            engine.stdin.write(json.dumps(request_of(case)) + "\n")
            engine.stdin.flush()
            ready, _, _ = select.select([engine.stdout], [], [], ANSWER_SECONDS)
            line = engine.stdout.readline() if ready else ""
            if not line:
                print(f"scoundrel conformance: the engine stopped answering at case {case['case']}", file=sys.stderr)
                return 2
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                reply = {}
            problems = differences(case, reply) if isinstance(reply, dict) else ["the answer is not an object"]
            rulings = ", ".join(case["rulings"])
            if problems:
                failed += 1
                print(f"FAIL {case['case']} [{rulings}]: {problems[0]}")
            else:
                print(f"pass {case['case']} [{rulings}]")
    except BrokenPipeError:
        print("scoundrel conformance: the engine exited", file=sys.stderr)
        return 2
    finally:
        if engine.stdin and not engine.stdin.closed:
            try:
                engine.stdin.close()
            except BrokenPipeError:
                pass
        engine.wait(timeout=ANSWER_SECONDS)
    print(f"{len(cases) - failed} of {len(cases)} cases passed")
    return 1 if failed else 0


# --- generating the cases from this engine -------------------------------------------------------

Game = tuple[str, str, list[str], list[scoundrel.State]]  # seed, variant, moves, state after the deal and each move


def _played(seed: str, variant: str, moves: list[str]) -> Game:
    game = scoundrel.Game(seed, variant)
    states = [game.state.copy()]
    for notation in moves:
        game.play(notation)
        states.append(game.state.copy())
    return seed, variant, moves, states


def _games() -> Iterator[Game]:
    """Legal games to pick cases from: seeds ``conformance-0``, … of every variant, played by the
    random and greedy players, then (slower: wins, a few with R15's bonus) by the search player."""
    for number in range(60):
        for variant in scoundrel.VARIANTS:
            seed = f"conformance-{number}"
            for player in ("random", "greedy"):
                yield _played(seed, variant, strategies.play_game(seed, variant, strategy=player))
    for number in range(40):
        for variant in scoundrel.VARIANTS:
            seed = f"conformance-{number}"
            won = strategies.find_win(seed, variant, budget=120)
            if won is not None:
                yield _played(seed, variant, won)


def _steps(game: Game) -> Iterator[tuple[scoundrel.State, str, scoundrel.State]]:
    _, _, moves, states = game
    yield from zip(states, moves, states[1:], strict=False)


def _any_step(test) -> Any:
    return lambda game: any(test(before, move, after) for before, move, after in _steps(game))


def _monster(move: str) -> bool:
    return move[0] in "SC"


def _value(move: str) -> int:
    return int(move[1:].rstrip("wb"))


def _equal_to_last_kill(state: scoundrel.State) -> bool:
    last = state.last_kill
    return last is not None and any(_monster(card) and _value(card) == _value(last) for card in state.room)


def _end(game: Game) -> scoundrel.State:
    return game[3][-1]


def _won(game: Game) -> bool:
    return _end(game).won


def _lost(game: Game) -> bool:
    return _end(game).lost


# (id, rulings, what it shows, variant, which game qualifies, how many of its moves: all, or half)
_WANTED: list[tuple[str, list[str], str, str, Any, str]] = [
    ("deal-and-first-room", ["R1", "R3", "R4"], "the dungeon of deal-v1 and the first room of four", "classic",
     _won, "all"),
    ("fight-modes", ["R2", "R11"], "fights with the weapon and barehanded, each named explicitly", "classic",
     _any_step(lambda b, m, a: m.endswith("w")), "all"),
    ("potion-capped-at-20", ["R3", "R8"], "a potion heals no higher than 20", "classic",
     _any_step(lambda b, m, a: m[0] == "H" and not b.potion_drunk and 20 > b.health and b.health + _value(m) > 20),
     "all"),
    ("room-refilled", ["R4"], "three cards played, the fourth stays first and three are dealt", "hard",
     _any_step(lambda b, m, a: b.played_in_room == 2 and a.played_in_room == 0 and len(a.room) == 4 and a.health > 0),
     "all"),
    ("last-short-room", ["R5", "R13"], "the game goes on into the last room of two and ends only when it is "
     "played out (other engines end it early)", "classic", _won, "all"),
    ("avoid-then-face", ["R6", "R7"], "an avoided room goes under the dungeon; the next one must be faced",
     "classic", lambda g: _won(g) and _any_step(lambda b, m, a: m == "flee")(g), "all"),
    ("second-potion-wasted", ["R8"], "a second potion in one room is played and heals nothing", "classic",
     _any_step(lambda b, m, a: m[0] == "H" and b.potion_drunk and b.health < 20), "all"),
    ("weapon-replaced", ["R9"], "equipping discards the weapon and its kills, even a stronger one", "classic",
     _any_step(lambda b, m, a: m[0] == "D" and b.weapon is not None and bool(b.kills)), "all"),
    ("wear-strictly-less", ["R10"], "a worn weapon cannot fight a monster equal to its last kill (other engines "
     "allow it)", "classic", _any_step(lambda b, m, a: b.weapon is not None and _equal_to_last_kill(b)), "all"),
    ("weapon-absorbs", ["R11"], "the weapon takes off its value; the rest is damage", "classic",
     _any_step(lambda b, m, a: m.endswith("w") and b.weapon is not None and _value(m) > _value(b.weapon)), "all"),
    ("death-score", ["R12", "R16"], "a death scores health minus the dungeon's monsters, not the room's (other "
     "engines differ)", "classic",
     lambda g: _lost(g) and any(_monster(c) for c in _end(g).room) and any(_monster(c) for c in _end(g).dungeon),
     "all"),
    ("no-room-after-killing-blow", ["R12", "R4"], "death on a room's third card deals no new room (other "
     "engines deal one)", "classic",
     _any_step(lambda b, m, a: a.lost and b.played_in_room == 2 and len(b.room) == 2 and bool(b.dungeon)), "all"),
    ("easy-avoids-twice", ["R14", "R6", "R7"], "easy allows avoiding two rooms in a row", "easy",
     lambda g: any(m1 == m2 == "flee" for m1, m2 in zip(g[2], g[2][1:], strict=False)), "all"),
    ("hard-never-avoids", ["R14"], "hard never allows avoiding", "hard", _won, "all"),
    ("bonus-potion", ["R15"], "a win whose last card is a potion drunk at 20 adds its value", "classic",
     lambda g: _won(g) and _end(g).bonus > 0, "all"),
    ("unfinished", ["R17"], "a move list that stops before the end is not over and has no score", "classic",
     lambda g: len(g[2]) > 10, "half"),
    ("forfeit", ["R18"], "a dealt game given up scores 0 minus every monster left, room and dungeon", "classic",
     lambda g: len(g[2]) > 10, "forfeit"),
]


def generate_cases() -> list[dict[str, Any]]:
    """The golden cases: for each wanted case, the first game of ``_games`` that shows it."""
    games: list[Game] = []
    more = _games()

    def first(qualifies) -> Game:
        for game in games:
            if qualifies(game):
                return game
        for game in more:
            games.append(game)
            if qualifies(game):
                return game
        raise LookupError("no game shows a wanted case")

    cases = []
    for case, rulings, title, variant, shows, length in _WANTED:
        game = first(lambda g, variant=variant, shows=shows: g[1] == variant and shows(g))
        seed, _, moves, states = game
        if length != "all":
            moves, states = moves[: len(moves) // 2], states[: len(moves) // 2 + 1]
        entry: dict[str, Any] = {
            "case": case, "rulings": rulings, "title": title, "seed": seed, "variant": variant, "moves": moves,
            "forfeit": length == "forfeit", "states": [state_view(state, variant) for state in states],
        }
        if length == "forfeit":
            entry["forfeit_score"] = states[-1].forfeit_score()
        cases.append(entry)
    return cases
