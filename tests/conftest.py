"""Fixtures shared by every suite: the real service as processes."""

import pytest

from tests.support.stack import Stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """Redis, the API and one worker, shared by the tests of one module."""
    running = Stack(tmp_path_factory.mktemp("stack")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def db(stack):
    """The store the module's stack runs on (whichever ``stack`` the module's conftest gives)."""
    database = stack.database()
    yield database
    database.close()
