"""Fixtures shared by every suite: the real service as processes."""

import os

import pytest

from tests.support.stack import StackPool


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: three test processes for two cores. A test process spends about a third of its
    time waiting on the servers it started (Redis, the API, the workers), so one per core leaves
    the cores idle that long: on 2 cores the suite takes 5 min 25 s so, against 6 min 7 s."""
    return max(1, (os.cpu_count() or 1) * 3 // 2)


def pytest_collection_modifyitems(items):
    """The modules marked ``slow`` first, so that none of them starts last and runs on alone
    while the other test processes have finished (the others keep their order)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def stack_pool(tmp_path_factory):
    """The stacks of this test process (one per xdist worker), handed from module to module."""
    pool = StackPool(tmp_path_factory.mktemp("stacks"))
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def stack(stack_pool):
    """Redis, the API and one worker, shared by the tests of one module: empty when the module
    starts (the stack a module before used, emptied, or a new one)."""
    running = stack_pool.take()
    yield running
    stack_pool.give_back(running)


@pytest.fixture(scope="module")
def db(stack):
    """The store the module's stack runs on (whichever ``stack`` the module's conftest gives)."""
    database = stack.database()
    yield database
    database.close()
