"""The deal deal-v1: every vector of tests/data/deal-vectors.json, and the seed rule."""

import hashlib
import importlib
import itertools
import json
import struct
from pathlib import Path

import pytest

import scoundrel

VECTORS = json.loads((Path(__file__).parent.parent / "data" / "deal-vectors.json").read_text())


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_deal_matches_the_vector(seed):
    assert scoundrel.deal(seed) == VECTORS[seed].split()


def test_deal_vector_abc_from_rules_md():
    assert " ".join(scoundrel.deal("abc")).startswith("S8 C5 H6 S3 C7 C10 S11 D2")
    assert scoundrel.deal("abc")[-1] == "S14"


def test_deal_seeds_are_case_sensitive():
    assert scoundrel.deal("Z") != scoundrel.deal("z")


def test_deal_is_a_fresh_list_each_time():
    first = scoundrel.deal("abc")
    first.clear()
    assert len(scoundrel.deal("abc")) == 44


@pytest.mark.parametrize("seed", ["", "a" * 65, "a b", "ä", "abc\n", "a/b", "a.b", 7, None])
def test_deal_rejects_a_seed_outside_the_pattern(seed):
    assert not scoundrel.is_valid_seed(seed)
    with pytest.raises(ValueError):
        scoundrel.deal(seed)


@pytest.mark.parametrize("seed", ["a", "a" * 64, "A_z-09", "-", "_"])
def test_deal_accepts_every_seed_in_the_pattern(seed):
    assert scoundrel.is_valid_seed(seed)
    assert sorted(scoundrel.deal(seed)) == sorted(scoundrel.CANONICAL_ORDER)


def reference_words(seed: str):
    """The word stream of deal-v1, read literally from RULES.md."""
    k = 0
    while True:
        digest = hashlib.sha256(f"scoundrel/deal/v1:{seed}:{k}".encode()).digest()
        yield from struct.unpack(">8I", digest)
        k += 1


def reference_shuffle(words) -> list[str]:
    cards = list(scoundrel.CANONICAL_ORDER)
    for i in range(43, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("seed", [f"ref-{n}" for n in range(200)] + ["a" * 64, "-", "_"])
def test_deal_agrees_with_a_literal_reading_of_deal_v1(seed):
    assert scoundrel.deal(seed) == reference_shuffle(reference_words(seed))


def test_deal_takes_the_next_word_when_uniform_rejects_one():
    # 2^32 − 1 is above floor(2^32 / 44) * 44, so the first draw must be retried.
    stream = [2**32 - 1, *itertools.islice(reference_words("abc"), 47)]
    deal_module = importlib.import_module("scoundrel.deal")
    shuffled = deal_module._shuffle_with_rejections(b"scoundrel/deal/v1:abc:", list(stream),
                                                    list(scoundrel.CANONICAL_ORDER))
    assert shuffled == reference_shuffle(iter(stream))
    assert shuffled == scoundrel.deal("abc")  # the rejected word is skipped, nothing else changes


def test_deal_hashes_further_digests_when_six_are_not_enough():
    # 45 rejected words push the draws past the 48 words of the first six digests.
    stream = [2**32 - 1] * 45 + list(itertools.islice(reference_words("abc"), 3))
    deal_module = importlib.import_module("scoundrel.deal")
    expected_stream = iter(stream + list(itertools.islice(reference_words("abc"), 48, 48 + 64)))
    shuffled = deal_module._shuffle_with_rejections(b"scoundrel/deal/v1:abc:", list(stream),
                                                    list(scoundrel.CANONICAL_ORDER))
    assert shuffled == reference_shuffle(expected_stream)
