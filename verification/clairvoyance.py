"""Judging whether a dealt game's player chose as if they saw cards still face down: what a moderator should look
at, never a verdict.

A dealt game's player sees only the room (docs/fair-play.md). Information
arrives only when a room is dealt (R4, R5, R7), so a player's decisions are
the rooms: at each room's start they choose how to play it, that is which
card to leave (R4), with what health, weapon and wear (R8-R11), or to avoid
it (R6, R14). ``room_choices`` lists the distinct ways (``Choice``), read
from the engine's own ``room_plans``.

Each choice is valued two rooms deep (``choice_value``): the room played
as chosen, the next room dealt from a dungeon, that room played as well as
``scoundrel.strategies.outlook`` can tell, and ``outlook`` of what is left.
Valued on the true dungeon, the best ways are the **perfect** choices of
a player who sees the next cards (``Decision.seen_next``); averaged over
``SAMPLES`` orderings of the cards never seen (a determinised search: the
cards avoided, R7, lie at the bottom in a known order and stay where they
are), the best is what a **fair strong player** would choose
(``Decision.fair``). A room is a **telling decision** when the fair choice
is not among the perfect ones: there, only the face-down cards point at
the perfect way. A fair player takes it now and then, as their judgement
differs from the fair reference's; a player who sees the cards takes it
nearly always.

The perfect choice is the next cards', not the line of a whole-deck search
(``scoundrel.par.solve``) within a budget a worker can spend: such a line
follows the search's move ordering wherever the budget does not reach, and
that ordering sees no card face down, so a fair player who plays by it
(weapon fights first, …) would agree with the line as often as a reader of
the deck.

A game's ``Tally`` is its telling decisions ``n`` and the perfect choices
among them ``k``. Over a player's recent dealt games the tallies add up,
and ``clairvoyance_finding`` flags the player when k perfect choices in n
telling decisions are too many for fair play: the binomial tail
P(X ≥ k | n, ``FAIR_RATE``) below ``THRESHOLD``, with n at least
``MIN_TELLING``. ``FAIR_RATE`` and ``THRESHOLD`` are measured on fair and
deck-reading bots by ``bench/clairvoyance.py`` (docs/fair-play.md has the
figures).

Pure and deterministic: the orderings are drawn from a generator seeded by
the deal and the room, so a game judged twice gets the same tally.
"""

import random
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb

from scoundrel.cards import KIND, MONSTER, POTION, VALUE
from scoundrel.deal import deal
from scoundrel.moves import MOVES
from scoundrel.rules import apply, start
from scoundrel.state import MAX_HEALTH, ROOM_SIZE, State
from scoundrel.strategies import POTION_WEIGHT, WEAPON_WEIGHT, WIN, outlook, room_plans
from store.moderation import CLAIRVOYANT, Finding

SAMPLES = 16  # orderings of the unseen cards the fair reference averages over
WINDOW = 50  # a player's most recent dealt games judged together
MIN_TELLING = 20  # telling decisions the window needs before it is judged at all
FAIR_RATE = 0.35  # p0: above how often every kind of fair bot took the perfect way at a telling decision (bench)
THRESHOLD = 1e-3  # the binomial tail below which k perfect choices in n are flagged

_NO_KILL = 15  # above every monster (R1): a weapon without kills may fight any of them (R9)
_FLEE = ("flee",)


@dataclass(frozen=True)
class Tally:
    """One game's telling decisions (``n``) and the perfect choices among them (``k``)."""

    n: int
    k: int


@dataclass(frozen=True)
class Choice:
    """One way to play a room: the moves of one plan reaching it, and the table it leaves.

    ``ended`` is the game's outlook when the room ends it (R12, R13); otherwise
    the next room is filled from ``leftover`` (R4) and a dungeon.
    """

    key: tuple[object, ...]
    moves: tuple[str, ...]
    fled: bool
    leftover: tuple[str, ...]
    health: int
    strength: int  # the equipped weapon's value, 0 for none
    limit: int  # R10: only monsters below this; _NO_KILL before its first kill
    ended: float | None


def _leftover(state: State, moves: Sequence[str]) -> tuple[str, ...]:
    """The cards of the room of ``state`` that ``moves`` do not play, in room order."""
    played = {move.rstrip("wb") for move in moves}
    return tuple(card for card in state.room if card not in played)


