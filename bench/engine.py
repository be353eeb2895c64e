"""How many full games the engine replays per second, on one core, deal included.

A script, not a test:

    .venv/bin/python bench/engine.py                      # this checkout
    .venv/bin/python bench/engine.py --baseline fac9dfa   # and an older engine, same run

The corpus is long legal games with distinct seeds: wins found by the
search player (some with R15's bonus when found) and games played to the end
by the greedy player. Every replay deals from its seed: nothing is cached
between replays, as the referee caches nothing between submissions. With
``--baseline`` the same corpus is replayed by the engine of an older commit
in a subprocess, so the before/after ratio is measured on one machine in one
run.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The engine under test: this checkout, or an extracted older commit (--baseline).
sys.path.insert(0, os.environ.get("SCOUNDREL_ENGINE_ROOT", str(ROOT)))

import scoundrel  # noqa: E402  (the engine's root is on sys.path only now)

TARGET = 20_000  # full-game replays per second


def build_corpus(games: int, searched: int) -> list[tuple[str, list[str], str]]:
    """(seed, moves, variant): ``searched`` seeds tried for a win, the rest played greedily."""
    from scoundrel import strategies

    corpus = []
    for number in range(searched):
        seed = f"bench-win-{number}"
        moves = strategies.find_win(seed, "classic", budget=200)
        if moves is not None:
            corpus.append((seed, moves, "classic"))
    variants = scoundrel.VARIANTS
    number = 0
    while len(corpus) < games:
        seed = f"bench-{number}"
        corpus.append((seed, strategies.play_game(seed, variants[number % 3]), variants[number % 3]))
        number += 1
    return corpus


def replays_per_second(corpus, rounds: int) -> tuple[float, list[str]]:
    """The best of ``rounds`` passes over the corpus, and the outcome of every game."""
    replay = scoundrel.replay
    best = float("inf")
    outcomes = []
    for _ in range(rounds):
        started = time.perf_counter()
        outcomes = [replay(seed, moves, variant).outcome for seed, moves, variant in corpus]
        best = min(best, time.perf_counter() - started)
    return len(corpus) / best, outcomes


def deals_per_second(seeds, rounds: int) -> float:
    deal = scoundrel.deal
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for seed in seeds:
            deal(seed)
        best = min(best, time.perf_counter() - started)
    return len(seeds) / best


def measure(corpus, rounds: int) -> dict:
    rate, outcomes = replays_per_second(corpus, rounds)
    return {
        "engine": scoundrel.ENGINE_VERSION,
        "replays_per_second": rate,
        "deals_per_second": deals_per_second([seed for seed, _, _ in corpus], rounds),
        "outcomes": outcomes,
    }


def measure_baseline(revision: str, corpus, rounds: int) -> dict:
    """The same measurement with the engine of ``revision``, in a fresh interpreter."""
    with tempfile.TemporaryDirectory(prefix="scoundrel-baseline-") as root:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "scoundrel"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
        corpus_file = Path(root) / "corpus.json"
        corpus_file.write_text(json.dumps(corpus))
        result = subprocess.run(
            [sys.executable, __file__, "--measure", str(corpus_file), "--rounds", str(rounds)],
            env={**os.environ, "SCOUNDREL_ENGINE_ROOT": root},
            check=True,
            capture_output=True,
            text=True,
        )
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games in the corpus")
    parser.add_argument("--searched", type=int, default=40, help="seeds the search player tries to win")
    parser.add_argument("--rounds", type=int, default=7, help="passes over the corpus; the best one counts")
    parser.add_argument("--baseline", metavar="REVISION", help="also measure the engine of this git revision")
    parser.add_argument("--measure", metavar="CORPUS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        corpus = [tuple(game) for game in json.loads(Path(args.measure).read_text())]
        print(json.dumps(measure(corpus, args.rounds)))
        return

    started = time.perf_counter()
    corpus = build_corpus(args.games, args.searched)
    lengths = [len(moves) for _, moves, _ in corpus]
    print(f"corpus: {len(corpus)} games, distinct seeds, built in {time.perf_counter() - started:.1f} s")
    current = measure(corpus, args.rounds)
    outcomes = current["outcomes"]
    wins = [scoundrel.replay(seed, moves, variant) for seed, moves, variant in corpus]
    bonus = sum(1 for v in wins if v.outcome == "won" and v.score > v.health)
    print(
        f"        {outcomes.count('won')} won ({bonus} with the R15 bonus), {outcomes.count('lost')} lost; "
        f"mean length {statistics.mean(lengths):.1f} moves, longest {max(lengths)}"
    )
    assert set(outcomes) <= {"won", "lost"}, "every game of the corpus must verify"
    if args.baseline:
        before = measure_baseline(args.baseline, corpus, args.rounds)
        assert before["outcomes"] == outcomes, "the baseline engine judged the corpus differently"
        print(
            f"before ({args.baseline}): {before['replays_per_second']:>9,.0f} replays/s"
            f"  ({1e6 / before['replays_per_second']:.1f} µs/game), "
            f"{before['deals_per_second']:,.0f} deals/s"
        )
    rate = current["replays_per_second"]
    print(
        f"this checkout:      {rate:>9,.0f} replays/s  ({1e6 / rate:.1f} µs/game), "
        f"{current['deals_per_second']:,.0f} deals/s"
    )
    if args.baseline:
        print(f"speed-up: {rate / before['replays_per_second']:.2f}x")
    print(f"target {TARGET:,} replays/s: {'met' if rate >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
