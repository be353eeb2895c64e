"""Fixtures for moderation: a moderator token, games with known scores, raw Redis access."""

import subprocess

import pytest

from tests.support.commands import run_command


def cli(stack, *args: str) -> subprocess.CompletedProcess:
    """``scoundrel ARGS`` against the stack's Redis (in this process: ``tests.support.commands``)."""
    return run_command(stack.env(), *args)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def redis_client(stack):
    """The data's Redis, replies as str."""
    database = stack.database()
    yield database.redis
    database.close()


def submit_final(stack, token: str, game: dict) -> dict:
    response = stack.submit(token, game)
    assert response.status_code == 202, response.text
    return stack.wait_final(response.json()["id"])
