"""Fixtures shared by every suite: the real service as processes."""

import compileall
import os
from pathlib import Path

import pytest

from store import keys
from store.shards import Layout
from tests.support.games import moderator_token
from tests.support.stack import StackPool
from tests.support.stores import KINDS, throwaway_store


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: three test processes for two cores. A test process spends about a third of its
    time waiting on the servers it started (Redis, the API, the workers), so one per core leaves
    the cores idle that long: on 2 cores the suite takes 5 min 25 s so, against 6 min 7 s."""
    return max(1, (os.cpu_count() or 1) * 3 // 2)


# What the processes the tests start import from the checkout (the service's packages, the throwaway servers').
SOURCES = ("scoundrel", "domain", "schemas", "service", "worker", "store", "cli", "settings", "log_lines",
           "verification", "webhook_targets", "throwaway")


def pytest_sessionstart(session):
    """The checkout's modules compiled once, before any test: where ``PYTHONDONTWRITEBYTECODE`` is
    set (as on the CI machines), each of the hundreds of processes the suite starts would compile
    them again (the API a quarter of a second of CPU). Python reads the compiled files all the same."""
    if not hasattr(session.config, "workerinput"):  # the xdist controller, or a run without xdist
        root = Path(__file__).resolve().parents[1]
        for package in SOURCES:
            compileall.compile_dir(root / package, quiet=1)


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


# The stores a ``cluster_too`` module's tests run on: one Redis, and three masters of a Redis
# Cluster with the queues on a Redis of their own (``Stack``'s ``cluster``).
STORES = {"one-redis": (0, 0), "cluster": (3, 0)}


def pytest_generate_tests(metafunc):
    """A ``cluster_too`` module's tests that use a stack, once on each of ``STORES``; one marked
    ``one_redis`` too, on one Redis only."""
    if "data_store" in metafunc.fixturenames and metafunc.definition.get_closest_marker("cluster_too"):
        stores = ["one-redis"] if metafunc.definition.get_closest_marker("one_redis") else list(STORES)
        metafunc.parametrize("data_store", stores, indirect=True, scope="module")


@pytest.fixture(scope="module")
def data_store(request) -> tuple[int, int]:
    """Where the module's stack keeps its data (``Stack``'s ``cluster``): one Redis, or for a
    ``cluster_too`` module each of ``STORES`` in turn."""
    return STORES[getattr(request, "param", "one-redis")]


@pytest.fixture(scope="module")
def stack(stack_pool, data_store):
    """Redis, the API and one worker, shared by the tests of one module: empty when the module
    starts (the stack a module before used, emptied, or a new one)."""
    running = stack_pool.take(cluster=data_store)
    yield running
    stack_pool.give_back(running)


@pytest.fixture(scope="module", params=KINDS)
def store_urls(request, tmp_path_factory):
    """A throwaway data store without the service's processes, of each kind in turn: one Redis, a
    one-master cluster (``tests.support.stores``); ``(data URL, queue URL)``."""
    with throwaway_store(tmp_path_factory.mktemp(request.param), request.param) as urls:
        yield urls


@pytest.fixture(scope="module", autouse=True)
def one_redis_layout():
    """Every module starts, and leaves, naming keys as on one Redis: a cluster's ``Database`` sets its
    process's layout (``store.keys.use_layout``), which would otherwise stay for the next module."""
    keys.use_layout(Layout.SINGLE)
    yield
    keys.use_layout(Layout.SINGLE)


@pytest.fixture(scope="module")
def moderator(stack) -> str:
    """A moderator's token, made as ``scoundrel moderator add`` makes one (the command's own tests are
    ``tests/audit/test_moderator_auth.py``'s): in this process, not one of its own."""
    return moderator_token(stack, "mia")


@pytest.fixture(scope="module")
def db(stack):
    """The store the module's stack runs on (whichever ``stack`` the module's conftest gives)."""
    database = stack.database()
    yield database
    database.close()
