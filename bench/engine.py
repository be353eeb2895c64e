"""How many full games the engine replays per second, on one core, deal included.

A script, not a test:

    .venv/bin/python bench/engine.py                      # this checkout
    .venv/bin/python bench/engine.py --baseline fac9dfa   # and an older engine, same run

The corpus is long legal games with distinct seeds: wins found by the
search player (some with R15's bonus when found) and games of at least 30
moves played to the end by the greedy player. Every replay deals from its seed: nothing is cached
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


LONG = 30  # moves: shorter greedy games (an early death) are left out of the corpus


def build_corpus(games: int, searched: int) -> list[tuple[str, list[str], str]]:
    """(seed, moves, variant): ``searched`` seeds tried for a win, the rest long greedy games."""
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
        seed, variant = f"bench-{number}", variants[number % 3]
        moves = strategies.play_game(seed, variant)
        if len(moves) >= LONG:
            corpus.append((seed, moves, variant))
        number += 1
    return corpus


CHUNK = 10  # games timed together; the best of the rounds counts for each chunk


def _best_time(call, items, rounds: int) -> float:
    """The summed best time of each chunk of ``items``, as timeit's minimum.

    On a shared, noisy machine a whole pass is rarely left alone; short
    chunks, each timed ``rounds`` times, give the time of one core's work.
    """
    total = 0.0
    for start in range(0, len(items), CHUNK):
        chunk = items[start : start + CHUNK]
        best = float("inf")
        for _ in range(rounds):
            started = time.perf_counter()
            call(chunk)
            best = min(best, time.perf_counter() - started)
        total += best
    return total


def replays_per_second(corpus, rounds: int) -> tuple[float, list[str]]:
    """Full-game replays per second over the corpus, and the outcome of every game."""
    replay = scoundrel.replay

    def replay_all(games):
        for seed, moves, variant in games:
            replay(seed, moves, variant)

    outcomes = [replay(seed, moves, variant).outcome for seed, moves, variant in corpus]
    return len(corpus) / _best_time(replay_all, corpus, rounds), outcomes


def deals_per_second(seeds, rounds: int) -> float:
    deal = scoundrel.deal

    def deal_all(chunk):
        for seed in chunk:
            deal(seed)

    return len(seeds) / _best_time(deal_all, seeds, rounds)


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
    parser.add_argument("--games", type=int, default=300, help="games in the corpus")
    parser.add_argument("--searched", type=int, default=60, help="seeds the search player tries to win")
    parser.add_argument("--rounds", type=int, default=15,
                        help="times each chunk of the corpus is replayed; the best counts")
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
