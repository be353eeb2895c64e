"""Fixtures for dealt games: a stack with a known sealed secret and a short idle time."""

import pytest

SEALED_SECRET = "test-sealed-secret"
GAME_IDLE = 3.0  # seconds: the sweeper forfeits a game left this long without a move


@pytest.fixture(scope="module")
def stack(stack_pool):
    running = stack_pool.take(env={
        "SCOUNDREL_SEALED_SECRET": SEALED_SECRET, "SCOUNDREL_GAME_IDLE": str(GAME_IDLE),
        "SCOUNDREL_SWEEP_INTERVAL": "0.3",
    })
    yield running
    stack_pool.give_back(running)
