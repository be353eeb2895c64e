"""The deal deal-v1: every vector of tests/data/deal-vectors.json, and the seed rule."""

import json
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
