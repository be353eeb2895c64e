"""The rulings of ``scoundrel-1``: legality in one place, then the effect.

``check`` decides whether a move is legal before anything changes and
answers with a ``Violation`` (code, ruling, message); ``apply`` changes the
state and reports the ``Effect``. Both cite the rulings of RULES.md by id.
``play_out`` is the referee's lean path through a whole move list: the same
rulings without building an ``Effect`` per move (its docstring maps each of
its branches to the rulings and the functions it stands in for).
"""

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .cards import CANONICAL_ORDER, KIND, MONSTER, VALUE
from .moves import FLEE, Drink, Equip, FightBarehanded, FightWithWeapon, Flee, Move
from .state import MAX_HEALTH, ROOM_SIZE, Effect, State

CLASSIC = "classic"
EASY = "easy"
HARD = "hard"
VARIANTS = (CLASSIC, EASY, HARD)  # R14

CARD_NOT_IN_ROOM = "card_not_in_room"
WEAPON_NOT_USABLE = "weapon_not_usable"
FLEE_NOT_ALLOWED = "flee_not_allowed"
MOVE_AFTER_GAME_OVER = "move_after_game_over"
INCOMPLETE = "incomplete"
REJECTION_CODES = (CARD_NOT_IN_ROOM, WEAPON_NOT_USABLE, FLEE_NOT_ALLOWED, MOVE_AFTER_GAME_OVER, INCOMPLETE)


@dataclass(frozen=True, slots=True)
class Violation:
    """Why a move is illegal: one of RULES.md's codes, the ruling, a sentence."""

    code: str
    ruling: str
    message: str


class IllegalMove(Exception):
    """Raised by ``apply`` for a move that ``check`` rejects."""

    def __init__(self, violation: Violation):
        super().__init__(violation.message)
        self.violation = violation


def _room_text(state: State) -> str:
    return ", ".join(state.room) if state.room else "no cards"


def _flee_violation(state: State, variant: str) -> Violation | None:
    if variant == HARD:
        return Violation(FLEE_NOT_ALLOWED, "R14", "Avoiding a room is never allowed in the hard variant (R14).")
    if state.played_in_room:
        return Violation(
            FLEE_NOT_ALLOWED, "R6", "A room can only be avoided before any of its cards is played (R6)."
        )
    if len(state.room) != ROOM_SIZE:
        return Violation(
            FLEE_NOT_ALLOWED, "R6", f"Only a room of 4 cards can be avoided; this one holds {len(state.room)} (R6)."
        )
    if variant == CLASSIC and state.avoided_last:
        return Violation(
            FLEE_NOT_ALLOWED,
            "R6",
            "The previous room was avoided, so this one must be faced: no two avoids in a row (R6).",
        )
    return None


def _weapon_reaches(state: State, value: int) -> bool:
    """Whether the equipped weapon may fight a monster of ``value``: one is equipped (R11), and it has killed
    nothing yet or its last kill was stronger (R10)."""
    return state.weapon is not None and (not state.kills or value < VALUE[state.kills[-1]])


def _weapon_violation(state: State, move: FightWithWeapon) -> Violation | None:
    if _weapon_reaches(state, move.value):
        return None
    if state.weapon is None:
        return Violation(
            WEAPON_NOT_USABLE, "R11", f"No weapon is equipped, so {move.card} can only be fought barehanded (R11)."
        )
    last_kill = state.kills[-1]
    return Violation(
        WEAPON_NOT_USABLE,
        "R10",
        f"The weapon {state.weapon} last killed {last_kill}, so it may only fight monsters weaker than "
        f"{VALUE[last_kill]}; {move.card} must be fought barehanded (R10).",
    )


def check(state: State, move: Move, variant: str = CLASSIC) -> Violation | None:
    """Why ``move`` is illegal in ``state``, or None when it is legal."""
    if state.health <= 0:
        return Violation(MOVE_AFTER_GAME_OVER, "R12", "The game was already lost; no move may follow (R12).")
    if not state.room and not state.dungeon:
        return Violation(MOVE_AFTER_GAME_OVER, "R13", "The game was already won; no move may follow (R13).")
    if type(move) is Flee:
        return _flee_violation(state, variant)
    if move.card not in state.room:
        return Violation(
            CARD_NOT_IN_ROOM, "R4", f"{move.card} is not in the room; the room holds {_room_text(state)} (R4)."
        )
    if type(move) is FightWithWeapon:
        return _weapon_violation(state, move)
    return None


def deal_room(state: State) -> tuple[str, ...]:
    """Fill the room from the top of the dungeon up to 4 cards (R4, R5) and open it (R8)."""
    room, dungeon = state.room, state.dungeon
    drawn = []
    while len(room) < ROOM_SIZE and dungeon:
        card = dungeon.popleft()
        room.append(card)
        drawn.append(card)
    state.played_in_room = 0
    state.potion_drunk = False
    return tuple(drawn)


