"""Fixtures for dealt games: a stack with a known sealed secret, and an idle time no test's pauses reach
on a loaded machine (the sweeper's idle forfeit is tested at a moved clock, and over real processes in
tests/hardening/test_observability.py)."""

import pytest

from tests.support.in_process import stack_of

SEALED_SECRET = "test-sealed-secret"
GAME_IDLE = 600.0  # seconds: the sweeper forfeits a game left this long without a move


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request, env={
        "SCOUNDREL_SEALED_SECRET": SEALED_SECRET, "SCOUNDREL_GAME_IDLE": str(GAME_IDLE),
        "SCOUNDREL_SWEEP_INTERVAL": "0.3",
    })
