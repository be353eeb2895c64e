"""The rulings of ``scoundrel-1``: legality in one place, then the effect.

``check`` decides whether a move is legal before anything changes and
answers with a ``Violation`` (code, ruling, message); ``apply`` changes the
state and reports the ``Effect``. Both cite the rulings of RULES.md by id.
"""

from dataclasses import dataclass, replace

from .cards import VALUE
from .moves import Drink, Equip, FightBarehanded, FightWithWeapon, Flee, Move, MOVES
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


def _weapon_violation(state: State, move: FightWithWeapon) -> Violation | None:
    if state.weapon is None:
        return Violation(
            WEAPON_NOT_USABLE, "R11", f"No weapon is equipped, so {move.card} can only be fought barehanded (R11)."
        )
    last_kill = state.kills[-1] if state.kills else None
    if last_kill is not None and move.value >= VALUE[last_kill]:
        return Violation(
            WEAPON_NOT_USABLE,
            "R10",
            f"The weapon {state.weapon} last killed {last_kill}, so it may only fight monsters weaker than "
            f"{VALUE[last_kill]}; {move.card} must be fought barehanded (R10).",
        )
    return None


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


def start(dungeon) -> State:
    """The opening position: the first room dealt from ``dungeon`` (top first)."""
    state = State(dungeon=dungeon)
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
    damage = max(0, move.value - VALUE[state.weapon])
    state.kills.append(move.card)
    state.health -= damage
    state.bonus = 0
    return Effect(damage=damage, killed=move.card)


def _fight_barehanded(state: State, move: FightBarehanded) -> Effect:
    state.health -= move.value  # R11: the full value
    state.bonus = 0
    return Effect(damage=move.value)


_PLAY = {Drink: _drink, Equip: _equip, FightWithWeapon: _fight_with_weapon, FightBarehanded: _fight_barehanded}


def apply(state: State, move: Move, variant: str = CLASSIC) -> Effect:
    """Apply a legal move to ``state`` in place and say what it did.

    Raises ``IllegalMove`` (and leaves the state untouched) for an illegal one.
    """
    violation = check(state, move, variant)
    if violation is not None:
        raise IllegalMove(violation)
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
            return replace(effect, dealt=dealt)
    return effect


def legal_moves(state: State, variant: str = CLASSIC) -> list[str]:
    """Every legal move of ``state`` in notation, in room order, ``flee`` last."""
    candidates = []
    for card in state.room:
        if card[0] in "SC":
            candidates += (card + "w", card + "b")
        else:
            candidates.append(card)
    candidates.append("flee")
    return [n for n in candidates if check(state, MOVES[n], variant) is None]