def start(dungeon: Iterable[str]) -> State:
    """The opening position: the first room dealt from ``dungeon`` (top first)."""
    state = State(dungeon=deque(dungeon))
    deal_room(state)
    return state


def _flee(state: State) -> Effect:
    # R7: all four cards to the bottom, in room order; then a new room.
    avoided = tuple(state.room)
    state.dungeon.extend(avoided)
    state.room.clear()
    dealt = deal_room(state)
    state.avoided_last = True
    return Effect(avoided=avoided, dealt=dealt)


def _drink(state: State, move: Drink) -> Effect:
    # R15: the bonus stands only if this potion stays the last card played.
    state.bonus = move.value if state.health == MAX_HEALTH else 0
    if state.potion_drunk:
        return Effect(wasted=move.value)  # R8: a further potion in the room has no effect
    state.potion_drunk = True
    healed = min(MAX_HEALTH, state.health + move.value) - state.health
    state.health += healed
    return Effect(healed=healed, wasted=move.value - healed)


def _equip(state: State, move: Equip) -> Effect:
    # R9: always replaces the weapon, discarding it with every monster it killed.
    discarded = (state.weapon, *state.kills) if state.weapon else ()
    state.weapon = move.card
    state.kills = []
    state.bonus = 0
    return Effect(equipped=move.card, discarded=discarded)


def _fight_with_weapon(state: State, move: FightWithWeapon) -> Effect:
    # R11: the weapon absorbs its value; the monster becomes its last kill (R10).
    assert state.weapon is not None  # check() allows a weapon fight only with a weapon equipped (R11)
    damage = max(0, move.value - VALUE[state.weapon])
    state.kills.append(move.card)
    state.health -= damage
    state.bonus = 0
    return Effect(damage=damage, killed=move.card)


def _fight_barehanded(state: State, move: FightBarehanded) -> Effect:
    state.health -= move.value  # R11: the full value
    state.bonus = 0
    return Effect(damage=move.value)


_NO_KILL = 15  # above every monster (R1): a weapon without kills may fight any of them (R9)

# each function takes the move type it is keyed by
_PLAY: dict[type, Callable[[State, Any], Effect]] = {
    Drink: _drink, Equip: _equip, FightWithWeapon: _fight_with_weapon, FightBarehanded: _fight_barehanded
}


def apply(state: State, move: Move, variant: str = CLASSIC) -> Effect:
    """Apply a legal move to ``state`` in place and say what it did.

    Raises ``IllegalMove`` (and leaves the state untouched) for an illegal one.
    """
    violation = check(state, move, variant)
    if violation is not None:
        raise IllegalMove(violation)
    return apply_legal(state, move)


def apply_legal(state: State, move: Move) -> Effect:
    """``apply`` for a move ``check`` accepts in ``state`` (one of its ``legal_moves``), without checking it again:
    the players apply every legal move of every position they look at."""
    if type(move) is Flee:
        return _flee(state)
    effect = _PLAY[type(move)](state, move)
    state.room.remove(move.card)
    state.played_in_room += 1
    state.avoided_last = False  # R6: playing a card clears the no-second-avoid restriction
    if state.health <= 0:
        return effect  # R12: the game is over; no new room is dealt
    # R4: three of four played, the last card stays and a new room is filled;
    # R5: a short room is played out completely before the next one.
    if not state.room or (len(state.room) == 1 and not state.short_room):
        dealt = deal_room(state)
        if dealt:
            return effect.with_dealt(dealt)
    return effect


# A card's moves in notation: a monster's fought with the weapon and barehanded (R2), any other card's own.
_ARMED = {card: card + "w" for card in CANONICAL_ORDER if KIND[card] == MONSTER}
_BARE = {card: card + "b" for card in CANONICAL_ORDER if KIND[card] == MONSTER}


def legal_moves(state: State, variant: str = CLASSIC) -> list[str]:
    """Every legal move of ``state`` in notation, in room order, ``flee`` last.

    ``check``'s rulings, but for R4's, which a card of the room meets by being there: a move after the game's
    end (R12, R13), a weapon fight (R10, R11: ``_weapon_reaches``) and an avoid (R6, R14), each asked once.
    ``tests/engine/test_properties.py`` holds them equal to the moves ``apply`` accepts.
    """
    if state.health <= 0 or (not state.room and not state.dungeon):
        return []  # R12, R13: the game is over
    legal: list[str] = []
    for card in state.room:
        bare = _BARE.get(card)
        if bare is None:
            legal.append(card)
        else:
            if _weapon_reaches(state, VALUE[card]):
                legal.append(_ARMED[card])
            legal.append(bare)
    if _flee_violation(state, variant) is None:
        legal.append(FLEE)
    return legal


