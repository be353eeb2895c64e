"""How the referee's messages count things: ``1 move``, ``2 moves``, ``1,204 players``.

Every message, page and command line that prints a count with its noun takes
the noun's form from ``plural``, so none reads "1 moves".
"""


def plural(noun: str, count: int, plural_form: str = "") -> str:
    """``noun`` as it reads after ``count``: itself for 1, else ``plural_form`` (default: with an s)."""
    return noun if count == 1 else plural_form or noun + "s"
