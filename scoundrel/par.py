"""Par: the best score a deal allows when the whole deck is known, with a line that reaches it.

A depth-first branch and bound over positions, for every variant (R14):

- **Transpositions.** A position is keyed by what decides the rest of the
  game: the room (as a set once a card of it is played, since its order
  only matters to an avoid, R7), the dungeon (in ``hard`` only its length:
  the order never changes), health, the weapon's value and the value of its
  last kill (R10). Earlier kills, the weapon's suit and R15's bonus (reset
  by the next card) decide nothing.
- **Bounds.** Every position gets an upper bound from a relaxation
  (``_Search.bound``): potions heal their full value and every monster meets
  the strongest weapon still to come, wear ignored. A position whose bound
  cannot beat the best line found is cut; a searched position stores the
  bound it proved, which stays true for the rest of the search.
- **Move ordering.** Weapon fights first, then potions and weapons, avoids,
  and barehanded fights smallest first, so that good lines (and the cuts
  they allow) come early.
- **Avoiding twice in a row** (``easy``) only rotates room and dungeon
  together by four cards, so a run of avoids is one step among the
  rotations, and a position is keyed by its rotation class: no cycles.

Within a budget (positions searched, or seconds) the answer is exact when
the search ends: every position was searched or cut by a bound no better
than the line found. A search stopped by its budget answers with the
interval it proved: the best line found below, and above the largest bound
of anything left unsearched. ``hard`` always ends: its dungeon never
changes order, so it is a small dynamic programme over rooms.
"""

import time
from dataclasses import dataclass
from math import gcd

from .cards import CANONICAL_ORDER, KIND, MONSTER, POTION, VALUE, WEAPON
from .deal import deal
from .rules import CLASSIC, EASY, HARD, VARIANTS, start
from .state import MAX_HEALTH, ROOM_SIZE, State

_NO_KILL = 15  # above every monster (R1): a weapon without kills may fight any of them (R9)
_LOSS = -10_000  # below every score: what a position with no line at all is worth
_CLOCK_EVERY = 1024  # positions between two looks at the clock

# Cards as indexes into CANONICAL_ORDER, with their value, kind and notation looked up once.
_CARD = {card: index for index, card in enumerate(CANONICAL_ORDER)}
_VALUE = [VALUE[card] for card in CANONICAL_ORDER]
_MONSTER = [KIND[card] == MONSTER for card in CANONICAL_ORDER]
_WEAPON = [KIND[card] == WEAPON for card in CANONICAL_ORDER]
_POTION = [KIND[card] == POTION for card in CANONICAL_ORDER]
_CODE = list(CANONICAL_ORDER)

