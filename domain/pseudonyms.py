"""The pseudonyms an erased player's kept places pass to (``store.privacy.erasure``): ``deleted-<n>``; and the
name a forced rename gives when the moderator chooses none (``store.privacy.renaming``): ``player-<n>``.

A past season's frozen standings and a closed day's sealed board keep an
erased player's place, under a name no one may register: so a pseudonym
never names a player, and a place under one has no run behind it.
"""

import re

_PSEUDONYM = re.compile(r"deleted-[0-9]+")


def pseudonym(number: int) -> str:
    """The ``number``-th pseudonym given."""
    return f"deleted-{number}"


def is_pseudonym(name: str) -> bool:
    """Whether ``name``, in any case, has a pseudonym's form."""
    return _PSEUDONYM.fullmatch(name.lower()) is not None


def renamed_name(number: int) -> str:
    """The ``number``-th name a forced rename gave without a moderator's choice: a name like any other, which
    the renamed player keeps."""
    return f"player-{number}"
