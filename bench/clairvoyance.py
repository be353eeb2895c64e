"""The clairvoyance flag measured: how many fair strong bots it flags, how many deck-reading bots it catches.

A script, not a test:

    nice -n 19 .venv/bin/python bench/clairvoyance.py                    # the sizes in docs/fair-play.md
    nice -n 19 .venv/bin/python bench/clairvoyance.py --fair 8 --games 10 --readers 4 --reading-games 10

Every bot plays dealt games of ``classic`` (seeds ``cv-<kind>-<bot>-<game>``,
each a deck of its own) and each game is judged as the workers judge it
(``verification.clairvoyance.game_tallies``); after every game the bot's last
``WINDOW`` games are judged as the flag judges them (``clairvoyance_finding``),
so a bot is flagged if any of those looks would flag it.

- **Fair bots** see only what a player sees, in one of ``FAIR_STYLES`` by
  their number. Most are determinised players (``FairBot``): at each room
  one averages every way to play it over its own orderings of the unseen
  cards (its own seed, and its own number of orderings: 4, 8, 16 or 32,
  weaker and stronger than the reference's 16); some take any way within
  one point of their best, at random. Others play by rules of thumb: the
  engine's ``greedy`` player (one room ahead, no card face down counted),
  and ``first-line``, the first line ``scoundrel.par.solve`` finds, which
  follows its move ordering and sees no card face down. They play
  ``--games`` games each: the false positive rate is the share flagged. A
  second estimate draws ``SYNTHETIC`` bots of ``--games`` games from the
  games played by the fair bots of each style.
- **Deck-reading bots** see the dungeon, and play up to ``--reading-games``
  games each (stopping once flagged): the detection rate is the share
  flagged. ``peeker`` bots take the best way with the next room in view;
  ``sometimes`` bots do so at a share of the rooms (``--reading-share``)
  and play fair at the others; ``solver`` bots play the line of
  ``scoundrel.par.solve`` with the whole deck in view
  (``--solver-positions`` positions a room, not the judge's budget);
  ``planner`` bots play the winning line of a different whole-deck search
  (``scoundrel.strategies.find_win``), and fair where it finds none.

It prints the rates, how often each kind (and each fair style) took the
perfect way at its telling decisions (what ``FAIR_RATE`` must stay above),
and the cost of judging a game. Bots run on
``--processes`` processes.
"""

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoundrel.deal import deal  # noqa: E402  (the repository root is on sys.path only now)
from scoundrel.moves import MOVES  # noqa: E402
from scoundrel.par import solve  # noqa: E402
from scoundrel.rules import CLASSIC, apply, start  # noqa: E402
from scoundrel.state import State  # noqa: E402
from scoundrel.strategies import find_win, play_game  # noqa: E402
from verification.clairvoyance import (  # noqa: E402
    WINDOW,
    Decision,
    Tally,
    clairvoyance_finding,
    fair_choice,
    game_tally,
    new_decision,
    room_of,
)

Chooser = Callable[[Decision], tuple[str, ...]]
Result = tuple[str, int, int | None, list[Tally], float]  # kind, bot, flagged after, tallies, judging seconds
# A fair bot's style by its number: orderings averaged over and slack (points), or a rule of thumb.
SAMPLED_STYLES = ("4", "8", "16", "32", "4~1", "16~1", "32~1")
FAIR_STYLES = (*SAMPLED_STYLES, "greedy", "first-line")
READERS = ("peeker", "sometimes", "solver", "planner")
SYNTHETIC = 2000  # bots drawn from the fair bots' games for the second estimate of the false positive rate
PLANNER_BUDGET = 2000  # room positions ``find_win`` may expand


class FairBot:
    """A player who sees only the room: the best way to play it on average over ``samples`` orderings of the
    unseen cards, or, with ``slack``, any way within ``slack`` points of the best."""

    def __init__(self, seed: str, samples: int, slack: float):
        self.rng = random.Random(seed)
        self.samples = samples
        self.slack = slack

    def __call__(self, decision: Decision) -> tuple[str, ...]:
        values = decision.fair_values(self.rng, self.samples)
        if not self.slack:
            return decision.choices[fair_choice(values)].moves
        best = max(values)
        near = [index for index, value in enumerate(values) if value >= best - self.slack]
        return decision.choices[self.rng.choice(near)].moves


class Peeker:
    """A player who sees the next cards, at a ``share`` of the rooms, and plays like ``fair`` at the others."""

    def __init__(self, seed: str, share: float, fair: FairBot):
        self.rng = random.Random(seed)
        self.share = share
        self.fair = fair

    def __call__(self, decision: Decision) -> tuple[str, ...]:
        if self.rng.random() >= self.share:
            return self.fair(decision)
        return decision.choices[fair_choice(decision.perfect_values())].moves


class Solver:
    """A player who sees the whole deck: the room of the best line ``solve`` finds within ``positions``."""

    def __init__(self, positions: int):
        self.positions = positions

    def __call__(self, decision: Decision) -> tuple[str, ...]:
        return room_of(decision.state, solve(decision.state, CLASSIC, positions=self.positions).line, CLASSIC)


def play(seed: str, choose: Chooser) -> list[str]:
    """A whole game of ``seed`` played room by room as ``choose`` decides."""
    state: State = start(deal(seed))
    seen = set(state.room)
    moves: list[str] = []
    while not state.over:
        for move in choose(new_decision(state, seen, CLASSIC)):
            apply(state, MOVES[move], CLASSIC)
            moves.append(move)
        seen.update(state.room)
    return moves


def fair_style(number: int) -> str:
    return FAIR_STYLES[number % len(FAIR_STYLES)]


def game(kind: str, number: int, seed: str, share: float, positions: int) -> list[str]:
    """A game of ``seed`` played by bot ``number`` of ``kind`` (its style and seed follow from its number)."""
    name, style = f"{kind}-{number}", fair_style(number)
    if kind == "fair" and style == "greedy":
        return play_game(seed, CLASSIC, random.Random(f"{name}-{seed}"))
    if kind == "fair" and style == "first-line":
        return play(seed, Solver(1))
    sampled = style if kind == "fair" else SAMPLED_STYLES[number % len(SAMPLED_STYLES)]  # a reader's fair rooms
    samples, _, slack = sampled.partition("~")
    fair = FairBot(name, int(samples), float(slack or 0))
    if kind == "planner":
        return find_win(seed, CLASSIC, PLANNER_BUDGET) or play(seed, fair)
    choose: Chooser = {"fair": fair, "peeker": Peeker(name, 1.0, fair), "sometimes": Peeker(name, share, fair),
                       "solver": Solver(positions)}[kind]
    return play(seed, choose)


def run_bot(job: tuple[str, int, int, float, int]) -> Result:
    """Play and judge a bot's games: (kind, number, the game flagged at or None, tallies, judging seconds)."""
    kind, number, games, share, positions = job
    judged: list[tuple[str, Tally]] = []
    flagged_at = None
    judging = 0.0
    for played in range(games):
        seed = f"cv-{kind}-{number}-{played}"
        moves = game(kind, number, seed, share, positions)
        started = time.perf_counter()
        judged.append((seed, game_tally(seed, moves, CLASSIC)))
        judging += time.perf_counter() - started
        if flagged_at is None and clairvoyance_finding(judged[-WINDOW:]) is not None:
            flagged_at = played + 1
        if flagged_at is not None and kind != "fair":
            break  # caught: a reader's detection is within how many games
    return kind, number, flagged_at, [tallies for _, tallies in judged], judging


def first_flag(games: list[Tally]) -> int | None:
    """After how many of ``games`` (a tally a game, in order) the flag is raised, or None."""
    judged = [(str(number), tallies) for number, tallies in enumerate(games)]
    for played in range(1, len(judged) + 1):
        if clairvoyance_finding(judged[max(0, played - WINDOW):played]) is not None:
            return played
    return None


def fair_classes(fair: list[Result]) -> dict[str, list[Tally]]:
    """The fair bots' games by the bots' style (``fair_style``)."""
    classes: dict[str, list[Tally]] = {}
    for _, number, _, games, _ in fair:
        classes.setdefault(fair_style(number), []).extend(games)
    return classes


def synthetic_rate(fair: list[Result], games: int) -> str:
    """The false positive rate of ``SYNTHETIC`` bots, each ``games`` games drawn (with replacement) from the
    games of the fair bots of one style: more bots than were played, as a deal's games are independent."""
    rng = random.Random("synthetic")
    pools = list(fair_classes(fair).values())
    flagged = sum(first_flag(rng.choices(pools[number % len(pools)], k=games)) is not None
                  for number in range(SYNTHETIC))
    return f"{flagged}/{SYNTHETIC} flagged ({100 * flagged / SYNTHETIC:.2f} %) over {games} games each"


def took_rate(games: list[Tally]) -> str:
    """How often the perfect way was taken at the telling decisions of ``games``."""
    n, k = sum(tally.n for tally in games), sum(tally.k for tally in games)
    return (f"the perfect way at {k}/{n} telling decisions ({100 * k / max(1, n):.1f} %, "
            f"{n / max(1, len(games)):.1f} a game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fair", type=int, default=45, help="fair bots")
    parser.add_argument("--games", type=int, default=50, help="games each fair bot plays")
    parser.add_argument("--readers", type=int, default=20, help="bots of each deck-reading kind")
    parser.add_argument("--reading-games", type=int, default=20, help="games each deck-reading bot plays at most")
    parser.add_argument("--reading-share", type=float, default=0.5, help="rooms a 'sometimes' bot reads the deck")
    parser.add_argument("--solver-positions", type=int, default=1000, help="positions a solver bot searches a room")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    jobs = [("fair", number, args.games, 0.0, 0) for number in range(args.fair)]
    jobs += [(kind, number, args.reading_games, args.reading_share, args.solver_positions)
             for kind in READERS for number in range(args.readers)]
    started = time.perf_counter()
    with Pool(args.processes) as pool:
        results = pool.map(run_bot, jobs, chunksize=1)
    print(f"{len(jobs)} bots, {time.perf_counter() - started:.0f} s on {args.processes} processes")
    for kind in ("fair", *READERS):
        mine = [result for result in results if result[0] == kind]
        if not mine:
            continue
        flagged = [result[2] for result in mine if result[2] is not None]
        games = [tally for result in mine for tally in result[3]]
        when = f", after {statistics.median(flagged)} games (median)" if flagged else ""
        print(f"{kind:>9}: {len(flagged)}/{len(mine)} flagged ({100 * len(flagged) / len(mine):.1f} %) within "
              f"{max(len(result[3]) for result in mine)} games{when}; took {took_rate(games)}")
    fair = [result for result in results if result[0] == "fair"]
    for style, games in fair_classes(fair).items():
        print(f"  fair, {style:>10}: took {took_rate(games)}")
    if fair:
        print(f"synthetic fair bots: {synthetic_rate(fair, args.games)}")
    judging = sum(result[4] for result in results) / sum(len(result[3]) for result in results)
    print(f"judging a game: {1000 * judging:.0f} ms (mean wall time, this machine)")


if __name__ == "__main__":
    main()
