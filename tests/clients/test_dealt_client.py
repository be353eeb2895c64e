"""The JS client against the real service: dealt games played by Node and in Chromium.

The stack (Redis, the API under gunicorn, an RQ worker) runs as processes
and lets the example page's origin in by CORS (``conftest.served_stack``,
the C# client's too). ``dealt_client.mjs`` plays
dealt games over HTTP with ``clients/js``, using only what the API shows,
and checks what a player meets: the end, the revealed seed against the
commitment and the run's verdict against a local replay, an illegal move,
a race, a retry, a forfeit, the sealed daily. The README's example
``play-dealt.mjs`` plays one in every variant, and the example page one in
headless Chromium, by clicking the legal moves it shows.

A forfeit is reached only by a dealt game, and a JS client judges one with
``Game#verdict({forfeit: true})`` when it checks the deal after the seed is
revealed: games of every variant, cut after no move, the last one and a few
in between (a finished game keeps its outcome), are judged by the JS engine
in Node and by the Python engine, and must get the same verdict (R18). (The
cross-check fixture, ``tests/data/crosscheck.json``, pins the JS engine to
the Python one for submitted runs.)
"""

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

import scoundrel
from scoundrel.strategies import play_game
from tests.support.stack import Stack

from .conftest import CLIENT, play_dealt_game

DEALT_CLIENT = Path(__file__).with_name("dealt_client.mjs")
EXAMPLE = CLIENT / "examples" / "play-dealt.mjs"


@pytest.fixture(scope="module")
def stack(served_stack) -> Stack:
    return served_stack


def node(script: Path, stack: Stack, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["node", str(script)], env={**os.environ, "SCOUNDREL_URL": stack.base, **env},
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_client_plays_dealt_games_against_the_service(stack):
    _, token = stack.register()
    _, other = stack.register()
    played = node(DEALT_CLIENT, stack, SCOUNDREL_TOKEN=token, SCOUNDREL_OTHER_TOKEN=other)
    assert played.returncode == 0, played.stdout + played.stderr
    assert played.stdout.count("ok - ") == 6, played.stdout


@pytest.mark.parametrize("variant", ["classic", "easy", "hard"])
def test_the_readme_example_plays_a_dealt_game_and_checks_the_deal(stack, variant):
    _, token = stack.register()
    played = node(EXAMPLE, stack, SCOUNDREL_TOKEN=token, VARIANT=variant)
    assert played.returncode == 0, played.stdout + played.stderr
    assert f"({variant}), commitment " in played.stdout
    assert "SHA-256 matches the commitment" in played.stdout
    assert "the deal checks out" in played.stdout


def test_the_example_page_plays_a_dealt_game_against_the_service(page, stack):
    verdict = play_dealt_game(page, stack.base, name="page-player")
    assert "The deal checks out." in verdict, verdict
    assert "SHA-256 of the seed matches" in verdict


FORFEIT_VERDICTS = Path(__file__).with_name("forfeit_verdicts.mjs")
FORFEITED = 18  # games cut short
STRATEGIES = ("random", "greedy", "search")  # the win search, so that some games are won


def forfeited_games() -> list[dict]:
    rng = random.Random("r18-crosscheck")
    games = []
    for index in range(FORFEITED):
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
