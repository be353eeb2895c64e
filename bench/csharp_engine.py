"""How many full games the C# client's engine replays per second under Mono, beside the Python engine; and
``deal-v1`` dealt by both alike on random seeds.

A script, not a test:

    .venv/bin/python bench/csharp_engine.py                     # 300 games, 100,000 seeds
    .venv/bin/python bench/csharp_engine.py --games 20 --seeds 1000

The corpus is ``bench/engine.py``'s: long legal games with distinct seeds, wins found by the search player
and games of at least 30 moves played to the end by the greedy player. Both engines replay it one thread
each, deal included (every replay deals from its seed, nothing cached), timed alike: chunks of 10 games,
each the best of ``--rounds``. Every game must get the same outcome from both. Then ``--seeds`` random
seeds (1–64 characters of the seed alphabet) are dealt by both, and every dungeon must be the same.
``clients/csharp/build.sh`` builds the C# side first (``mcs``, ``mono``: Debian's mono-devel).
"""

import argparse
import json
import random
import shutil
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine import build_corpus, deals_per_second, replays_per_second

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "csharp"
BENCH = CLIENT / "build~" / "bench.exe"
TARGET = 100_000  # full-game replays per second, one core, under Mono
ALPHABET = string.ascii_letters + string.digits + "_-"

import scoundrel  # noqa: E402  (bench/engine.py put the engine's root on sys.path)


def random_seeds(count: int, rng: random.Random) -> list[str]:
    return ["".join(rng.choices(ALPHABET, k=rng.randint(1, 64))) for _ in range(count)]


def csharp_measure(corpus, rounds: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json") as corpus_file:
        json.dump(corpus, corpus_file)
        corpus_file.flush()
        measured = subprocess.run(["mono", str(BENCH), "replay", corpus_file.name, str(rounds)], check=True,
                                  capture_output=True, text=True)
    return json.loads(measured.stdout)


def csharp_deals(seeds: list[str]) -> list[list[str]]:
    dealt = subprocess.run(["mono", str(BENCH), "deal"], input="\n".join(seeds) + "\n", check=True,
                           capture_output=True, text=True)
    return [line.split(" ") for line in dealt.stdout.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games in the corpus")
    parser.add_argument("--searched", type=int, default=60, help="seeds the search player tries to win")
    parser.add_argument("--rounds", type=int, default=15,
                        help="times each chunk of the corpus is replayed; the best counts")
    parser.add_argument("--seeds", type=int, default=100_000, help="random seeds dealt by both engines")
    args = parser.parse_args()
    if shutil.which("mono") is None or shutil.which("mcs") is None:
        raise SystemExit("Mono is not installed (mcs, mono: Debian's mono-devel)")
    subprocess.run([str(CLIENT / "build.sh")], check=True)

    started = time.perf_counter()
    corpus = build_corpus(args.games, args.searched)
    lengths = [len(moves) for _, moves, _ in corpus]
    print(f"corpus: {len(corpus)} games, mean length {sum(lengths) / len(lengths):.1f} moves, "
          f"built in {time.perf_counter() - started:.1f} s")
    python_rate, outcomes = replays_per_second(corpus, args.rounds)
    python_deals = deals_per_second([seed for seed, _, _ in corpus], args.rounds)
    csharp = csharp_measure(corpus, args.rounds)
    assert csharp["outcomes"] == outcomes, "the C# engine judged the corpus differently"
    print(f"        {outcomes.count('won')} won, {outcomes.count('lost')} lost: the same outcome from both engines")
    for name, rate, deals in (("Python engine", python_rate, python_deals),
                              ("C# engine (Mono)", csharp["replays_per_second"], csharp["deals_per_second"])):
        print(f"{name + ':':<18} {rate:>9,.0f} replays/s  ({1e6 / rate:.1f} µs/game), {deals:,.0f} deals/s")
    rate = csharp["replays_per_second"]
    met = "met" if rate >= TARGET else "NOT met"
    print(f"C# / Python: {rate / python_rate:.1f}x; target {TARGET:,} replays/s: {met}")

    seeds = random_seeds(args.seeds, random.Random(49))
    started = time.perf_counter()
    dealt = csharp_deals(seeds)
    differing = [seed for seed, cards in zip(seeds, dealt, strict=True) if cards != scoundrel.deal(seed)]
    print(f"deal-v1 on {len(seeds):,} random seeds: {len(seeds) - len(differing):,} dealt alike, "
          f"{len(differing)} differ ({time.perf_counter() - started:.1f} s)")
    if differing:
        sys.exit(f"the C# deal differs from Python's, first for seed {differing[0]!r}")


if __name__ == "__main__":
    main()
