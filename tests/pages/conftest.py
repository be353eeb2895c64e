"""Fixtures for the page tests: one headless Chromium a module (see tests/support/browser.py)."""

import pytest

from tests.support.browser import chromium


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched
