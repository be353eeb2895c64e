"""Par: the best score a deal allows when the whole deck is known, with a line that reaches it.

A depth-first branch and bound over positions, for every variant (R14):

- **Transpositions.** A position is keyed by what decides the rest of the
  game: the room (as a set once a card of it is played, since its order
  only matters to an avoid, R7), the dungeon (in ``hard``, where the order
  never changes, the set of cards left and the dungeon's length), health,
  the weapon's value and the value of its last kill (R10). Earlier kills,
  the weapon's suit and R15's bonus (reset by the next card) decide
  nothing, nor does a monster's suit: of the two monsters of a value in one
  room only the first is played (``plays``).
- **Bounds.** Every position gets an upper bound from a relaxation
  (``_Search.bound``): in ``hard``, potions heal their full value and every
  monster meets the strongest weapon dealt by its room; in ``classic`` and
  ``easy``, where avoiding reorders the dungeon, the order is dropped but
  weapon wear (one kill of each value a weapon, R10) and R8's one potion a
  room are kept as counts. Neither needs the order of the cards left
  (``hard``'s never changes): each is kept per set of cards. A position
  whose bound cannot beat what is searched for is cut; a searched position
  stores the bound it proved, which stays true for the rest of the search,
  and so does what it proves of the same position with less health
  (``healthiest``).
- **Searching by target** (``classic``, ``easy``). The relaxation often
  allows 30 where par is in the twenties, and a plain maximum search,
  climbing from its first lines, cuts little. So the search asks "is more
  than ``floor`` reached?", with the floor two thirds of the way from the
  best line up to the bound proved: it cuts everything bounded at the floor,
  and either finds a line above it and goes on to prove it, or lowers the
  bound proved, and asks again (``_Search.descend``). Before the first
  such question a plain search improves the first line with an eighth of
  the budget, so that a short budget still ends on a fair line; the rest
  goes to the questions, which find the good lines sooner too (asking for
  more than 29 cuts every position with no 30 left, so a 30 is found
  without climbing to it). ``easy`` starts from the line ``classic``'s search finds with an
  eighth of the budget (R14: every classic line is an easy one) and asks
  at once.
- **Move ordering.** Weapon fights first, then potions and weapons, avoids,
  and barehanded fights smallest first, so that good lines (and the cuts
  they allow) come early.
- **Avoiding twice in a row** (``easy``) only rotates room and dungeon
  together by four cards, so a run of avoids is one step among the
  rotations, and a position is keyed by its rotation class: no cycles.

Within a budget (positions searched, or seconds) the answer is exact when
the search ends with the best line at the bound proved: every position was
searched or cut by a bound no better than the line found. A search stopped
by its budget answers with the interval it proved: the best line found
below, and above the largest bound of anything left unsearched. ``hard`` always ends: its dungeon never
changes order, so it is a small dynamic programme over rooms.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from math import gcd

from .cards import CANONICAL_ORDER, KIND, MONSTER, POTION, VALUE, WEAPON
from .deal import deal
from .rules import CLASSIC, EASY, HARD, VARIANTS, start
from .state import MAX_HEALTH, ROOM_SIZE, State

_NO_KILL = 15  # above every monster (R1): a weapon without kills may fight any of them (R9)
_LOSS = -10_000  # below every score: what a position with no line at all is worth
# Of a budget, the share that finds lines before the searches by target (``solve``, ``_Search.descend``):
# enough that a short budget ends on a fair line, little enough that the searches by target, which prove
# par, have the rest. A search that wants a line at once, not a proof, gives it all (``line_share=1``).
LINE_SHARE = 1 / 8
_CLOCK_EVERY = 16  # positions between two looks at the clock: a budget ends (or a caller stops it) within milliseconds

# Cards as indexes into CANONICAL_ORDER, with their value, kind and notation looked up once.
_CARD = {card: index for index, card in enumerate(CANONICAL_ORDER)}
_VALUE = [VALUE[card] for card in CANONICAL_ORDER]
_MONSTER = [KIND[card] == MONSTER for card in CANONICAL_ORDER]
_WEAPON = [KIND[card] == WEAPON for card in CANONICAL_ORDER]
_POTION = [KIND[card] == POTION for card in CANONICAL_ORDER]
_CODE = list(CANONICAL_ORDER)
_ARMED = [code + "w" for code in _CODE]  # a monster fought with the weapon (R10) and barehanded (R11)
_BARE = [code + "b" for code in _CODE]
_WEAPONS_STRONGEST_FIRST = sorted((card for card in range(len(_CODE)) if _WEAPON[card]), key=lambda card: -_VALUE[card])
_POTIONS_STRONGEST_FIRST = sorted((card for card in range(len(_CODE)) if _POTION[card]), key=lambda card: -_VALUE[card])
# Every monster value with its two monsters (R1: a spade and a club) as a set (``_bits``).
_MONSTERS_BY_VALUE = [(value, sum(1 << card for card in range(len(_CODE)) if _MONSTER[card] and _VALUE[card] == value))
                      for value in sorted({_VALUE[card] for card in range(len(_CODE)) if _MONSTER[card]})]

# A position's relaxation without its health (``_Search.relaxation``): the health it may gain at most,
# what the monsters left in the room at a death may add to that (None: no monster left, no death),
# and for every potion that may earn R15's bonus, strongest first, its value and the health the rest
# of the game may gain at most before it is drunk last.
_Relaxed = tuple[int, int | None, tuple[tuple[int, int], ...]]


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
        seconds: float | None = None, line_share: float = LINE_SHARE,
        clock: Callable[[], float] = time.monotonic) -> Par:
    """The par of the game dealt from ``seed`` in ``variant``; its line replays from the deal.

    Without a budget the search runs until par is exact; ``positions`` and
    ``seconds`` stop it earlier with a proven interval. ``line_share`` of the
    budget finds lines before the searches by target (``LINE_SHARE``).
    ``clock`` measures ``seconds``: wall time by default, what a caller
    waiting on the answer cares about; ``time.process_time`` gives a
    benchmark the same budget on a machine shared with other work.
    Raises ValueError for an invalid seed or an unknown variant.
    """
    return solve(start(deal(seed)), variant, positions=positions, seconds=seconds, line_share=line_share,
                 clock=clock)


def solve(state: State, variant: str = CLASSIC, *, positions: int | None = None,
          seconds: float | None = None, line_share: float = LINE_SHARE,
          clock: Callable[[], float] = time.monotonic) -> Par:
    """The par of ``state`` (any position the engine can hold); its line is played from ``state``."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    if state.over:
        return Par(state.score(), True, state.score(), (), 0)
    seeded = None
    if variant == EASY:
        # R14: easy allows every classic move, so a classic line is an easy one with its score. Classic's
        # search, narrower, finds good lines sooner: a share of the budget goes to it, and its line starts
        # easy's, which then searches by target at once (``_Search.descend``).
        started = clock()
        seeded = solve(state, CLASSIC, positions=None if positions is None else int(positions * line_share),
                       seconds=None if seconds is None else seconds * line_share, line_share=line_share,
                       clock=clock)
        if seconds is not None:
            seconds -= clock() - started
    search = _Search(variant, positions, seconds, line_share, clock)
    if seeded is not None:
        search.best, search.best_line, search.expanded = seeded.score, seeded.line, seeded.positions  # one budget
    room, dungeon, weapon, limit = _held(state)

    def search_from_state() -> int:
        return search.position(room, dungeon, _bits(room + dungeon), state.health, weapon, limit,
                               state.played_in_room, state.potion_drunk, state.avoided_last)

    if search.hard:
        upper = max(search_from_state(), search.best)
    else:
        upper = search.descend(search_from_state)
    return Par(search.best, upper == search.best, upper, search.best_line, search.expanded)


