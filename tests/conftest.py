"""Fixtures shared by every suite: the real service as processes."""

import pytest

from tests.support.stack import Stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """Redis, the API and one worker, shared by the tests of one module."""
    running = Stack(tmp_path_factory.mktemp("stack")).start()
    yield running
    running.stop()


# The two slowest modules (about 150 s and 110 s on 2 cores): started first, one per xdist worker,
# rather than collected last, where they ran on after every other test had finished.
SLOWEST_FIRST = ("tests/deploy/test_wheel.py", "tests/hardening/test_bursts.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(SLOWEST_FIRST))  # stable: the rest keep their order
