"""One character per move: how dealt games and stored runs keep their moves.

A move's code is its index in the engine's table of notations (flee, then
the cards in deal-v1's canonical order, RULES.md) as a character from "0";
the whole table fits in printable ASCII. Every move a submission may hold
is in the table (``scoundrel.submission_errors`` refuses any other), so a
run's moves take one byte each instead of two to four and a separator.
"""

import scoundrel

MOVE_CODES = tuple(scoundrel.MOVES)
_CODE = {notation: chr(ord("0") + index) for index, notation in enumerate(MOVE_CODES)}
_NOTATION = {code: notation for notation, code in _CODE.items()}


def encode(moves: list[str]) -> str:
    """The moves' codes, one character each."""
    return "".join(_CODE[move] for move in moves)


def decode(codes: str) -> list[str]:
    """The moves ``encode`` coded."""
    return [_NOTATION[code] for code in codes]

