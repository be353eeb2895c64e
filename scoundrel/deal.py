"""The deal ``deal-v1``: a seeded SHA-256 Fisher–Yates shuffle.

The shuffle is specified word for word in RULES.md rather than left to a
runtime's RNG, so that a game client in any language deals the very dungeon
the referee replays.
"""

import re
import struct
from hashlib import sha256

from .cards import CANONICAL_ORDER

DEAL_VERSION = "deal-v1"
SEED_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")

_WORDS_PER_DIGEST = 8
# A shuffle of 44 cards takes 43 words unless uniform() rejects one, which
# happens with a probability below 1e-8 per word; six digests (48 words)
# almost always suffice, and more are hashed only when they don't.
_FIRST_DIGESTS = 6
_unpack_words = struct.Struct(">" + "I" * (_WORDS_PER_DIGEST * _FIRST_DIGESTS)).unpack
_unpack_digest = struct.Struct(">8I").unpack
# uniform(n) accepts a word only below floor(2^32 / n) * n, so that w mod n is unbiased.
_LIMIT = {n: (2**32 // n) * n for n in range(2, len(CANONICAL_ORDER) + 1)}


def is_valid_seed(seed: object) -> bool:
    """True for a seed of 1–64 characters from ``A–Z a–z 0–9 _ -``."""
    return isinstance(seed, str) and SEED_PATTERN.fullmatch(seed) is not None


def _digest(prefix: bytes, k: int) -> bytes:
    return sha256(prefix + str(k).encode("ascii")).digest()


def deal(seed: str) -> list[str]:
    """The dungeon for ``seed``, top card (the first dealt) first.

    Raises ValueError for a seed outside the seed pattern.
    """
    if not is_valid_seed(seed):
        raise ValueError(f"invalid seed {seed!r}: 1-64 characters from A-Z a-z 0-9 _ -")
    prefix = f"scoundrel/deal/v1:{seed}:".encode("ascii")
    words = list(_unpack_words(b"".join(_digest(prefix, k) for k in range(_FIRST_DIGESTS))))
    next_digest = _FIRST_DIGESTS
    cards = list(CANONICAL_ORDER)
    position = 0
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = _LIMIT[n]
        while True:
            if position == len(words):
                words.extend(_unpack_digest(_digest(prefix, next_digest)))
                next_digest += 1
            word = words[position]
            position += 1
            if word < limit:
                break
        j = word % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards
