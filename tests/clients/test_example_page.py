"""The JS client's example page in headless Chromium, under a strict CSP.

``clients/js/examples/play.html`` is served as its README says (a static
server for ``clients/js``) with the service's Content-Security-Policy (no
inline script or style; see ``conftest.PAGE_POLICY``). The API here is the
JS fake server (``clients/js/tools/fake-server.js``), which deals with the
JS engine from a hidden seed; ``test_dealt_client.py`` plays the page
against the real service. The page deals an open seed, and plays dealt
games to the end by clicking the legal moves it shows, then checks the deal.
"""

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from settings import Settings
from tests.support.stores import app_without_redis

from .conftest import CLIENT, play_dealt_game

expect = pytest.importorskip("playwright.sync_api").expect


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


SERVE = re.compile(r"python3 -m http\.server (\d+) --bind ([\d.]+) -d clients/js")
JS_CLIENT_DOCS = Path(__file__).resolve().parents[2] / "docs" / "js-client.md"


@pytest.mark.parametrize("told_by", [CLIENT / "examples" / "play.html", JS_CLIENT_DOCS], ids=["page", "docs"])
def test_the_page_is_served_off_the_services_port_and_the_service_is_told_its_origin(told_by, tmp_path):
    """Issue 44, item 10: ``http.server``'s default port, 8000, is the one ``scoundrel up`` takes, and from
    another origin the page reads the API's answers only where CORS allows it. The command that serves the
    page names another port, and the service started as the page says allows the page's origin."""
    text = " ".join(told_by.read_text().split())
    serve = SERVE.search(text)
    assert serve, f"{told_by.name} gives the command that serves the page"
    port, host = int(serve.group(1)), serve.group(2)
    assert port != Settings.port, "the page's server would take the service's port"
    origin = f"http://{host}:{port}"
    assert f"SCOUNDREL_CORS_ORIGINS={origin} scoundrel up" in text
    preflight = app_without_redis(tmp_path, cors_origins=origin).test_client().options("/v1/players", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
    assert preflight.headers.get("Access-Control-Allow-Origin") == origin


def test_the_page_calls_the_service_on_its_own_port_by_default():
    page = (CLIENT / "examples" / "play.html").read_text()
    assert re.findall(r'name="baseUrl" value="http://127\.0\.0\.1:(\d+)"', page) == [str(Settings.port)] * 2


def test_the_open_seed_still_deals_and_plays(page):
    expect(page.locator("#room")).to_have_text("S8 C5 H6 S3")
    page.locator("#moves button", has_text="S8b").click()
    expect(page.locator("#status")).to_contain_text("Health 12")


def test_a_dealt_game_played_by_clicking_legal_moves_ends_with_a_checked_deal(page, fake_api):
    verdict = play_dealt_game(page, fake_api, name="page-player")
    assert "The deal checks out." in verdict, verdict
    assert "SHA-256 of the seed matches" in verdict
    assert "Local replay" in verdict and "agrees" in verdict
    lines = dict(line.split(": ", 1) for line in verdict.splitlines() if ": " in line)
    assert len(lines["Seed"]) == 64
    assert lines["Verdict"].startswith("verified ")


def test_a_forfeit_from_the_page(page, fake_api):
    verdict = play_dealt_game(page, fake_api, name="page-quitter", forfeit_after=1)  # one move cannot kill
    assert "Verdict: verified forfeit" in verdict
    assert "The deal checks out." in verdict, verdict


def test_the_sealed_daily_from_the_page_stays_sealed_and_a_second_start_resumes_it(page, fake_api):
    verdict = play_dealt_game(page, fake_api, name="page-daily", daily=True)
    assert "The seed stays sealed until the UTC day" in verdict, verdict
    game_id = verdict.rsplit("(game ", 1)[1].rstrip(").")
    page.locator("#deal button").click()  # the same player, the same day: today's game again
    expect(page.locator("#dealt-status")).to_contain_text(f"Game {game_id} (classic, sealed daily of ")
    expect(page.locator("#dealt-verdict")).to_contain_text("stays sealed")
