"""Moves in the notation of RULES.md, parsed once into immutable values.

Every legal notation is known in advance (71 strings), so parsing is one
dictionary lookup and the engine never looks at a move string again.
"""

from dataclasses import dataclass
from typing import final

from .cards import CANONICAL_ORDER, KIND, MONSTER, POTION, VALUE, WEAPON

FLEE = "flee"


# Every move class is final: the engine dispatches on ``type(move) is ...``,
# exact only for a class without subclasses (and so mypy narrows on it).
@final
@dataclass(frozen=True, slots=True)
class Flee:
    """Avoid the current room (R6, R7)."""

    notation: str = FLEE


@final
@dataclass(frozen=True, slots=True)
class Drink:
    """Drink a potion from the room (R8)."""

    card: str
    value: int
    notation: str


@final
@dataclass(frozen=True, slots=True)
class Equip:
    """Equip a weapon from the room (R9)."""

    card: str
    value: int
    notation: str


@final
@dataclass(frozen=True, slots=True)
class FightWithWeapon:
    """Fight a monster from the room with the equipped weapon (R10, R11)."""

    card: str
    value: int
    notation: str


@final
@dataclass(frozen=True, slots=True)
class FightBarehanded:
    """Fight a monster from the room barehanded (R11)."""

    card: str
    value: int
    notation: str


Move = Flee | Drink | Equip | FightWithWeapon | FightBarehanded


def _notation_table() -> dict[str, Move]:
    table: dict[str, Move] = {FLEE: Flee()}
    for card in CANONICAL_ORDER:
        value = VALUE[card]
        if KIND[card] == MONSTER:
            # R2: the fight mode is always explicit.
            table[card + "w"] = FightWithWeapon(card, value, card + "w")
            table[card + "b"] = FightBarehanded(card, value, card + "b")
        elif KIND[card] == POTION:
            table[card] = Drink(card, value, card)
        elif KIND[card] == WEAPON:
            table[card] = Equip(card, value, card)
    return table


MOVES: dict[str, Move] = _notation_table()


def parse_move(notation: object) -> Move | None:
    """The move a notation names, or None when it is not in the notation (R2)."""
    if not isinstance(notation, str):
        return None
    return MOVES.get(notation)