def _key(state: State, moves: Sequence[str], after: State) -> tuple[object, ...]:
    """What decides the rest of the game once a room is played as ``moves``: avoided, or the card left and the
    health, weapon and last kill (R10); earlier kills and the order of the plays do not."""
    if moves[0] == "flee":
        return _FLEE
    return (tuple(sorted(_leftover(state, moves))), after.health, VALUE[after.weapon] if after.weapon else 0,
            VALUE[after.kills[-1]] if after.kills else _NO_KILL, outlook(after) if after.over else None)


def _dominated(choice: Choice, other: Choice) -> bool:
    """``other`` leaves the same cards and weapon with as much health and a weapon as fresh (R10), and more of
    one: whatever follows ``choice`` can follow ``other`` at least as well."""
    return (other.ended is None and choice.ended is None and not choice.fled and not other.fled
            and other.leftover == choice.leftover and other.strength == choice.strength
            and other.health >= choice.health and other.limit >= choice.limit
            and (other.health, other.limit) != (choice.health, choice.limit))


def room_choices(state: State, variant: str) -> list[Choice]:
    """The distinct ways to play the room of ``state`` (a room just dealt), in the engine's plan order.

    A way another dominates (``_dominated``) is left out: no player, seeing the deck or not, has a reason
    to take it, so it tells nothing. Of the ways that end the game only the best is kept, for the same reason.
    """
    choices: dict[tuple[object, ...], Choice] = {}
    for moves, after in room_plans(state, variant):
        key = _key(state, moves, after)
        if key not in choices:
            choices[key] = Choice(
                key=key, moves=tuple(moves), fled=key == _FLEE,
                leftover=() if key == _FLEE else _leftover(state, moves),
                health=after.health, strength=VALUE[after.weapon] if after.weapon else 0,
                limit=VALUE[after.kills[-1]] if after.kills else _NO_KILL,
                ended=outlook(after) if after.over else None)
    ended = [choice for choice in choices.values() if choice.ended is not None]
    best_end = max(ended, key=lambda choice: choice.ended or 0.0, default=None)
    return [choice for choice in choices.values()
            if (choice.ended is None or choice is best_end)
            and not any(_dominated(choice, other) for other in choices.values())]


# The places of a room (0 to 3) whose bits a set of them holds, lowest first: the room's order (``_NextRoom``).
_PLACES = [tuple(place for place in range(ROOM_SIZE) if rest >> place & 1) for rest in range(1 << ROOM_SIZE)]


