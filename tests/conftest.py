"""Fixtures shared by every suite: the real service as processes."""

import pytest

from tests.support.stack import Stack

# The longest modules, longest first (pytest --durations): run first, so that
# with one test process per core (pytest-xdist, --dist loadfile) the suite does
# not end with one process working through them while the other waits.
LONGEST_MODULES = (
    "tests/hardening/test_bursts.py",
    "tests/deploy/test_up.py",
    "tests/audit/test_viewer.py",
    "tests/cli/test_cli_verify.py",
    "tests/audit/test_reverify.py",
)


def pytest_collection_modifyitems(items):
    first = {module: place for place, module in enumerate(LONGEST_MODULES)}
    items.sort(key=lambda item: first.get(item.nodeid.split("::")[0], len(first)))  # stable: the rest keep order


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """Redis, the API and one worker, shared by the tests of one module."""
    running = Stack(tmp_path_factory.mktemp("stack")).start()
    yield running
    running.stop()