# A position's relaxation without its health (``_Search.relaxation``): the health it may gain at most,
# what the monsters left in the room at a death may add to that (None: no monster left, no death),
# and the potions, strongest first.
_Relaxed = tuple[int, int | None, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Par:
    """The par of a position: exact, or the interval the search proved within its budget.

    ``score`` is what ``line`` scores (a lower bound on par, par itself when
    ``exact``); ``upper`` is a proven upper bound (equal to ``score`` when
    ``exact``). ``positions`` is how many positions the search expanded.
    """

    score: int
    exact: bool
    upper: int
    line: tuple[str, ...]
    positions: int

    def __post_init__(self) -> None:
        assert self.score <= self.upper, "a proven upper bound is never below a line's score"
        assert self.exact == (self.score == self.upper), "exact exactly when the bounds meet"


def par(seed: str, variant: str = CLASSIC, *, positions: int | None = None,
        seconds: float | None = None) -> Par:
    """The par of the game dealt from ``seed`` in ``variant``; its line replays from the deal.

    Without a budget the search runs until par is exact; ``positions`` and
    ``seconds`` stop it earlier with a proven interval. Raises ValueError
    for an invalid seed or an unknown variant.
    """
    return solve(start(deal(seed)), variant, positions=positions, seconds=seconds)


def solve(state: State, variant: str = CLASSIC, *, positions: int | None = None,
          seconds: float | None = None) -> Par:
    """The par of ``state`` (any position the engine can hold); its line is played from ``state``."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    if state.over:
        return Par(state.score(), True, state.score(), (), 0)
    search = _Search(variant, positions, seconds)
    room = tuple(_CARD[card] for card in state.room)
    dungeon = tuple(_CARD[card] for card in state.dungeon)
    weapon = VALUE[state.weapon] if state.weapon else 0
    limit = VALUE[state.kills[-1]] if state.kills else _NO_KILL
    upper = search.position(room, dungeon, state.health, weapon, limit, state.played_in_room,
                            state.potion_drunk, state.avoided_last)
    upper = max(upper, search.best)
    return Par(search.best, upper == search.best, upper, search.best_line, search.expanded)


def _rotations(queue: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Room and dungeon after 0, 1, 2, … avoids in a row (R7): each turns them by four cards."""
    size = len(queue)
    count = size // gcd(size, ROOM_SIZE)
    return [queue[shift:] + queue[:shift] for shift in (ROOM_SIZE * turn % size for turn in range(count))]


class _Search:
    """One branch and bound: the best line so far, the bounds proved, the budget."""

    def __init__(self, variant: str, positions: int | None, seconds: float | None):
        self.hard = variant == HARD
        self.easy = variant == EASY
        self.best = _LOSS
        self.best_line: tuple[str, ...] = ()
        self.path: list[str] = []
        self.proved: dict[tuple[object, ...], int] = {}
        # Position without its health → the most health it was proved no better than the best line
        # with. The best win from a position never falls as its health rises (the same moves stay
        # legal, every health along them is as high, R15's bonus stays), and a death scores at most 0:
        # once a win is found, a position with no more health than that is no better either.
        self.healthiest: dict[tuple[object, ...], int] = {}
        self.relaxed: dict[tuple[object, ...], _Relaxed] = {}
        self.monster_totals: dict[tuple[int, ...], int] = {}
        self.expanded = 0
        self.positions = positions
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.stopped = False

    def out_of_budget(self) -> bool:
        """Whether the budget is spent; never before a first line is found, so that there is always one."""
        if self.stopped:
            return True
        if not self.best_line:
            return False
        if self.positions is not None and self.expanded >= self.positions:
            self.stopped = True
        elif self.deadline is not None and self.expanded % _CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
            self.stopped = True
        return self.stopped

    def relaxation(self, room: tuple[int, ...], dungeon: tuple[int, ...], weapon: int, limit: int,
                   played: int) -> _Relaxed:
        """What ``bound`` needs of a position but its health: the relaxed gain, the death slack, the potions.

        Relaxed: every potion heals its full value (no cap, R8's one-a-room
        ignored), and every monster is fought with the strongest weapon it
        could meet, or the equipped one if its wear allows (R10), wear
        otherwise ignored. In ``hard`` the dungeon keeps its order, so a
        monster meets only the weapons dealt no later than its own room, but
        for one card of each room, which may be left and carried on (R4):
        each room's monster that gains most from a later weapon is granted it.
        ``reach`` is then the most health a game can end with (uncapped). A
        win scores at most 20, plus R15's bonus: a potion drunk last, at 20,
        so one that heals nothing. A death scores its health (at most 0)
        minus the monsters still in the dungeon: at most ``reach`` plus what
        the up to three monsters left in the room at death would have cost (R16).
        """
        potions = []
        strongest = 0
        for card in room + dungeon:
            if _POTION[card]:
                potions.append(_VALUE[card])
            elif _WEAPON[card] and _VALUE[card] > strongest:
                strongest = _VALUE[card]
        damage = 0
        costs = []
        if self.hard:
            dealt = 0  # the strongest weapon dealt by the room being costed
            # R4, R5: a short room is played out and a whole room dealt; else three cards a room
            opening = ROOM_SIZE if len(room) + played < ROOM_SIZE else ROOM_SIZE - 1
            rooms = [room, dungeon[:opening]] + [dungeon[first:first + ROOM_SIZE - 1]
                                                 for first in range(opening, len(dungeon), ROOM_SIZE - 1)]
            for chunk in rooms:
                for card in chunk:
                    if _WEAPON[card] and _VALUE[card] > dealt:
                        dealt = _VALUE[card]
                carried = 0  # the most one monster of the room saves by waiting for a later weapon
                for card in chunk:
                    if _MONSTER[card]:
                        value = _VALUE[card]
                        blade = weapon if value < limit and weapon > dealt else dealt
                        cost = value - blade if value > blade else 0
                        later = weapon if value < limit and weapon > strongest else strongest
                        saving = cost - (value - later if value > later else 0)
                        if saving > carried:
                            carried = saving
                        damage += cost
                        costs.append(cost)
                damage -= carried
        else:
            for card in room + dungeon:
                if _MONSTER[card]:
                    value = _VALUE[card]
                    blade = weapon if value < limit and weapon > strongest else strongest
                    cost = value - blade if value > blade else 0
                    damage += cost
                    costs.append(cost)
        costs.sort()
        return sum(potions) - damage, sum(costs[-3:]) if costs else None, tuple(sorted(potions, reverse=True))

    def bound(self, health: int, relaxed: _Relaxed) -> int:
        """An upper bound on every score reachable from a position with ``health`` and its ``relaxation``."""
        gain, slack, potions = relaxed
        reach = health + gain
        death = _LOSS if slack is None else min(0, reach + slack)
        if reach <= 0:
            return death
        for value in potions:  # the strongest that can still be the bonus, drunk at 20
            if reach - value >= MAX_HEALTH:
                return max(MAX_HEALTH + value, death)
        return max(min(MAX_HEALTH, reach), death)

    def lurking(self, dungeon: tuple[int, ...]) -> int:
        """The monsters of ``dungeon``, summed (R16's penalty), each dungeon summed once."""
        total = self.monster_totals.get(dungeon)
        if total is None:
            total = self.monster_totals[dungeon] = sum(_VALUE[card] for card in dungeon if _MONSTER[card])
        return total

    def finish(self, score: int) -> int:
        """A finished game at the end of ``path``: the best line, if it beats it."""
        if score > self.best:
            self.best = score
            self.best_line = tuple(self.path)
        return score

    def position(self, room: tuple[int, ...], dungeon: tuple[int, ...], health: int, weapon: int,
                 limit: int, played: int, drunk: bool, avoided: bool) -> int:
        """An upper bound on the best score from this position (not over); exact when nothing was cut."""
        may_avoid = not self.hard and played == 0 and len(room) == ROOM_SIZE and (self.easy or not avoided)
        if may_avoid and self.easy:
            turns = _rotations(room + dungeon)
            rest: tuple[object, ...] = (min(turns), weapon, limit)
        elif may_avoid:
            turns = [room + dungeon]
            rest = (room, dungeon, weapon, limit)
        else:
            turns = [room + dungeon]
            rest = (tuple(sorted(room)), len(dungeon) if self.hard else dungeon, weapon, limit, played, drunk)
        key = (rest, health)
        known = self.proved.get(key)
        if known is None:
            if self.best > 0 and self.healthiest.get(rest, 0) >= health:
                return self.best  # dominated: see ``healthiest``
            relaxed = self.relaxed.get(rest)
            if relaxed is None:
                relaxed = self.relaxed[rest] = self.relaxation(room, dungeon, weapon, limit, played)
            known = self.bound(health, relaxed)
        if known <= self.best or self.out_of_budget():
            return known
        self.expanded += 1
        upper = _LOSS
        for turn, queue in enumerate(turns):
            self.path.extend(["flee"] * turn)
            turn_room, turn_dungeon = queue[: len(room)], queue[len(room):]
            upper = max(upper, self.plays(turn_room, turn_dungeon, health, weapon, limit, played, drunk))
            del self.path[len(self.path) - turn:]
        if may_avoid and not self.easy:
            self.path.append("flee")
            avoided_queue = dungeon + room  # R7: the room goes under the dungeon in room order
            upper = max(upper, self.position(avoided_queue[:ROOM_SIZE], avoided_queue[ROOM_SIZE:], health, weapon,
                                             limit, 0, False, True))
            self.path.pop()
        upper = min(upper, known)
        self.proved[key] = upper
        if upper <= self.best and self.healthiest.get(rest, 0) < health:
            self.healthiest[rest] = health
        return upper

    def plays(self, room: tuple[int, ...], dungeon: tuple[int, ...], health: int, weapon: int, limit: int,
              played: int, drunk: bool) -> int:
        """The best bound over every card play of the room (R4), in the order good lines come first."""
        candidates = []
        for index, card in enumerate(room):
            value = _VALUE[card]
            if _MONSTER[card]:
                if weapon and value < limit:  # R10
                    candidates.append((-min(value, weapon) - 20, index, True))
                candidates.append((value, index, False))
            elif _POTION[card]:
                candidates.append((-value if not drunk else 0, index, False))
            else:
                candidates.append((-value, index, False))
        candidates.sort()
        upper = _LOSS
        path = self.path
        for _, index, armed in candidates:
            card = room[index]
            value = _VALUE[card]
            rest = room[:index] + room[index + 1:]
            after_health, after_weapon, after_limit, after_drunk, bonus = health, weapon, limit, drunk, 0
            if _MONSTER[card]:
                if armed:  # R10, R11
                    after_health -= value - weapon if value > weapon else 0
                    after_limit = value
                else:
                    after_health -= value
                path.append(_CODE[card] + ("w" if armed else "b"))
                if after_health <= 0:  # R12; R16: the dungeon's monsters count, the room's do not
                    upper = max(upper, self.finish(after_health - self.lurking(dungeon)))
                    path.pop()
                    continue
            elif _WEAPON[card]:  # R9
                after_weapon, after_limit = value, _NO_KILL
                path.append(_CODE[card])
            else:  # R8, R15
                bonus = value if health == MAX_HEALTH else 0
                if not drunk:
                    after_health = min(MAX_HEALTH, health + value)
                    after_drunk = True
                path.append(_CODE[card])
            after_played = played + 1
            after_dungeon = dungeon
            # R4: three of four played, the last card stays and a new room is filled; R5: a short room first
            if not rest or (len(rest) == 1 and len(rest) + after_played >= ROOM_SIZE):
                drawn = ROOM_SIZE - len(rest)
                rest, after_dungeon = rest + dungeon[:drawn], dungeon[drawn:]
                after_played, after_drunk = 0, False
                if not rest:  # R13, R15
                    upper = max(upper, self.finish(after_health + bonus))
                    path.pop()
                    continue
            upper = max(upper, self.position(rest, after_dungeon, after_health, after_weapon, after_limit,
                                             after_played, after_drunk, False))
            path.pop()
        return upper