class _NextRoom:
    """One room filled after a choice, played the best way ``outlook`` can tell (R8-R12, R15).

    The same value as ``outlook`` over the engine's ``room_plans`` without avoiding (a test holds them
    equal), without building a State a move: this runs some ten thousand times a game. ``pool`` is
    every card left (the room and the dungeon), summed once; positions reached by plays in another
    order are valued once, and once for every choice that leaves the same cards (``choice_value``'s ``rooms``).
    The cards of the room not played yet (``rest``) are a set of its places, as bits, which key the values
    kept of them as cheaply as a number does.
    """

    def __init__(self, leftover: tuple[str, ...], dungeon: Sequence[str]):
        """The room filled from ``leftover`` and ``dungeon`` (R4)."""
        self.room = room = (*leftover, *dungeon[:ROOM_SIZE - len(leftover)])
        self.plays = ROOM_SIZE - 1 if len(room) == ROOM_SIZE else len(room)  # R4; R5: a short room is played out
        self.full = (1 << len(room)) - 1  # every card of the room
        pool = (*leftover, *dungeon)
        self.last_room = len(pool) == len(room)  # the room played out is a win (R13)
        self.potions = sum(VALUE[card] for card in pool if KIND[card] == POTION)
        self.monsters = sorted(VALUE[card] for card in pool if KIND[card] == MONSTER)
        self.monster_total = sum(self.monsters)
        self.values = [VALUE[card] for card in room]
        self.kinds = [KIND[card] for card in room]
        # Positions with a play left, without R15's bonus: only the last card played earns it (``leaf``).
        self.known: dict[tuple[int, int, int, int, bool], float] = {}
        self.reaches: dict[tuple[int, int, int], float] = {}
        self.lefts: dict[int, float] = {}

    def reach(self, strength: int, limit: int, rest: int) -> float:
        """What a weapon of ``strength`` fighting below ``limit`` could still absorb (R10, R11), weighted: from the
        monsters left, those of the room not played (``rest``) and the dungeon's."""
        position = (strength, limit, rest)
        found = self.reaches.get(position)
        if found is None:
            reach = 0
            for value in self.monsters[:bisect_left(self.monsters, limit)]:
                reach += value if value < strength else strength
            for place in _PLACES[self.full ^ rest]:
                value = self.values[place]
                if self.kinds[place] == MONSTER and value < limit:
                    reach -= value if value < strength else strength
            found = self.reaches[position] = WEAPON_WEIGHT * reach
        return found

    def left(self, rest: int) -> float:
        """``outlook`` but for health and the weapon once the room's plays leave ``rest`` (not a win, R13)."""
        found = self.lefts.get(rest)
        if found is None:
            potions = monsters = 0
            for place in _PLACES[self.full ^ rest]:
                kind = self.kinds[place]
                if kind == POTION:
                    potions += self.values[place]
                elif kind == MONSTER:
                    monsters += self.values[place]
            found = self.lefts[rest] = POTION_WEIGHT * (self.potions - potions) - (self.monster_total - monsters)
        return found

    def leaf(self, rest: int, health: int, strength: int, limit: int, bonus: int) -> float:
        """``outlook`` once the room's plays are made, ``rest`` of its cards left."""
        if not rest and self.last_room:  # R15's bonus
            return WIN + health + bonus
        return health + self.left(rest) + (self.reach(strength, limit, rest) if strength else 0)

    def best(self, rest: int, plays: int, health: int, strength: int, limit: int, drunk: bool, bonus: int) -> float:
        """The best ``outlook`` after ``plays`` more cards of ``rest``; ``max`` spelt out."""
        if plays == 0:
            return self.leaf(rest, health, strength, limit, bonus)
        if plays == 1:
            return self.last(rest, 1, health, strength, limit, drunk, bonus)
        position = (rest, health, strength, limit, drunk)
        found = self.known.get(position)
        if found is not None:
            return found
        then = self.last if plays == 2 else self.best
        plays -= 1
        found = -2 * WIN
        values, kinds = self.values, self.kinds
        for place in _PLACES[rest]:
            after_rest = rest ^ 1 << place
            value = values[place]
            kind = kinds[place]
            if kind == MONSTER:  # R11, barehanded and, where R10 allows, with the weapon
                after = health - value
                outcome = -WIN + after if after <= 0 else then(after_rest, plays, after, strength, limit, drunk, 0)
                if outcome > found:
                    found = outcome
                if strength and value < limit:
                    after = health - (value - strength if value > strength else 0)
                    outcome = (-WIN + after if after <= 0 else
                               then(after_rest, plays, after, strength, value, drunk, 0))
                    if outcome > found:
                        found = outcome
            elif kind == POTION:  # R8, R15
                after = health if drunk else min(MAX_HEALTH, health + value)
                outcome = then(after_rest, plays, after, strength, limit, True, value if health == MAX_HEALTH else 0)
                if outcome > found:
                    found = outcome
            else:  # R9
                outcome = then(after_rest, plays, health, value, _NO_KILL, drunk, 0)
                if outcome > found:
                    found = outcome
        self.known[position] = found
        return found

    def last(self, rest: int, plays: int, health: int, strength: int, limit: int, drunk: bool, bonus: int) -> float:
        """The best ``outlook`` after the room's last play, from ``rest`` (``plays`` is 1: ``best``'s, for the one
        call of either). ``leaf`` is spelt out in the loop, reading ``left`` and ``reach`` where they are kept and
        calling them only when not (or 0.0, which they return as kept): half the positions of a game's judging are
        leaves."""
        position = (rest, health, strength, limit, drunk)
        found = self.known.get(position)
        if found is not None:
            return found
        found = -2 * WIN
        values, kinds, lefts, reaches = self.values, self.kinds, self.lefts, self.reaches
        for place in _PLACES[rest]:
            after_rest = rest ^ 1 << place
            won = not after_rest and self.last_room  # R13
            left = 0.0 if won else lefts.get(after_rest) or self.left(after_rest)
            value = values[place]
            kind = kinds[place]
            if kind == MONSTER:  # R11, barehanded and, where R10 allows, with the weapon
                after = health - value
                if after <= 0:
                    outcome = -WIN + after
                elif won:
                    outcome = WIN + after
                else:
                    outcome = after + left + ((reaches.get((strength, limit, after_rest))
                                               or self.reach(strength, limit, after_rest)) if strength else 0)
                if outcome > found:
                    found = outcome
                if strength and value < limit:
                    after = health - (value - strength if value > strength else 0)
                    if after <= 0:
                        outcome = -WIN + after
                    elif won:
                        outcome = WIN + after
                    else:
                        outcome = after + left + (reaches.get((strength, value, after_rest))
                                                  or self.reach(strength, value, after_rest))
                    if outcome > found:
                        found = outcome
            elif kind == POTION:  # R8, R15
                after = health if drunk else min(MAX_HEALTH, health + value)
                if won:
                    outcome = WIN + after + (value if health == MAX_HEALTH else 0)
                else:
                    outcome = after + left + ((reaches.get((strength, limit, after_rest))
                                               or self.reach(strength, limit, after_rest)) if strength else 0)
                if outcome > found:
                    found = outcome
            else:  # R9
                outcome = WIN + health if won else health + left + (reaches.get((value, _NO_KILL, after_rest))
                                                                        or self.reach(value, _NO_KILL, after_rest))
                if outcome > found:
                    found = outcome
        self.known[position] = found
        return found

    def value(self, health: int, strength: int, limit: int) -> float:
        """The best ``outlook`` after the room is played out (R4, R5) from this health and weapon."""
        return self.best(self.full, self.plays, health, strength, limit, False, 0)