def _held(state: State) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """``state``'s room, dungeon, weapon and wear as the search holds them: cards as indexes, the weapon by its
    value (0: none), and the value its next kill must be below (R10)."""
    return (tuple(_CARD[card] for card in state.room), tuple(_CARD[card] for card in state.dungeon),
            VALUE[state.weapon] if state.weapon else 0, VALUE[state.kills[-1]] if state.kills else _NO_KILL)


def _bits(cards: tuple[int, ...]) -> int:
    """``cards`` as a set: bit ``card`` set for each."""
    return sum(1 << card for card in cards)


def _rotations(queue: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Room and dungeon after 0, 1, 2, … avoids in a row (R7): each turns them by four cards."""
    size = len(queue)
    count = size // gcd(size, ROOM_SIZE)
    return [queue[shift:] + queue[:shift] for shift in (ROOM_SIZE * turn % size for turn in range(count))]


class _Search:
    """One branch and bound: the best line so far, the bounds proved, the budget."""

    def __init__(self, variant: str, positions: int | None, seconds: float | None, line_share: float = LINE_SHARE,
                 clock: Callable[[], float] = time.monotonic):
        self.hard = variant == HARD
        self.easy = variant == EASY
        self.best = _LOSS
        self.best_line: tuple[str, ...] = ()
        self.path: list[str] = []
        # Scores at or below ``floor`` need no proof that they are: a search of the positions that can
        # score above it (``descend``); the best line found raises it as it rises (a position is searched
        # when its bound beats both).
        self.floor = _LOSS
        self.proved: dict[tuple[object, ...], int] = {}
        # Position without its health → a health and an upper bound proved for it. The best win from a
        # position never falls as its health rises (the same moves stay legal, every health along them
        # is as high, R15's bonus stays), and a death scores at most 0: with no more health than that,
        # a position scores no more than the bound or 0, whichever is higher.
        self.healthiest: dict[tuple[object, ...], tuple[int, int]] = {}
        # The relaxation of the cards left (as a set: neither relaxation needs more of their order than the
        # room's size tells, ``relaxation``), the weapon, and what is played and drunk of the room.
        self.relaxed: dict[tuple[int, ...], _Relaxed] = {}
        self.monster_totals: dict[tuple[int, ...], int] = {}
        self.expanded = 0
        self.positions = positions
        self.clock = clock  # what ``seconds`` are measured on
        self.deadline = None if seconds is None else clock() + seconds
        self.line_share = line_share  # of the budget, what finds lines before the searches by target
        self.stopped = False
        self.first_line_only = False  # stop once a line is found, whatever the budget (``descend``)
        self.pause: tuple[int | None, float | None] = (None, None)  # where the current phase stops (``descend``)

    def out_of_budget(self) -> bool:
        """Whether the budget is spent; never before a first line is found, so that there is always one."""
        if self.stopped:
            return True
        if not self.best_line:
            return False
        self.stopped = self.first_line_only or self.spent(self.positions, self.deadline) or self.spent(*self.pause)
        return self.stopped

    def spent(self, positions: int | None, deadline: float | None) -> bool:
        """Whether the search has expanded ``positions`` or run past ``deadline`` (either None: no such limit)."""
        if positions is not None and self.expanded >= positions:
            return True
        return deadline is not None and self.expanded % _CLOCK_EVERY == 0 and self.clock() > deadline

    def descend(self, search: Callable[[], int]) -> int:
        """A proven upper bound on the par ``search`` finds: equal to the best line once the searches end.

        First one line, any, so that the budget may stop the search from then
        on; then, while the best line is below the bound proved, a search of
        only what could score above ``floor``: a third of the way down from
        the bound to the best line (to 0 while that is a loss and a win is not
        ruled out), as pars sit high and a search cuts more the higher its
        floor. A search that ends either finds a line above the floor, and
        then, the floor rising with it, proves the best line par; or proves
        that nothing scores above the floor: every position it cut had a
        bound no higher, so the bound proved falls to the floor or below.
        Every bound proved stays true across searches (what a search cuts
        depends on its floor, what it proves does not), so each search
        starts from what the earlier ones proved.
        """
        given = bool(self.best_line)  # a line to start from (``solve``: easy's from classic)
        self.first_line_only = True
        upper = max(search(), self.best)
        self.first_line_only = self.stopped = False
        if not given:
            # A share of the budget left goes to a plain search (the floor rising with the best line
            # only): it improves the first line step by step, where a target search that runs out of
            # budget before it reaches its floor leaves the first line as it was.
            now = self.clock()
            self.pause = (None if self.positions is None
                          else self.expanded + int((self.positions - self.expanded) * self.line_share),
                          None if self.deadline is None else now + (self.deadline - now) * self.line_share)
            upper = min(upper, max(search(), self.best))
            self.pause = (None, None)
            self.stopped = self.spent(self.positions, self.deadline)
        while self.best < upper and not self.stopped:
            lowest = max(self.best, 0) if upper > 0 else self.best
            self.floor = upper - max(1, (upper - lowest) // 3)
            upper = min(upper, max(search(), self.best))
        return upper

    def relaxation(self, room: tuple[int, ...], dungeon: tuple[int, ...], cards: int, weapon: int, limit: int,
                   played: int, drunk: bool) -> _Relaxed:
        """What ``bound`` needs of a position but its health: the relaxed gain, the death slack, the bonuses.

        ``reach`` (health plus the gain) is the most health a game can end
        with, the cap of R3 ignored; a win scores at most 20 of it, plus
        R15's bonus: a potion drunk last at 20, so one that heals nothing,
        which asks the rest of the game to reach 20 without it. A death
        scores its health (at most 0) minus the monsters still in the
        dungeon: at most ``reach`` plus what the up to three monsters left in
        the room at death would have cost (R16).

        ``cards`` is the room and the dungeon as a set (``_bits``): with the
        room's size, all that ``worn_relaxation`` needs of them, where
        ``ordered_relaxation`` reads the order, which in ``hard`` is the deal's.
        """
        if self.hard:
            return self.ordered_relaxation(room, dungeon, weapon, limit, played)
        return self.worn_relaxation(cards, len(room), weapon, limit, played, drunk)

    def ordered_relaxation(self, room: tuple[int, ...], dungeon: tuple[int, ...], weapon: int, limit: int,
                           played: int) -> _Relaxed:
        """``hard``'s relaxation: every potion heals in full, each monster meets the best weapon dealt by its room.

        Every potion heals its full value (no cap, R8's one-a-room ignored),
        and every monster is fought with the strongest weapon it could meet,
        or the equipped one if its wear allows (R10), wear otherwise ignored.
        The dungeon keeps its order, so a monster meets only the weapons
        dealt no later than its own room, but for one card of each room,
        which may be left and carried on (R4): each room's monster that
        gains most from a later weapon is granted it.
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
        costs.sort()
        gain = sum(potions) - damage
        potions.sort(reverse=True)
        return gain, sum(costs[-3:]) if costs else None, tuple((value, gain - value) for value in potions)

    def worn_relaxation(self, cards: int, size: int, weapon: int, limit: int, played: int, drunk: bool) -> _Relaxed:
        """``classic`` and ``easy``'s relaxation: any order of play, but wear and R8 kept as counts.

        Avoiding (R7) can bring any card after any other, so the order is
        dropped; two counts survive it.

        - Wear: a weapon's kills are strictly decreasing (R10), so one weapon
          kills at most one monster of each value, and the equipped one only
          those below its last kill. The two monsters of a value (R1) need two
          weapons: the damage is at least, value by value, what the strongest
          two weapons that may fight that value leave (barehanded, R11, the
          full value, when there are fewer weapons than monsters). Every
          weapon may be counted once in each value: no more is assumed.
        - Healing: only the first potion of a room heals (R8), and every room
          a card is played in plays three cards (R4) until the short room of
          R5 plays what is left, so the rooms still to heal in are a count of
          the cards left (avoided rooms play nothing and heal nothing): the
          potions heal at most the strongest that many, in full.

        The death slack: the monsters in the room at a death are not paid
        for (R16), and taking one monster away lowers its value's damage by
        at most the larger of the two costs, both when both go: the three
        largest costs.
        """
        first = second = 0  # the two strongest weapons left (0: none, barehanded)
        for card in _WEAPONS_STRONGEST_FIRST:
            if cards >> card & 1:
                if first:
                    second = _VALUE[card]
                    break
                first = _VALUE[card]
        if weapon > first:  # the two strongest once the equipped weapon may fight too
            first_worn, second_worn = weapon, first
        elif weapon > second:
            first_worn, second_worn = first, weapon
        else:
            first_worn, second_worn = first, second
        damage = 0
        costs = []
        for value, twins in _MONSTERS_BY_VALUE:
            present = cards & twins
            if present:
                blade, other = (first_worn, second_worn) if value < limit else (first, second)
                cost = value - blade if value > blade else 0
                damage += cost
                costs.append(cost)
                if present == twins:  # the second of the value meets the other weapon
                    cost = value - other if value > other else 0
                    damage += cost
                    costs.append(cost)
        costs.sort()
        potions = [_VALUE[card] for card in _POTIONS_STRONGEST_FIRST if cards >> card & 1]
        left = cards.bit_count()
        if size + played < ROOM_SIZE:  # R5: a short room is played out, then what is left dealt
            rooms = 1 + (left - size + 2) // 3
        elif played:  # this room plays 3 - played more, then a room for every three cards (R4)
            rooms = 1 + (left - (ROOM_SIZE - 1 - played) + 2) // 3
        else:
            rooms = (left + 2) // 3
        heals = rooms - 1 if drunk else rooms
        healed = sum(potions[:heals])
        # Drunk last for the bonus, a potion among the strongest ``heals`` leaves its place to the next one.
        spare = potions[heals] if heals < len(potions) else 0
        bonuses = tuple([(value, healed - (value - spare if index < heals else 0) - damage)
                         for index, value in enumerate(potions)])
        return healed - damage, sum(costs[-3:]) if costs else None, bonuses

    def bound(self, health: int, relaxed: _Relaxed) -> int:
        """An upper bound on every score reachable from a position with ``health`` and its ``relaxation``."""
        gain, slack, bonuses = relaxed
        reach = health + gain
        death = _LOSS if slack is None else min(0, reach + slack)
        if reach <= 0:
            return death
        for value, before in bonuses:  # the strongest that can still be the bonus, drunk at 20
            if health + before >= MAX_HEALTH:
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

    def position(self, room: tuple[int, ...], dungeon: tuple[int, ...], cards: int, health: int, weapon: int,
                 limit: int, played: int, drunk: bool, avoided: bool) -> int:
        """An upper bound on the best score from this position (not over); exact when nothing was cut.

        ``cards`` is the set of the room's and the dungeon's cards (``_bits``).
        """
        may_avoid = not self.hard and played == 0 and len(room) == ROOM_SIZE and (self.easy or not avoided)
        turns: list[tuple[tuple[int, ...], tuple[int, ...]]] = [(room, dungeon)]  # room and dungeon to play
        if may_avoid and self.easy:
            queues = _rotations(room + dungeon)
            turns = [(queue[:ROOM_SIZE], queue[ROOM_SIZE:]) for queue in queues]
            rest: tuple[object, ...] = (min(queues), weapon, limit)
        elif may_avoid:
            rest = (room, dungeon, weapon, limit)
        elif self.hard:  # the dungeon is the deal's last cards: the cards left and its length tell the room
            rest = (cards, len(dungeon), weapon, limit, played, drunk)
        else:
            rest = (tuple(sorted(room)), dungeon, weapon, limit, played, drunk)
        key = (rest, health)
        floor = self.best if self.best > self.floor else self.floor  # what a bound must beat to be searched
        known = self.proved.get(key)
        if known is None:
            healthier = self.healthiest.get(rest)
            if healthier is not None and healthier[0] >= health and healthier[1] <= floor:
                return healthier[1]  # dominated: see ``healthiest``
            relaxing = (cards, len(room), weapon, limit, played, drunk)
            relaxed = self.relaxed.get(relaxing)
            if relaxed is None:
                relaxed = self.relaxed[relaxing] = self.relaxation(room, dungeon, cards, weapon, limit, played,
                                                                   drunk)
            known = self.bound(health, relaxed)
        if known <= floor or self.out_of_budget():
            return known
        self.expanded += 1
        upper = _LOSS
        for turn, (turn_room, turn_dungeon) in enumerate(turns):
            if turn:
                self.path.extend(["flee"] * turn)
            upper = max(upper, self.plays(turn_room, turn_dungeon, cards, health, weapon, limit, played, drunk))
            if turn:
                del self.path[len(self.path) - turn:]
        if may_avoid and not self.easy:
            self.path.append("flee")
            avoided_queue = dungeon + room  # R7: the room goes under the dungeon in room order
            upper = max(upper, self.position(avoided_queue[:ROOM_SIZE], avoided_queue[ROOM_SIZE:], cards, health,
                                             weapon, limit, 0, False, True))
            self.path.pop()
        if upper > known:
            upper = known
        self.proved[key] = upper
        floor = self.best if self.best > self.floor else self.floor  # the best line may have risen meanwhile
        if upper <= floor:
            healthier = self.healthiest.get(rest)
            if healthier is None or healthier[0] < health or healthier[1] > floor:
                self.healthiest[rest] = (health, upper if upper > 0 else 0)
        return upper

    def plays(self, room: tuple[int, ...], dungeon: tuple[int, ...], cards: int, health: int, weapon: int,
              limit: int, played: int, drunk: bool) -> int:
        """The best bound over every card play of the room (R4), in the order good lines come first.

        Of two monsters of a value in the room (R1: a spade and a club), only
        the first is played: the rules see a monster's value alone, and both
        are in the room, so playing the other leads to the same game with the
        suits swapped.
        """
        candidates = []
        offered = 0  # the values of the room's monsters among the candidates, as bits
        for index, card in enumerate(room):
            value = _VALUE[card]
            if _MONSTER[card]:
                if offered >> value & 1:
                    continue
                offered |= 1 << value
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
                path.append(_ARMED[card] if armed else _BARE[card])
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
            upper = max(upper, self.position(rest, after_dungeon, cards ^ 1 << card, after_health, after_weapon,
                                             after_limit, after_played, after_drunk, False))
            path.pop()
        return upper
