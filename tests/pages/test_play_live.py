"""``/play``'s "As it happens": the signed-in player's live events listed as they come, in Chromium against
the real service (docs/live.md)."""

import uuid

import pytest

from store.live import publish
from tests.support.games import legal_games

pytestmark = [pytest.mark.served, pytest.mark.slow]  # a page in Chromium, holding its stream over HTTP

expect = pytest.importorskip("playwright.sync_api").expect


def test_the_signed_in_players_events_are_listed_as_they_come(browser, stack, db):
    ann, ann_token = stack.register()
    passing = stack.submit(ann_token, legal_games(1)[0]).json()["id"]
    assert stack.wait_final(passing)["status"] == "verified"
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(stack.url("/play"))
    page.wait_for_selector("body[data-ready='true']")
    name = f"pl-{uuid.uuid4().hex[:10]}"
    page.fill("#signup-name", name)
    page.click("#signup button[type=submit]")
    expect(page.locator("#live")).to_be_visible()
    listed = page.locator("#live-events li[data-type='place.lost']")
    for _ in range(100):  # the stream starts with the next event once open: sent until one is heard
        publish(db, name, {"type": "place.lost", "run_id": passing, "board": 1, "place": 4})
        try:
            expect(listed.first).to_be_visible(timeout=500)
            break
        except AssertionError:
            continue
    expect(listed.first).to_have_text(f"{ann} passed you on /v1/leaderboards/classic: you are 4th.")
    publish(db, name, {"type": "run.verified", "run_id": "r2", "status": "verified"})
    expect(page.locator("#live-events li").first).to_have_text("Your run r2 is verified.")
    page.context.close()