def play_out(state: State, moves: Iterable[Move], variant: str = CLASSIC) -> tuple[int, Violation] | None:
    """Apply parsed ``moves`` to ``state`` in place, in order; stop at the first illegal one.

    Returns None when every move was applied, else ``(index, violation)``
    with the state as it was before that move. The end state is the one
    ``apply`` would reach move by move: this is the same rulings for the
    untraced replay, which runs for every submission and so must not build
    an ``Effect`` or call a function per move.

    The loop only ever *accepts* a move, under conditions that imply the
    move is legal. Anything else (every illegal move, and odd hand-built
    positions) goes back to ``check``, which stays the one place that
    rejects and explains, and to ``apply``.

    It earns its second copy of the rulings (about 5x the traced path, see
    ``bench/engine.py``); ``tests/engine/test_properties.py`` holds it equal
    to ``apply`` move by move (end state and first violation) on random
    games with random edits. Which branch implements which ruling, and the
    function of ``check``/``apply`` it stands in for:

    ==========================  ==================  ============================
    branch                      rulings             stands in for
    ==========================  ==================  ============================
    game over / empty room      R12, R13            ``check`` (it rejects)
    ``FightWithWeapon``         R4, R10, R11        ``_weapon_violation``, ``_fight_with_weapon``
    ``FightBarehanded``         R4, R11             ``_fight_barehanded``
    ``Drink``                   R4, R8, R15         ``_drink``
    ``Equip``                   R4, R9              ``_equip``
    ``Flee``                    R6, R7, R14         ``_flee_violation``, ``_flee``
    ``not accepted``            all (R4-R14)        ``check`` then ``apply``
    after a played card         R4, R5, R6, R12     the tail of ``apply``, ``deal_room``
    ==========================  ==================  ============================

    ``card in room`` in every card branch is R4's "only a card of the room
    is played"; the bonus (R15) is reset by every card but a potion drunk
    at full health.
    """
    room, dungeon, kills = state.room, state.dungeon, state.kills
    health, weapon, played = state.health, state.weapon, state.played_in_room
    potion_drunk, avoided_last, bonus = state.potion_drunk, state.avoided_last, state.bonus
    strength = VALUE[weapon] if weapon else 0
    limit = VALUE[kills[-1]] if kills else _NO_KILL
    avoid_twice = variant == EASY
    may_avoid = variant != HARD
    popleft = dungeon.popleft
    move: Any  # dispatched on ``kind``, one ``type()`` a move, which mypy does not narrow through
    for index, move in enumerate(moves):
        kind = type(move)
        if health <= 0 or not room:
            accepted = False  # the game is over (R12, R13), or a position check must judge
        elif kind is FightWithWeapon:  # R10, R11
            card, value = move.card, move.value
            accepted = weapon is not None and value < limit and card in room
            if accepted:
                if value > strength:
                    health -= value - strength
                kills.append(card)
                limit = value
                bonus = 0
        elif kind is FightBarehanded:  # R11
            card = move.card
            accepted = card in room
            if accepted:
                health -= move.value
                bonus = 0
        elif kind is Drink:  # R8, R15
            card = move.card
            accepted = card in room
            if accepted:
                bonus = move.value if health == MAX_HEALTH else 0
                if not potion_drunk:
                    potion_drunk = True
                    health = min(MAX_HEALTH, health + move.value)
        elif kind is Equip:  # R9
            card = move.card
            accepted = card in room
            if accepted:
                weapon, strength, limit, bonus = card, move.value, _NO_KILL, 0
                kills = []
        else:  # Flee: R6, R7, R14
            if may_avoid and not played and len(room) == ROOM_SIZE and (avoid_twice or not avoided_last):
                dungeon.extend(room)
                room[:] = (popleft(), popleft(), popleft(), popleft())
                potion_drunk, avoided_last = False, True
                continue
            accepted = False
        if not accepted:
            state.health, state.weapon, state.kills, state.played_in_room = health, weapon, kills, played
            state.potion_drunk, state.avoided_last, state.bonus = potion_drunk, avoided_last, bonus
            violation = check(state, move, variant)
            if violation is not None:
                return index, violation
            apply(state, move, variant)
            kills, health, weapon, played = state.kills, state.health, state.weapon, state.played_in_room
            potion_drunk, avoided_last, bonus = state.potion_drunk, state.avoided_last, state.bonus
            strength = VALUE[weapon] if weapon else 0
            limit = VALUE[kills[-1]] if kills else _NO_KILL
            continue
        room.remove(card)
        played += 1
        avoided_last = False  # R6
        # R4: three of four played, the last card stays and a new room is filled;
        # R5: a short room is played out completely first (the rule of ``apply``).
        if health > 0:
            if played >= ROOM_SIZE - 1 and len(room) == 1 and len(dungeon) >= ROOM_SIZE - 1:
                room += (popleft(), popleft(), popleft())
            elif not room or (len(room) == 1 and played >= ROOM_SIZE - 1):
                while len(room) < ROOM_SIZE and dungeon:
                    room.append(popleft())
            else:
                continue
            played, potion_drunk = 0, False
    state.health, state.weapon, state.kills, state.played_in_room = health, weapon, kills, played
    state.potion_drunk, state.avoided_last, state.bonus = potion_drunk, avoided_last, bonus
    return None
