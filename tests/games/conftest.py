"""Fixtures for dealt games: a stack with a known sealed secret and a short idle time."""

import pytest

from tests.support.stack import Stack

SEALED_SECRET = "test-sealed-secret"
GAME_IDLE = 3.0  # seconds: the sweeper forfeits a game left this long without a move


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("stack"), env={
        "SCOUNDREL_SEALED_SECRET": SEALED_SECRET, "SCOUNDREL_GAME_IDLE": str(GAME_IDLE),
        "SCOUNDREL_SWEEP_INTERVAL": "0.3",
    }).start()
    yield running
    running.stop()
