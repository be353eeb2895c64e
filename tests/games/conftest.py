"""Fixtures for dealt games: a stack with a known sealed secret, and an idle time no test's pauses reach
on a loaded machine (the sweeper's idle forfeit is tested at a moved clock, and over real processes in
tests/hardening/test_observability.py)."""

import pytest

SEALED_SECRET = "test-sealed-secret"
GAME_IDLE = 600.0  # seconds: the sweeper forfeits a game left this long without a move


@pytest.fixture(scope="module")
def stack(stack_pool):
    running = stack_pool.take(env={
        "SCOUNDREL_SEALED_SECRET": SEALED_SECRET, "SCOUNDREL_GAME_IDLE": str(GAME_IDLE),
        "SCOUNDREL_SWEEP_INTERVAL": "0.3",
    })
    yield running
    stack_pool.give_back(running)
