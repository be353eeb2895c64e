"""Par over many deals: how many can be won with perfect play, what par is, how long it takes to prove.

A script, not a test:

    .venv/bin/python bench/par.py --cpu --plot /tmp/par.png              # the issue's sizes
    .venv/bin/python bench/par.py --hard 0 --avoiding 20 --seconds 30 --progress

Seeds ``par-0``, ``par-1``, … dealt by ``deal-v1``; ``hard`` over ``--hard`` deals
and ``classic`` and ``easy`` over ``--avoiding`` deals each, every deal given
``--seconds``. A deal whose search ends in its budget has an exact par; the others
are bounded (the best line found, a proven upper bound), and the winnable fraction
is then given as an interval: a win found, below; a win not ruled out, above.
Every line is replayed through ``scoundrel.replay`` to its score. The histogram of
par (the best line's score where only bounded) is drawn with Pillow into ``--plot``, if given.
With ``--cpu`` the budget and the times are CPU seconds of the bench's process: on a
machine shared with other work, a wall-clock budget shrinks with the load.
"""

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import scoundrel  # noqa: E402  (the repository root is on sys.path only now)
from scoundrel.par import Par, par  # noqa: E402

BIN = 5  # points of par per bar of the histogram
TOP = 30  # R15: no score above 30


def solve_all(variant: str, deals: int, seconds: float, clock: Callable[[], float],
              progress: bool) -> list[tuple[Par, float]]:
    """(par, seconds taken on ``clock``) of every deal, each line replayed to its score; with ``progress``,
    a line on standard error as each deal ends."""
    solved = []
    for number in range(deals):
        seed = f"par-{number}"
        started = clock()
        found = par(seed, variant, seconds=seconds, clock=clock)
        taken = clock() - started
        verdict = scoundrel.replay(seed, list(found.line), variant)
        assert verdict.score == found.score, (seed, variant, found, verdict)
        solved.append((found, taken))
        if progress:
            print(f"{variant} {seed}: par {found.score}{'' if found.exact else f' to {found.upper}'}, "
                  f"{taken:.2f} s", file=sys.stderr, flush=True)
    return solved


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(variant: str, solved: list[tuple[Par, float]], seconds: float, cpu: bool) -> list[str]:
    """The figures of one variant, as lines of text; ``cpu``: the budget and the times in CPU seconds."""
    pars = [found for found, _ in solved]
    times = [taken for _, taken in solved]
    exact = [found for found in pars if found.exact]
    won = sum(found.score > 0 for found in pars)
    maybe = sum(found.upper > 0 for found in pars)
    count = len(pars)
    lines = [
        f"{variant}: {count} deals, budget {seconds:g} s{' of CPU' if cpu else ''} each",
        f"  exact: {len(exact)} ({100 * len(exact) / count:.1f} %)",
        f"  winnable with perfect play: {100 * won / count:.2f} % proven"
        + (f", at most {100 * maybe / count:.2f} % (wins not ruled out)" if maybe != won else " (exact)"),
        f"  solve time: p50 {1000 * percentile(times, 0.5):.0f} ms, p99 {1000 * percentile(times, 0.99):.0f} ms, "
        f"max {1000 * max(times):.0f} ms",
        f"  par (best line): mean {statistics.fmean(f.score for f in pars):.1f}, "
        f"median {statistics.median(f.score for f in pars):g}, "
        f"wins scoring 30: {sum(f.score == TOP for f in pars)}",
    ]
    if len(exact) < count:
        gaps = [found.upper - found.score for found in pars if not found.exact]
        lines.append(f"  bounded: {count - len(exact)}, gap between the bounds: median {statistics.median(gaps):g}, "
                     f"max {max(gaps)}")
    wins = [found.score for found in pars if found.score > 0]
    if wins:
        lines.append("  par of the won deals: " + ", ".join(
            f"{score}: {wins.count(score)}" for score in sorted(set(wins), reverse=True)))
    return lines


def plot(results: dict[str, list[tuple[Par, float]]], path: Path) -> None:
    """One histogram of par a variant, bars of ``BIN`` points, exact in dark and bounded in light."""
    from PIL import Image, ImageDraw

    lowest = min(found.score for solved in results.values() for found, _ in solved)
    first = (lowest // BIN) * BIN
    bins = list(range(first, TOP + 1, BIN))
    width, panel, margin = 900, 220, 50
    image = Image.new("RGB", (width, margin + panel * len(results)), "white")
    draw = ImageDraw.Draw(image)
    draw.text((margin, 10), f"par per deal, bars of {BIN} points (dark: exact, light: best line of a bounded deal)",
              fill="black")
    bar = (width - 2 * margin) / len(bins)
    for row, (variant, solved) in enumerate(results.items()):
        top = margin + row * panel
        base = top + panel - 40
        exact = [sum(1 for f, _ in solved if f.exact and start <= f.score < start + BIN) for start in bins]
        bounded = [sum(1 for f, _ in solved if not f.exact and start <= f.score < start + BIN) for start in bins]
        tallest = max(e + b for e, b in zip(exact, bounded, strict=True)) or 1
        scale = (panel - 70) / tallest
        draw.text((margin, top + 5), f"{variant}: {len(solved)} deals (tallest bar {tallest})", fill="black")
        for index, start in enumerate(bins):
            left = margin + index * bar
            dark = exact[index] * scale
            light = bounded[index] * scale
            draw.rectangle((left + 1, base - dark, left + bar - 1, base), fill=(40, 70, 140))
            if light:
                draw.rectangle((left + 1, base - dark - light, left + bar - 1, base - dark), fill=(150, 180, 230))
            if start % 20 == 0 or start == bins[-1]:
                draw.text((left, base + 4), str(start), fill="black")
        draw.line((margin, base, width - margin, base), fill="black")
    image.save(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hard", type=int, default=10_000, help="deals of hard (default 10,000)")
    parser.add_argument("--avoiding", type=int, default=200, help="deals of classic and of easy (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="budget of one deal (default 60)")
    parser.add_argument("--variants", nargs="+", choices=scoundrel.VARIANTS, default=scoundrel.VARIANTS,
                        help="only these variants (default all; one process a variant puts each on a core of its own)")
    parser.add_argument("--plot", type=Path, help="draw the histogram of par into this PNG")
    parser.add_argument("--cpu", action="store_true",
                        help="budget and times in CPU seconds of this process, not wall time: the same figures on a "
                             "machine shared with other work")
    parser.add_argument("--progress", action="store_true", help="a line on standard error as each deal ends")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    sizes = {variant: deals for variant, deals in
             {scoundrel.HARD: args.hard, scoundrel.CLASSIC: args.avoiding, scoundrel.EASY: args.avoiding}.items()
             if variant in args.variants}
    results = {}
    for variant, deals in sizes.items():
        if deals:
            results[variant] = solve_all(variant, deals, args.seconds, clock, args.progress)
            print("\n".join(report(variant, results[variant], args.seconds, args.cpu)), flush=True)
    if results and args.plot:
        plot(results, args.plot)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
