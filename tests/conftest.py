"""Fixtures shared by every suite: the real service as processes.

The xdist controller imports this file too, and runs no test: the fixtures import the service's modules
(and the stacks', which import the service) when first used, so the controller spares their second of CPU."""

import compileall
import gc
import inspect
import os
import shutil
from pathlib import Path

import pytest


def pytest_addoption(parser):
    parser.addoption("--screenshots", action="store_true",
                     help="keep the browser tests' screenshots, each page at each width, under test-artifacts/")


def pytest_configure(config):
    """``--screenshots`` handed to the browser tests' ``screenshot`` (in each xdist worker too); its module is
    imported only then, so the xdist controller spares it."""
    if config.getoption("screenshots"):
        from tests.support import browser

        browser.KEEP_SCREENSHOTS = True


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: three test processes for two cores. A test process spends about a third of its
    time waiting on the servers it started (Redis, the API, the workers), or on the product's clock in
    the fast loop (a tournament's window, a flag's cooling), so one per core leaves the cores idle
    that long: on 2 cores the suite takes 5 min 25 s so, against 6 min 7 s, and the fast loop
    (``-m "not stack"``) 1 min 24 s against 1 min 33 s."""
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


def pytest_collection_finish(session):
    """What the test modules imported (the service, its libraries: some 260,000 objects) kept out of the
    collector's full passes (``gc.freeze``), which would each walk it again though it lives as long as the
    process: a fortieth of a test process's CPU. And those passes made rarer (the oldest generation's threshold
    1,000, not 10), as they still walk all that the tests made since (what the fixtures import, the apps, the
    stacks): in the fast loop they were 56 passes and 3.9 s of CPU, then 13 and 0.8 s, the test processes'
    largest size 4 to 17 MB more (240 to 330 MB)."""
    gc.freeze()
    gc.set_threshold(*gc.get_threshold()[:2], 1000)


# What starts processes: the fixtures of the service's stacks, and the modules a test module reaches
# them through (the stacks, ``scoundrel`` run as a command, a browser, PostgreSQL, any subprocess).
PROCESS_FIXTURES = frozenset(("stack_pool", "scoundrel_command", "browser", "page"))
PROCESS_MODULES = frozenset(("subprocess", "tests.support.stack", "tests.support.browser",
                             "tests.support.sentinel", "tests.support.redis_cluster", "throwaway.postgres",
                             "playwright.sync_api"))


def _starts_processes(module) -> bool:
    """Whether a test module uses anything of ``PROCESS_MODULES`` (a module, or a name from one)."""
    return any((value.__name__ if inspect.ismodule(value) else getattr(value, "__module__", None)) in PROCESS_MODULES
               for value in vars(module).values())


def pytest_collection_modifyitems(items):
    """Every test that starts processes (a stack's fixture, or a module that runs commands, a browser or
    servers of its own) is marked ``stack``, so ``-m "not stack"`` runs the fast rest: the engine, the
    domain, the store against this process's throwaway Redis, views through Flask's test client. Then
    the modules marked ``slow`` first, so that none of them starts last and runs on alone while the
    other test processes have finished (the others keep their order)."""
    for item in items:
        module = getattr(item, "module", None)
        if (PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())) or item.get_closest_marker("served")
                or (module and _starts_processes(module))):
            item.add_marker(pytest.mark.stack)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def stack_pool(tmp_path_factory):
    """The stacks of this test process (one per xdist worker), handed from module to module."""
    from tests.support.stack import StackPool

    pool = StackPool(tmp_path_factory.mktemp("stacks"))
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def in_process_pool(tmp_path_factory):
    """The in-process stacks of this test process, on one throwaway Redis of their own."""
    from tests.support.in_process import InProcessPool

    pool = InProcessPool(tmp_path_factory.mktemp("in-process"))
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def stack(request):
    """The service for one module's tests (``stack_of``): the API and a worker on an empty store."""
    from tests.support.in_process import stack_of

    yield from stack_of(request)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A throwaway Redis of this test process, without the service's processes."""
    from tests.support.stores import throwaway_redis

    with throwaway_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(scope="module")
def store_db(redis_url):
    """A ``Database`` on this test process's throwaway Redis, emptied for the module: for the store's own
    tests, which need no API or worker."""
    from tests.support.stores import emptied_database

    with emptied_database(redis_url) as database:
        yield database


@pytest.fixture(scope="session")
def migrated_archive(tmp_path_factory) -> Path:
    """An empty SQLite archive at the newest migration, for the tests that each want one of their own to copy:
    a copy costs a sixth of the CPU of migrating a new one."""
    from store.archive import Archive

    path = tmp_path_factory.mktemp("migrated") / "archive.sqlite3"
    archive = Archive(f"sqlite:///{path}")
    archive.upgrade()
    archive.engine.dispose()  # the last connection closed: the write-ahead log is in the file
    return path


@pytest.fixture
def archived_store_db(redis_url, tmp_path, migrated_archive):
    """A ``Database`` on this test process's throwaway Redis, emptied, with an archive of its own (SQLite): for
    the store's tests of boards that cool there (``domain.boards.Board.cools``)."""
    from store.base.database import Database
    from tests.support.stores import empty
    from worker.registry import JOBS

    shutil.copyfile(migrated_archive, tmp_path / "archive.sqlite3")
    database = Database(redis_url, JOBS, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3")
    database.archive.upgrade()
    yield empty(database)
    database.close()


@pytest.fixture(scope="module")
def moderator(stack) -> str:
    """A moderator's token, made as ``scoundrel moderator add`` makes one (the command's own tests are
    ``tests/audit/test_moderator_auth.py``'s): in this process, not one of its own."""
    from tests.support.games import moderator_token

    return moderator_token(stack, "mia")


@pytest.fixture(scope="module")
def db(stack):
    """The store the module's stack runs on (whichever ``stack`` the module's conftest gives)."""
    database = stack.database()
    yield database
    database.close()


@pytest.fixture(scope="module")
def receiver():
    """A webhook endpoint of the module's tests on one store (one per store: none hears another's events)."""
    from tests.support.receiver import Receiver

    running = Receiver()
    yield running
    running.close()
