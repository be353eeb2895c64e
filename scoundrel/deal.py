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
_COUNTERS = tuple(str(k).encode("ascii") for k in range(_FIRST_DIGESTS))
# Fisher–Yates from i = 43 down to 1 draws uniform(n) for n = 44 … 2, one word each.
_SIZES = tuple(range(len(CANONICAL_ORDER), 1, -1))
_POSITIONS = tuple(n - 1 for n in _SIZES)
# uniform(n) accepts a word only below floor(2^32 / n) * n, so that w mod n is unbiased.
_LIMIT = {n: (2**32 // n) * n for n in _SIZES}
# Every one of those limits is at least 2^32 − 43 (2^32 mod n < n ≤ 44): words
# below it are accepted whatever n is.
_ALWAYS_ACCEPTED = min(_LIMIT.values())


SEED_RULE = "1-64 characters from A-Z a-z 0-9 _ -"  # SEED_PATTERN in words, as every error message says it
SEED_MESSAGE = f"Seed must be {SEED_RULE}."


def is_valid_seed(seed: object) -> bool:
    """True for a seed of 1–64 characters from ``A–Z a–z 0–9 _ -``."""
    return isinstance(seed, str) and SEED_PATTERN.fullmatch(seed) is not None


def deal(seed: str) -> list[str]:
    """The dungeon for ``seed``, top card (the first dealt) first.

    Raises ValueError for a seed outside the seed pattern.
    """
    if not is_valid_seed(seed):
        raise ValueError(f"invalid seed {seed!r}: {SEED_RULE}")
    prefix = b"scoundrel/deal/v1:" + seed.encode("ascii") + b":"
    words = _unpack_words(b"".join([sha256(prefix + counter).digest() for counter in _COUNTERS]))
    cards = list(CANONICAL_ORDER)
    # The common case: no word is rejected by uniform(), so word k is the
    # draw of the k-th swap, and one comparison says so for all of them.
    if max(words) < _ALWAYS_ACCEPTED:
        for i, n, word in zip(_POSITIONS, _SIZES, words):
            j = word % n
            cards[i], cards[j] = cards[j], cards[i]
        return cards
    return _shuffle_with_rejections(prefix, list(words), cards)


def _shuffle_with_rejections(prefix: bytes, words: list[int], cards: list[str]) -> list[str]:
    """Fisher–Yates word by word, taking further words (and digests) whenever uniform() rejects one."""
    next_digest = _FIRST_DIGESTS
    position = 0
    for i in _POSITIONS:
        n = i + 1
        limit = _LIMIT[n]
        while True:
            if position == len(words):
                words.extend(_unpack_digest(sha256(prefix + str(next_digest).encode("ascii")).digest()))
                next_digest += 1
            word = words[position]
            position += 1
            if word < limit:
                break
        j = word % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards
