"""Players that choose legal moves: for corpora, property tests, benchmarks and fixtures.

Nothing here decides what is legal: every player asks the engine
(``legal_moves`` and ``apply``), so whatever a player produces is a legal
game by construction. Three players:

- ``random`` picks uniformly among the legal moves;
- ``greedy`` looks one room ahead: it tries every way to play the current
  room (or to avoid it) and keeps the plan whose outcome looks best;
- ``search`` runs a beam search over whole rooms to find a *win* (preferring
  the highest score, so R15's potion bonus when one is reachable) and falls
  back to ``greedy`` when the budget runs out without one.

Pure and deterministic: with the same seed, variant and ``rng`` state the
same move list comes back.
"""

import random

from .cards import KIND, MONSTER, POTION, VALUE
from .deal import deal
from .moves import MOVES
from .replay import MAX_MOVES
from .rules import CLASSIC, VARIANTS, apply, apply_legal, legal_moves, start
from .state import State

STRATEGIES = ("random", "greedy", "search")
DEFAULT_BUDGET = 400  # room positions the search may expand before it gives up
_ROUNDS = 20  # about the rooms of one game (44 cards, 3 per room, plus a few avoids)

# Weights of the position estimate ``outlook``, in health points, tuned on
# a few hundred seeds for the search's win rate: a potion still to come counts
# at face value, a weapon at a fifth of the damage it could still absorb,
# since wear limits it (R10) and a later diamond may replace it (R9).
POTION_WEIGHT = 1.0
WEAPON_WEIGHT = 0.2
WIN = 1000.0


def outlook(state: State) -> float:
    """A rough estimate of the health the game ends with; wins rank above everything.

    The cards left are read once for the monsters to pay, the potions to drink and the damage the equipped
    weapon could still absorb (R10, R11): the players value every plan of every room they look at.
    """
    if state.health <= 0:
        return -WIN + state.health
    if not state.room and not state.dungeon:
        return WIN + state.score()
    strength = VALUE[state.weapon] if state.weapon is not None else 0  # no weapon absorbs nothing
    limit = VALUE[state.kills[-1]] if state.kills else 15
    monsters = potions = reach = 0
    for cards in (state.room, state.dungeon):
        for card in cards:
            kind = KIND[card]
            if kind == MONSTER:
                value = VALUE[card]
                monsters += value
                if value < limit:
                    reach += value if value < strength else strength
            elif kind == POTION:
                potions += VALUE[card]
    return state.health + POTION_WEIGHT * potions - monsters + WEAPON_WEIGHT * reach


def _room_over(state: State) -> bool:
    """After a card move: the game ended, or a new room was dealt (R4, R5)."""
    return state.health <= 0 or state.played_in_room == 0


def room_plans(state: State, variant: str) -> list[tuple[list[str], State]]:
    """Every way to finish the current room from ``state``: (moves, resulting state).

    A plan ends when a new room is dealt, the game ends, or the room is avoided.
    """
    plans: list[tuple[list[str], State]] = []
    stack: list[tuple[State, list[str]]] = [(state, [])]
    while stack:
        current, moves = stack.pop()
        for notation in legal_moves(current, variant):
            after = current.copy()
            apply_legal(after, MOVES[notation])  # legal_moves checked it
            plan = moves + [notation]
            if notation == "flee" or _room_over(after):
                plans.append((plan, after))
            else:
                stack.append((after, plan))
    return plans


def _key(state: State) -> tuple[object, ...]:
    """What decides the rest of a game at a room's start; the kills before the last don't (R10)."""
    return (
        tuple(state.room),
        tuple(state.dungeon),
        state.health,
        state.weapon,
        state.kills[-1] if state.kills else None,
        state.avoided_last,
        state.bonus,
    )


def _best_plan(state: State, variant: str, rng: random.Random) -> list[str]:
    # Avoiding leaves the outlook unchanged, so without this the easy variant
    # (R14) could avoid forever; greedy never avoids twice in a row.
    plans = [(moves, outlook(after)) for moves, after in room_plans(state, variant)
             if not (moves == ["flee"] and state.avoided_last)]
    best = max(value for _, value in plans)
    return rng.choice([moves for moves, value in plans if value == best])


def _play_greedy(state: State, variant: str, rng: random.Random, moves: list[str]) -> list[str]:
    while not state.over:
        for notation in _best_plan(state, variant, rng):
            apply(state, MOVES[notation], variant)
            moves.append(notation)
    return moves


def _play_random(state: State, variant: str, rng: random.Random) -> list[str]:
    moves: list[str] = []
    while not state.over:
        choices = legal_moves(state, variant)
        if "flee" in choices and len(moves) + len(state.room) + len(state.dungeon) >= MAX_MOVES:
            choices.remove("flee")  # stay within the 200-move limit in the easy variant (R14)
        notation = rng.choice(choices)
        apply(state, MOVES[notation], variant)
        moves.append(notation)
    return moves


def find_win(seed: str, variant: str = CLASSIC, budget: int = DEFAULT_BUDGET) -> list[str] | None:
    """A move list that wins the game dealt from ``seed``, or None if none was found.

    A beam search over rooms: each round expands every kept position by all
    its room plans, drops duplicates and lost games, and keeps the positions
    with the best outlook. ``budget`` bounds the positions expanded (the
    beam is ``budget / 20`` wide), so a hard seed costs a bounded time. Among the wins found, the highest score is
    returned (so a win with R15's bonus is preferred).
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    width = max(1, budget // _ROUNDS)
    frontier: list[tuple[State, list[str]]] = [(start(deal(seed)), [])]
    best_win: tuple[int, list[str]] | None = None
    expanded = 0
    while frontier and expanded < budget:
        candidates = {}
        expanded += len(frontier)
        for state, moves in frontier:
            for plan, after in room_plans(state, variant):
                if after.health <= 0:
                    continue
                if after.won:
                    score = after.score()
                    if best_win is None or score > best_win[0]:
                        best_win = (score, moves + plan)
                    continue
                key = _key(after)
                if key not in candidates:
                    candidates[key] = (outlook(after), after, moves + plan)
        ranked = sorted(candidates.values(), key=lambda entry: entry[0], reverse=True)
        frontier = [(after, moves) for _, after, moves in ranked[:width]]
    return best_win[1] if best_win else None


def play_game(
    seed: str, variant: str = CLASSIC, rng: random.Random | None = None, strategy: str = "greedy"
) -> list[str]:
    """A complete legal move list (won or lost) for the game dealt from ``seed``.

    Without ``rng`` the choice is seeded from the arguments, so the same call
    always returns the same game.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; one of {', '.join(STRATEGIES)}")
    if rng is None:
        rng = random.Random(f"{seed}/{variant}/{strategy}")
    if strategy == "search":
        won = find_win(seed, variant)
        if won is not None:
            return won
    state = start(deal(seed))
    if strategy == "random":
        return _play_random(state, variant, rng)
    return _play_greedy(state, variant, rng, [])
