"""Fixtures for moderation: a moderator token, games with known scores, raw Redis access."""

import subprocess
import sys

import pytest
import redis


def cli(stack, *args: str) -> subprocess.CompletedProcess:
    """``scoundrel ARGS`` against the stack's Redis."""
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=stack.env(),
                          capture_output=True, text=True, timeout=120)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def moderator(stack) -> str:
    """A moderator's token, made as an operator would: ``scoundrel moderator add``."""
    added = cli(stack, "moderator", "add", "mia")
    assert added.returncode == 0, added.stderr
    return added.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def redis_client(stack):
    client = redis.Redis.from_url(stack.redis.url, decode_responses=True)
    yield client
    client.close()


def submit_final(stack, token: str, game: dict) -> dict:
    response = stack.submit(token, game)
    assert response.status_code == 202, response.text
    return stack.wait_final(response.json()["id"])
