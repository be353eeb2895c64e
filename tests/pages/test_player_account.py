"""Issue 33, item 5: a player's own page offers their data and the deletion of their account, in headless Chromium
against the real service.

A player signs up on ``/play``, submits a game, and opens their page: in their browser (which keeps their token)
it offers "Download my data", saved as ``scoundrel-<name>.json`` with their account and their run, and "Delete my
account", which asks them to type their name, deletes the account and forgets the token; the player is gone
from the API after. Anyone else's browser is offered neither. Screenshots at 1280 and 375 px go to
``test-artifacts/player-account-*.png``.
"""

import json
import uuid
from pathlib import Path

import pytest

from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.games import legal_games

pytestmark = pytest.mark.served  # pages in Chromium, which loads them over HTTP

expect = pytest.importorskip("playwright.sync_api").expect

PLAYER_KEY = "scoundrel.player"


@pytest.fixture
def context_at(browser):
    """A fresh browser context (nothing stored) of the given width; closed after the test."""
    opened = []

    def open_at(width: int):
        context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
        opened.append(context)
        page = context.new_page()
        page.problems = console_problems(page)
        return page

    yield open_at
    for context in opened:
        context.close()


def signed_up(stack, page) -> tuple[str, str]:
    """A player signed up on /play in this browser, with one game submitted: ``(name, token)``."""
    name = f"acc-{uuid.uuid4().hex[:8]}"
    page.goto(stack.url("/play"))
    page.wait_for_selector("body[data-ready='true']")
    page.fill("#signup-name", name)
    page.click("#signup button[type=submit]")
    expect(page.locator("#player-name")).to_have_text(name)
    token = json.loads(page.evaluate(f"() => localStorage.getItem('{PLAYER_KEY}')"))["token"]
    submitted = stack.submit(token, legal_games(1)[0])
    assert submitted.status_code == 202, submitted.text
    stack.wait_final(submitted.json()["id"])
    return name, token


def open_player_page(stack, page, name: str) -> None:
    """``/players/<name>``, once its script has shown the account's section or left it hidden."""
    page.goto(stack.url(f"/players/{name}"))
    page.wait_for_selector("body[data-ready='true']")


def open_own_page(stack, page, name: str) -> None:
    open_player_page(stack, page, name)
    expect(page.locator("#account")).to_be_visible()


def clean(page, *refused: int) -> None:
    """No console error but the browser's own note of each API refusal the test caused (statuses ``refused``)."""
    notes = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in refused)
    assert [problem for problem in page.problems if not problem.startswith(notes)] == []


def test_a_player_downloads_their_data_then_deletes_their_account_after_typing_its_name(context_at, stack):
    page = context_at(1280)
    name, _ = signed_up(stack, page)
    open_own_page(stack, page, name.upper())  # names ignore case: the page is theirs in any spelling
    expect(page.locator("#account h2")).to_have_text("Your account")
    with page.expect_download() as downloading:
        page.click("#data-download")
    download = downloading.value
    assert download.suggested_filename == f"scoundrel-{name}.json"
    exported = json.loads(Path(download.path()).read_text())
    assert exported["player"]["name"] == name
    assert [run["seed"] for run in exported["runs"]] == [legal_games(1)[0]["seed"]]
    expect(page.locator("#account-note")).to_have_text(f"Your data is saved as scoundrel-{name}.json.")

    page.click("#account-delete")
    expect(page.locator("#account-delete-confirm")).to_be_visible()
    expect(page.locator("#delete-name")).to_be_focused()
    page.click("#account-delete-no")  # changing one's mind keeps everything
    expect(page.locator("#account-delete-confirm")).to_be_hidden()
    page.click("#account-delete")
    page.fill("#delete-name", "someone-else")
    page.click("#account-delete-yes")
    expect(page.locator("#delete-error")).to_have_text(f"Type {name} to delete this account; anything else keeps it.")
    expect(page.locator("#delete-name")).to_have_attribute("aria-invalid", "true")
    assert stack.get(f"/v1/players/{name}/runs").status_code == 200  # nothing was deleted
    page.fill("#delete-name", name)
    page.click("#account-delete-yes")
    expect(page.locator("#account-note")).to_contain_text(f"The account {name} is deleted")
    expect(page.locator("#account-delete-confirm")).to_be_hidden()
    expect(page.locator("#data-download")).to_be_hidden()
    expect(page.locator("#account-intro")).to_be_hidden()  # this browser keeps no token any more
    expect(page.locator("#signed-in")).to_be_hidden()
    assert page.evaluate(f"() => localStorage.getItem('{PLAYER_KEY}')") is None
    assert stack.get(f"/v1/players/{name}/runs").status_code == 404
    page.locator("#account").scroll_into_view_if_needed()
    screenshot(page, "player-account-deleted-1280", full_page=False)
    clean(page)


def test_another_browser_and_another_players_page_offer_neither(context_at, stack):
    page = context_at(1280)
    name, _ = signed_up(stack, page)
    other, _ = stack.register()
    open_player_page(stack, page, other)
    expect(page.locator("#signed-in")).to_have_text(f"Signed in as {name}")
    expect(page.locator("#account")).to_be_hidden()
    stranger = context_at(1280)
    open_player_page(stack, stranger, name)
    expect(stranger.locator("#account")).to_be_hidden()
    clean(page)


def test_a_token_the_referee_no_longer_takes_is_explained_and_nothing_is_deleted(context_at, stack, moderator):
    page = context_at(1280)
    name, _ = signed_up(stack, page)
    replaced = stack.post(f"/v1/players/{name}/revoke-token", headers={"Authorization": f"Bearer {moderator}"})
    assert replaced.status_code == 200, replaced.text
    open_own_page(stack, page, name)
    page.click("#data-download")
    expect(page.locator("#account-note")).to_have_text(
        f"The referee does not accept this browser's token for {name} (a moderator may have replaced it): nothing "
        "was downloaded. On the Play page, forget this player and bring the new token; then try again.")
    page.click("#account-delete")
    page.fill("#delete-name", name)
    page.click("#account-delete-yes")
    expect(page.locator("#delete-error")).to_contain_text("nothing was deleted")
    assert stack.get(f"/v1/players/{name}/runs").status_code == 200
    clean(page, 401)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_account_section_at_each_width_fits_and_has_no_serious_accessibility_violation(context_at, stack, width):
    page = context_at(width)
    name, _ = signed_up(stack, page)
    open_own_page(stack, page, name)
    page.click("#account-delete")
    page.fill("#delete-name", "not-the-name")
    page.click("#account-delete-yes")
    expect(page.locator("#delete-error")).not_to_be_empty()
    assert not scrolls_sideways(page)
    assert serious_violations(page) == []
    page.locator("#account").scroll_into_view_if_needed()
    screenshot(page, f"player-account-{width}")
    clean(page)
