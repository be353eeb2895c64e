"""The name policy: names a player may not take (``SCOUNDREL_NAME_BLOCKLIST``), at registration, at a
studio's name claim and at a moderator's forced rename.

A blocklist line is a word or a regular expression; it refuses a name it is
found in (``re.search``, case ignored) once the name is normalised: lower case,
its separators (``-``, ``_``, ``.``) dropped, and the common digit-for-letter
spellings folded back to letters (``3`` → ``e``, ``0`` → ``o``…). A ``1`` may
stand for an ``i`` or an ``l``: the name is refused if either reading is. So
``Sc0und-R3L`` is looked up as ``scoundrel``.
"""

import re
from dataclasses import dataclass

from domain.errors import NameNotAllowed

_SEPARATORS = str.maketrans("", "", "-_.")
_DIGITS = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", "$": "s"})
_ONES = ("i", "l")  # what a ``1`` may stand for


def readings(name: str) -> set[str]:
    """The name as the blocklist reads it: normalised, once per reading of its ``1``s."""
    folded = name.lower().translate(_SEPARATORS).translate(_DIGITS)
    return {folded.replace("1", one) for one in _ONES}


@dataclass(frozen=True)
class NamePolicy:
    """The blocklist's patterns, compiled once."""

    patterns: tuple[re.Pattern[str], ...] = ()

    @classmethod
    def of(cls, patterns: tuple[str, ...]) -> "NamePolicy":
        return cls(tuple(re.compile(pattern, re.IGNORECASE) for pattern in patterns))

    def allows(self, name: str) -> bool:
        """Whether ``name`` may be taken: no pattern found in any of its readings."""
        return not any(pattern.search(reading) for pattern in self.patterns for reading in readings(name))

    def check(self, name: str) -> str:
        """``name``, if it may be taken; else ``NameNotAllowed`` (422, reason name_not_allowed)."""
        if not self.allows(name):
            raise NameNotAllowed(name)
        return name
