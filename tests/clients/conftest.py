"""Fixtures for the JS client's tests in a browser: headless Chromium and the example page under a strict CSP."""

import functools
import importlib.util
import json
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from service.security import CONTENT_SECURITY_POLICY
from tests.support.browser import chromium

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "js"


def js_tool(name: str):
    """The generator script ``clients/js/tools/<name>.py`` loaded as a module (the tools are not a package)."""
    spec = importlib.util.spec_from_file_location(name, CLIENT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
ANSWERED = "Failed to load resource: the server responded with a status of"
MOVE_LIMIT = 250  # clicks: a game has at most 44 plays plus avoids
# The service's policy (no inline script or style), widened only to call an API on another local port.
PAGE_POLICY = f"{CONTENT_SECURITY_POLICY}; connect-src 'self' http://127.0.0.1:*"


class _ClientFiles(SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", PAGE_POLICY)
        super().end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def client_site() -> Iterator[str]:
    """``clients/js`` served over http as the README says, under PAGE_POLICY: its origin, one a test
    process, so that the stack that lets it in (``served_stack``) is the same from module to module."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_ClientFiles, directory=str(CLIENT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


# A studio whose tokens the served stack trusts (``test_csharp.py`` signs in with them)
STUDIO, AUDIENCE, SECRET = "https://studio.example", "scoundrel-referee", "a-studio-secret-for-the-csharp-tests"


@pytest.fixture(scope="module")
def served_stack(stack_pool, client_site) -> Iterator:
    """The service as processes (``tests.support.stack.Stack``) for the clients that play against it: it
    lets the example page's origin in by CORS and trusts the studio's tokens. The JS and the C# clients'
    modules ask for the same settings, so a test process starts it once for both (``StackPool``)."""
    issuers = [{"issuer": STUDIO, "audience": AUDIENCE, "secret": SECRET}]
    running = stack_pool.take(env={"SCOUNDREL_CORS_ORIGINS": client_site, "SCOUNDREL_JWT_ISSUERS": json.dumps(issuers)})
    yield running
    stack_pool.give_back(running)


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser, client_site):
    """The example page; the test fails on a script error or any console error
    but an HTTP status (a CSP violation is one)."""
    context = browser.new_context()
    opened = context.new_page()
    problems: list[str] = []

    def console(message) -> None:
        # An API answer of 4xx is the page's to handle; the browser logs it all the same.
        if message.type == "error" and not message.text.startswith(ANSWERED):
            problems.append(message.text)

    opened.on("console", console)
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.goto(f"{client_site}/examples/play.html")
    yield opened
    context.close()
    assert problems == []


def play_dealt_game(page, api: str, *, name: str, forfeit_after: int | None = None, daily: bool = False) -> str:
    """Start a dealt game on the page as ``name`` and click legal moves to the end; the verdict text."""
    from playwright.sync_api import expect

    form = page.locator("#deal")
    form.locator("[name=baseUrl]").fill(api)
    form.locator("[name=name]").fill(name)
    form.locator("[name=daily]").set_checked(daily)
    form.locator("button").click()
    status = page.locator("#dealt-status")
    expect(status).to_contain_text("playing after 0 moves")
    assert form.locator("[name=token]").input_value(), "the new player's token is shown"
    for played in range(MOVE_LIMIT):
        if page.locator("#dealt-check").is_visible():
            break
        if played == forfeit_after:
            page.locator("#dealt-forfeit").click()
            expect(status).to_contain_text(f"forfeit after {played} moves.")
        else:
            page.locator("#dealt-moves button").first.click()
            expect(status).not_to_contain_text(f" after {played} moves.")
    verdict = page.locator("#dealt-verdict")
    expect(verdict).to_contain_text(re.compile("The deal|stays sealed"), timeout=30_000)
    return verdict.inner_text()
