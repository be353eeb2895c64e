"""Whole numbers as the service's addresses, forms and settings spell them: the ASCII digits 0-9.

``str.isdigit`` is true of "¹" and of the digits of other scripts, which
``int`` refuses ("¹": a ValueError where a 404 or a 422 was meant) or reads
as a number no address of the service spells ("٣" as 3): a check made with
it lets them through. This one lets through exactly what is written 0-9.
"""


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is one or more of the digits 0-9 and nothing else."""
    return text.isascii() and text.isdigit()
