"""R18 in the JS engine gives the Python engine's verdict for every forfeit.

The cross-check fixture (``tests/data/crosscheck.json``) pins the JS engine
to the Python one for submitted runs; a forfeit is reached only by a dealt
game, and a JS client judges one with ``Game#verdict({forfeit: true})`` when
it checks the deal after the seed is revealed. Games of every variant, cut
after no move, the last one and a few in between (a finished game keeps its
outcome), are judged by both engines live and must get the same verdict.
"""

import json
import random
import subprocess
from pathlib import Path


import scoundrel
from scoundrel.strategies import play_game

# Dealt games and R18 are the fair branch's (issue 10): until it is merged there is nothing to run against.

FORFEIT_VERDICTS = Path(__file__).with_name("forfeit_verdicts.mjs")
GAMES = 18
STRATEGIES = ("random", "greedy", "search")  # the win search, so that some games are won


def forfeited_games() -> list[dict]:
    rng = random.Random("r18-crosscheck")
    games = []
    for index in range(GAMES):
        seed, variant = f"r18-{index}", scoundrel.VARIANTS[index // len(STRATEGIES) % len(scoundrel.VARIANTS)]
        moves = play_game(seed, variant, strategy=STRATEGIES[index % len(STRATEGIES)])
        cuts = sorted({0, len(moves), *rng.sample(range(len(moves) + 1), k=min(4, len(moves) + 1))})
        games += [{"seed": seed, "variant": variant, "moves": moves[:cut]} for cut in cuts]
    return games


def test_js_forfeit_verdicts_are_the_python_engines():
    games = forfeited_games()
    judged = subprocess.run(["node", str(FORFEIT_VERDICTS)], input=json.dumps(games), capture_output=True, text=True,
                            timeout=120, check=True)
    verdicts = json.loads(judged.stdout)
    outcomes = set()
    for game, verdict in zip(games, verdicts, strict=True):
        expected = scoundrel.replay(game["seed"], game["moves"], game["variant"], forfeit=True).to_dict()
        assert verdict == expected, game
        outcomes.add(expected["outcome"])
    assert outcomes == {"forfeit", "won", "lost"}