def next_room_value(leftover: tuple[str, ...], dungeon: Sequence[str], health: int, strength: int,
                    limit: int) -> float:
    """The best ``outlook`` after the room filled from ``leftover`` and ``dungeon`` (R4), played out (R5)."""
    return _NextRoom(leftover, dungeon).value(health, strength, limit)


def choice_value(state: State, choice: Choice, dungeon: Sequence[str],
                 rooms: dict[tuple[object, ...], _NextRoom] | None = None) -> float:
    """``choice`` valued two rooms deep with ``dungeon`` (top first) as the dungeon of ``state``.

    ``rooms``: the next rooms of the choices valued before on the same ``dungeon`` (``Decision``'s values): the
    ways that leave the same cards, with other health or weapon, share the next room and many of its positions.
    """
    if choice.ended is not None:
        return choice.ended
    leftover, dealt_from = ((), (*dungeon, *state.room)) if choice.fled else (choice.leftover, dungeon)  # R7
    key = (choice.fled, leftover)
    next_room = None if rooms is None else rooms.get(key)
    if next_room is None:
        next_room = _NextRoom(leftover, dealt_from)
        if rooms is not None:
            rooms[key] = next_room
    return next_room.value(choice.health, choice.strength, choice.limit)


def room_of(state: State, line: Sequence[str], variant: str) -> tuple[str, ...]:
    """The moves of ``line`` (played from ``state``, a room just dealt) up to the room's end: a new room dealt
    (R4, R5), an avoid (R6) or the game's end (R12, R13)."""
    state = state.copy()
    played = []
    for move in line:
        apply(state, MOVES[move], variant)
        played.append(move)
        if move == "flee" or state.over or state.played_in_room == 0:
            break
    return tuple(played)


@dataclass(frozen=True)
class Decision:
    """A room just dealt, as its player saw it: the position, how many cards on top of the dungeon they never
    saw (the rest were avoided, R7, and lie below in an order they know), and the ways to play it."""

    state: State
    variant: str
    unseen: int
    choices: list[Choice]

    def orderings(self, rng: random.Random, count: int) -> list[list[str]]:
        """``count`` dungeons the player cannot tell from the true one: the unseen cards shuffled."""
        dungeon = list(self.state.dungeon)
        drawn = []
        for _ in range(count):
            unseen = dungeon[:self.unseen]
            rng.shuffle(unseen)
            drawn.append(unseen + dungeon[self.unseen:])
        return drawn

    def perfect_values(self) -> list[float]:
        """Each choice's value on the true dungeon: what a player who sees the next cards goes by."""
        dungeon = list(self.state.dungeon)
        rooms: dict[tuple[object, ...], _NextRoom] = {}
        return [choice_value(self.state, choice, dungeon, rooms) for choice in self.choices]

    def fair_values(self, rng: random.Random, samples: int = SAMPLES) -> list[float]:
        """Each choice's mean value over ``samples`` orderings (the same for every choice): a fair player's."""
        totals = [0.0] * len(self.choices)
        for dungeon in self.orderings(rng, samples):
            rooms: dict[tuple[object, ...], _NextRoom] = {}
            for number, choice in enumerate(self.choices):
                totals[number] += choice_value(self.state, choice, dungeon, rooms)
        return [total / samples for total in totals]

    def key_of(self, moves: Sequence[str]) -> tuple[object, ...]:
        """The key of the way ``moves`` (a whole room's) play the room."""
        after = self.state.copy()
        for move in moves:
            apply(after, MOVES[move], self.variant)
        return _key(self.state, moves, after)

    def seen_next(self) -> set[tuple[object, ...]]:
        """The perfect ways: the best with the next cards in view; ties all count, a reader may take either."""
        values = self.perfect_values()
        best = max(values)
        return {choice.key for choice, value in zip(self.choices, values, strict=True) if value >= best - 1e-9}

    def fair(self, rng: random.Random, samples: int = SAMPLES) -> tuple[object, ...]:
        """The key of the best way on average over ``samples`` orderings, the first on a tie: a fair player's."""
        return self.choices[fair_choice(self.fair_values(rng, samples))].key


def decision_rng(seed: str, variant: str, number: int) -> random.Random:
    """The generator of the orderings of a game's ``number``-th room: the same every time it is judged."""
    return random.Random(f"clairvoyance/{variant}/{seed}/{number}")


def fair_choice(values: list[float]) -> int:
    """The index of the best value, the first on a tie."""
    return max(range(len(values)), key=values.__getitem__)


def new_decision(state: State, seen: set[str], variant: str) -> Decision:
    """The room of ``state`` as a decision, ``seen`` being every card its player has seen face up."""
    unseen = sum(1 for card in state.dungeon if card not in seen)
    return Decision(state.copy(), variant, unseen, room_choices(state, variant))


def rooms(seed: str, moves: Sequence[str], variant: str) -> Iterator[tuple[Decision, tuple[object, ...]]]:
    """Each room of a dealt game with more than one way to play it, and the key of the way its player chose.

    A room the moves stop in (a forfeit, R18) is no decision: its choice was never made.
    """
    state = start(deal(seed))
    seen = set(state.room)
    index = 0
    while index < len(moves) and not state.over:
        decision = new_decision(state, seen, variant)
        played = room_of(state, moves[index:], variant)
        for move in played:
            apply(state, MOVES[move], variant)
        index += len(played)
        if not state.over and state.played_in_room:
            return  # the room was left unfinished
        if len(decision.choices) > 1:
            yield decision, decision.key_of(played)
        seen.update(state.room)


def game_tally(seed: str, moves: Sequence[str], variant: str, samples: int = SAMPLES) -> Tally:
    """How often the player of a dealt game chose the perfect way where a fair strong player would not."""
    telling = perfect = 0
    for number, (decision, chosen) in enumerate(rooms(seed, moves, variant)):
        best = decision.seen_next()
        if decision.fair(decision_rng(seed, variant, number), samples) not in best:
            telling += 1
            perfect += chosen in best
    return Tally(telling, perfect)


def tail(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X binomial with ``n`` trials of chance ``p``."""
    return min(1.0, sum(comb(n, x) * p**x * (1 - p) ** (n - x) for x in range(k, n + 1)))


def clairvoyance_finding(games: Sequence[tuple[str, Tally]]) -> Finding | None:
    """A ``clairvoyant`` finding for a player whose recent dealt ``games`` ((run id, tally), oldest first)
    chose the perfect way at telling decisions more often than fair play allows; None otherwise."""
    n = sum(tally.n for _, tally in games)
    k = sum(tally.k for _, tally in games)
    if n < MIN_TELLING:
        return None
    chance = tail(k, n, FAIR_RATE)
    if chance >= THRESHOLD:
        return None
    return Finding(CLAIRVOYANT, {"runs": [run_id for run_id, _ in games], "telling": n, "perfect": k,
                                 "fair_rate": FAIR_RATE, "tail": float(f"{chance:.3g}"), "threshold": THRESHOLD})
