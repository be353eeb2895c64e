"""Fixtures for the page tests: one headless Chromium a test process, and the module's in-process stack served
over HTTP for it to load (see tests/support/browser.py)."""

import pytest

from tests.support.browser import chromium, serving


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def site(stack):
    """The module's stack (in this process) served over HTTP: ``site.url(path)`` is what Chromium loads."""
    with serving(stack) as served:
        yield served
