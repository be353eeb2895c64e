"""The 44 cards of ``scoundrel-1`` and what each one is (R1).

A card is named by its code: suit letter and value, ``S2``…``S14``,
``C2``…``C14``, ``D2``…``D10``, ``H2``…``H10``. The engine passes codes
around as plain strings and looks their kind and value up here, so nothing
re-parses a code while a game is played.
"""

from collections.abc import Iterable

MONSTER = "monster"
WEAPON = "weapon"
POTION = "potion"

SUIT_KIND = {"S": MONSTER, "C": MONSTER, "D": WEAPON, "H": POTION}

# Canonical order (deal-v1): spades 2–14, clubs 2–14, diamonds 2–10, hearts 2–10.
CANONICAL_ORDER: tuple[str, ...] = (
    tuple(f"S{v}" for v in range(2, 15))
    + tuple(f"C{v}" for v in range(2, 15))
    + tuple(f"D{v}" for v in range(2, 11))
    + tuple(f"H{v}" for v in range(2, 11))
)

VALUE: dict[str, int] = {card: int(card[1:]) for card in CANONICAL_ORDER}
KIND: dict[str, str] = {card: SUIT_KIND[card[0]] for card in CANONICAL_ORDER}


def monster_total(cards: Iterable[str]) -> int:
    """The summed value of the monsters among ``cards`` (R16's penalty)."""
    return sum(VALUE[c] for c in cards if KIND[c] == MONSTER)
