"""The JS client's example page in headless Chromium, under a strict CSP.

``clients/js/examples/play.html`` is served as its README says (a static
server for ``clients/js``) with the service's Content-Security-Policy (no
inline script or style; see ``conftest.PAGE_POLICY``). The API here is the
JS fake server (``clients/js/tools/fake-server.js``), which deals with the
JS engine from a hidden seed; ``test_dealt_client.py`` plays the page
against the real service. The page deals an open seed, and plays dealt
games to the end by clicking the legal moves it shows, then checks the deal.
"""

import subprocess
from collections.abc import Iterator

import pytest

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
