"""The JS client's example page in headless Chromium, under a strict CSP.

``clients/js/examples/play.html`` is served as its README says (a static
server for ``clients/js``), with the service's Content-Security-Policy (no
inline script or style) widened only to let it call the API on its own
port. The API is the JS fake server (``clients/js/tools/fake-server.js``),
which deals dealt games with the JS engine from a hidden seed. The page
deals an open seed, and plays dealt games to the end by clicking the legal
moves it shows, then checks the deal.
"""

import functools
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from service.security import CONTENT_SECURITY_POLICY

CHROMIUM = Path("/usr/bin/chromium")
CLIENT = Path(__file__).resolve().parents[2] / "clients" / "js"
MOVE_LIMIT = 250  # clicks: a game has at most 44 plays plus avoids

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)")


@pytest.fixture(scope="module")
def fake_api() -> Iterator[str]:
    """The JS fake server in its own node process: its base URL."""
    process = subprocess.Popen(["node", str(CLIENT / "tools" / "fake-server.js")], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        process.terminate()
        process.wait(10)


def serve_client(api: str) -> ThreadingHTTPServer:
    """``clients/js`` over http on a free port, every answer under the service's CSP plus ``connect-src`` to ``api``."""
    policy = f"{CONTENT_SECURITY_POLICY}; connect-src 'self' {api}"

    class Handler(SimpleHTTPRequestHandler):
        def end_headers(self):
            self.send_header("Content-Security-Policy", policy)
            super().end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(CLIENT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield chromium
        chromium.close()


def open_page(browser, api: str) -> Iterator:
    """The example page, served for ``api``; fails the test on any console error (a CSP violation is one)."""
    server = serve_client(api)
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []

    def console(message) -> None:
        if message.type == "error":
            problems.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"http://127.0.0.1:{server.server_address[1]}/examples/play.html")
    yield page
    context.close()
    server.shutdown()
    assert problems == []


@pytest.fixture
def page(browser, fake_api):
    yield from open_page(browser, fake_api)


def play_dealt_game(page, api: str, *, name: str, forfeit_after: int | None = None) -> str:
    """Start a dealt game on the page as ``name`` and click legal moves to the end; the verdict text."""
    form = page.locator("#deal")
    form.locator("[name=baseUrl]").fill(api)
    form.locator("[name=name]").fill(name)
    form.locator("button").click()
    status = page.locator("#dealt-status")
    sync_api.expect(status).to_contain_text("playing after 0 moves")
    assert form.locator("[name=token]").input_value(), "the new player's token is shown"
    for played in range(MOVE_LIMIT):
        if page.locator("#dealt-check").is_visible():
            break
        if played == forfeit_after:
            page.locator("#dealt-forfeit").click()
            sync_api.expect(status).to_contain_text(f"forfeit after {played} moves.")
        else:
            page.locator("#dealt-moves button").first.click()
            sync_api.expect(status).not_to_contain_text(f" after {played} moves.")
    verdict = page.locator("#dealt-verdict")
    sync_api.expect(verdict).to_contain_text("The deal", timeout=20_000)
    return verdict.inner_text()


def test_the_open_seed_still_deals_and_plays(page):
    sync_api.expect(page.locator("#room")).to_have_text("S8 C5 H6 S3")
    page.locator("#moves button", has_text="S8b").click()
    sync_api.expect(page.locator("#status")).to_contain_text("Health 12")


def test_a_dealt_game_played_by_clicking_legal_moves_ends_with_a_checked_deal(page, fake_api):
    verdict = play_dealt_game(page, fake_api, name="page-player")
    assert "The deal checks out." in verdict, verdict
    assert "SHA-256 of the seed matches" in verdict
    assert "Local replay" in verdict and "agrees" in verdict
    lines = dict(line.split(": ", 1) for line in verdict.splitlines() if ": " in line)
    assert len(lines["Seed"]) == 64
    assert lines["Verdict"].startswith("verified ")


def test_a_forfeit_from_the_page(page, fake_api):
    verdict = play_dealt_game(page, fake_api, name="page-quitter", forfeit_after=2)
    assert "Verdict: verified forfeit" in verdict
    assert "The deal checks out." in verdict, verdict
