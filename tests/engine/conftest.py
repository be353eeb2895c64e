"""Fixtures of the engine suite: finished games found by the strategies."""

import pytest

from scoundrel import strategies


@pytest.fixture(scope="session")
def won_game():
    """(seed, moves, variant) of a won classic game, found by the search player."""
    for number in range(100):
        seed = f"won-{number}"
        moves = strategies.find_win(seed, "classic")
        if moves is not None:
            return seed, moves, "classic"
    pytest.fail("the search player found no win in 100 seeds")
