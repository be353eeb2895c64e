"""``scoundrel deal SEED`` prints deal-v1's dungeon, top first."""

import json
from pathlib import Path

import pytest

VECTORS = json.loads((Path(__file__).parents[1] / "data" / "deal-vectors.json").read_text())


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_deal_prints_the_vector_dungeon(scoundrel, seed):
    result = scoundrel("deal", "--", seed)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == VECTORS[seed] + "\n"


def test_deal_prints_44_codes(scoundrel):
    assert len(scoundrel("deal", "abc").stdout.split()) == 44


@pytest.mark.parametrize("seed", ["a b", "x" * 65, "é", ""])
def test_invalid_seed_is_a_clear_error_and_exit_2(scoundrel, seed):
    result = scoundrel("deal", "--", seed)
    assert result.returncode == 2
    assert result.stdout == b""
    assert "invalid seed" in result.stderr.decode()
    assert "1-64 characters" in result.stderr.decode()
