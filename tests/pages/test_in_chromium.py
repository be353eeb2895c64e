"""The site's pages in headless Chromium: what only a browser shows.

What a page says, links to and lists is read from its HTML in the test process
(``test_board_pages.py``, ``test_friends_page.py``, ``test_front_door.py``).
Here the pages are loaded in Chromium from the module's in-process stack,
served over HTTP by the test process (``tests.support.browser.serving``), to
check what needs a browser: the look at 1280 and 375 px (nothing wider than
a phone's screen) with axe-core, no console error, the scripts that fill in
a signed-in reader's line and friends and tick a countdown, a player's own
page offering their data and their account's deletion, and that no page
asks anything of another origin. Screenshots go to ``test-artifacts/``.

The scene is the board pages' (``test_board_pages.board_scene``), and ada
following three players (one with no place), and a player of many runs
with a sealed daily.
"""

import json
import re
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.games import accept_dealt, games_by_score, legal_games, moderator_token

from .test_board_pages import board_scene, everyone, number
from .test_friends_page import expected_rows
from .test_front_door import PAGE_LINKS

pytestmark = pytest.mark.slow

expect = pytest.importorskip("playwright.sync_api").expect

STORAGE_KEY = "scoundrel.player"
FRIENDS_TOKEN = "sr_kept-in-this-browser-only"
MANY_RUNS = "ada-of-the-many-runs"
NO_SUCH_RUN = "0" * 26
SWAGGER_UI = "/v1/docs"  # flask-smorest's page, not one of the service's templates: no description of its own
OWN_SCHEMES = ("data", "blob", "about")  # no request to any server


@pytest.fixture(scope="module")
def scene(stack) -> dict:
    world = board_scene(stack)
    followed = {name: stack.register(name)[1] for name in ("fay", "gus")}  # gus has no place
    assert stack.wait_final(stack.submit(followed["fay"], games_by_score("friends-page", 1)[0]).json()["id"])
    for other in ("cyd", "fay", "gus"):
        response = stack.http.put(stack.url(f"/v1/players/ada/following/{other}"),
                                  headers={"Authorization": f"Bearer {world['ada']}"}, timeout=10)
        assert response.status_code == 204
    _, token = stack.register(MANY_RUNS)
    world["many_runs"] = [stack.wait_final(stack.submit(token, game).json()["id"]) for game in legal_games(3)]
    accept_dealt(stack, MANY_RUNS, games_by_score("same-origin", 1)[0], challenge="daily",
                 date=world["daily"]["date"])
    return world


def signed_in(browser, name: str, token: str = "x", width: int = 1280):
    """A browser context whose /play sign-up holds ``name``, a page in it and its console problems."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    stored = f"JSON.stringify({{name: {name!r}, token: {token!r}}})"
    context.add_init_script(f"localStorage.setItem({STORAGE_KEY!r}, {stored})")
    page = context.new_page()
    return context, page, console_problems(page)


# ---- the board, player and daily pages --------------------------------------------------------------------

BOARD_PAGES = {
    "boards": "/boards",
    "board": "/boards/classic",
    "ladder": "/boards/dealt-classic-ladder",
    "player": "/players/ada",
    "daily": "/daily",
    "leagues": "/leagues?player=cyd",
    "tournaments": "/tournaments",
    "tournament": "/tournaments/{tournament}?player=tia",
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", BOARD_PAGES)
def test_each_page_fits_the_width_with_no_serious_accessibility_violation(site, scene, browser, name, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    page.goto(site.url(BOARD_PAGES[name].format(tournament=scene["tournament"])))
    page.wait_for_load_state("networkidle")
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    screenshot(page, f"{name}-{width}")
    context.close()
    assert problems == []


def test_a_tournaments_countdown_ticks_from_the_referees_clock(stack, site, scene, browser):
    ends = datetime.now(UTC) + timedelta(minutes=30)
    soon = stack.post("/v1/tournaments", headers={"Authorization": f"Bearer {moderator_token(stack, 'tic')}"},
                      json={"title": "Soon", "starts_at": "2026-01-01T00:00:00Z", "ends_at": ends.isoformat()}).json()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(site.url(f"/tournaments/{soon['id']}"))
    first = page.inner_text("[data-countdown]")
    assert re.fullmatch(r"(29|30):\d\d", first), first  # minutes and seconds, from the referee's figure
    deadline = time.monotonic() + 10
    while (later := page.inner_text("[data-countdown]")) == first:  # the script ticks it each second
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert later < first  # counting down
    context.close()


def classic_score(stack, player: str) -> str:
    """The player's score on the classic board, as the chart prints it."""
    return number(next(entry for entry in everyone(stack, "/v1/leaderboards/classic")
                       if entry["player"] == player)["score"])


MARKED_YOU = "document.querySelector('svg.histogram text.marker-mine').textContent.startsWith('you')"


def test_a_signed_in_browser_sees_its_own_line_filled_in(stack, site, scene, browser):
    context, page, problems = signed_in(browser, "ada")
    page.goto(site.url("/boards/classic"))
    page.wait_for_selector("#you strong")
    assert page.inner_text("#you").startswith("ada scored")
    assert page.locator("svg.histogram text.marker-mine").count() == 1
    page.wait_for_function(MARKED_YOU)
    assert page.text_content("svg.histogram text.marker-mine") == f"you {classic_score(stack, 'ada')}"
    page.goto(site.url("/boards/classic?player=ADA"))  # looking herself up, in any case
    page.wait_for_function(MARKED_YOU)
    assert page.inner_text("#signed-in") == "Signed in as ada"
    page.goto(site.url("/daily"))
    page.wait_for_selector("#you-1 strong")
    assert page.inner_text("#you-1").startswith("ada scored")
    screenshot(page, "daily-signed-in-1280")
    context.close()
    assert problems == []


def test_another_signed_in_reader_sees_the_looked_up_players_name_on_the_marker(stack, site, scene, browser):
    context, page, problems = signed_in(browser, "bob")
    page.goto(site.url("/boards/classic?player=ada"))
    page.wait_for_load_state("networkidle")
    assert page.inner_text("#signed-in") == "Signed in as bob"
    assert page.text_content("svg.histogram text.marker-mine") == f"ada {classic_score(stack, 'ada')}"
    context.close()
    assert problems == []


# ---- a board's "you and the players you follow" -----------------------------------------------------------

def friends_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#friends tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_signed_in_reader_sees_their_friends_at_each_width(stack, site, scene, browser, width):
    """The stored name, never its token, fills the table: the token is in no request."""
    among = stack.get("/v1/leaderboards/classic?among=ada").json()["entries"]
    assert {"ada", "fay"} <= {entry["player"] for entry in among} and "gus" not in str(among)  # cyd: no open run
    context, page, problems = signed_in(browser, "ada", FRIENDS_TOKEN, width)
    requests = []
    page.on("request", lambda request: requests.append(f"{request.url} {request.headers}"))
    page.goto(site.url("/boards/classic"))
    page.wait_for_selector("#friends tbody tr")
    assert friends_rows(page) == expected_rows(among)
    assert requests and not [request for request in requests if FRIENDS_TOKEN in request]
    page.wait_for_load_state("networkidle")
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    screenshot(page, f"board-friends-{width}")
    context.close()
    assert problems == []


# ---- the front door and the rules -------------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_the_front_door_and_the_rules_in_a_browser(browser, stack, site, width):
    """Both pages at the width, every link answering, no console error (a favicon's 404 would be one)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    try:
        assert page.goto(site.url("/")).status == 200
        screenshot(page, f"front-door-{width}")
        assert not scrolls_sideways(page)
        assert serious_violations(page) == []
        hrefs = page.eval_on_selector_all("main a", "links => links.map(a => a.getAttribute('href'))")
        assert set(PAGE_LINKS.values()) | {"/v1/docs", "/v1/openapi.json"} <= set(hrefs)
        for href in hrefs:
            assert stack.get(href).status_code == 200, href
        page.click("main a[href='/rules']")
        page.wait_for_url(site.url("/rules"))
        assert page.inner_text("h1").startswith("Scoundrel")
        screenshot(page, f"rules-{width}", full_page=False)
        assert not scrolls_sideways(page)
        assert serious_violations(page) == []
        page.goto(site.url("/v1/docs"))
        page.wait_for_selector(".swagger-ui .info")
        assert problems == []
    finally:
        context.close()


# ---- every page: the service's origin only, a description each (issue 44, items 11 and 13) ----------------

def service_pages(scene: dict) -> list[str]:
    run, day = scene["many_runs"][0], scene["daily"]["date"]
    return ["/", "/play", "/rules", "/boards", "/boards/classic", f"/boards/seed/{run['seed']}", "/seasons",
            "/leagues", f"/leagues?player={MANY_RUNS}", "/tournaments", f"/tournaments/{scene['tournament']}",
            "/daily", f"/daily/{day}", f"/players/{MANY_RUNS}", f"/runs/{run['id']}", f"/runs/{NO_SUCH_RUN}",
            f"/share/sealed/{day}/{MANY_RUNS}", SWAGGER_UI]


def off_origin(url: str, origin: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in OWN_SCHEMES and f"{parts.scheme}://{parts.netloc}" != origin


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_asks_only_the_services_origin_and_says_what_it_is(browser, site, scene, width):
    """Each page (the front door, /play, the rules, the boards, seasons, leagues, tournaments, the daily, a
    player, a run's replay, a share page, Swagger UI) with every request it makes recorded: none leaves the
    service's origin (no font, script or image from anyone else). Every page of the service's own carries a
    ``<meta name="description">`` of its own, which search engines show under its title."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    outside, described = {}, {}
    try:
        for path in service_pages(scene):
            asked.clear()
            page.goto(site.url(path), wait_until="networkidle")
            if elsewhere := [url for url in asked if off_origin(url, site.base)]:
                outside[path] = elsewhere
            if path != SWAGGER_UI:
                described[path] = page.eval_on_selector_all(
                    "head meta[name=description]", "metas => metas.map(meta => meta.content.trim())")
    finally:
        context.close()
    assert outside == {}
    assert {path: said for path, said in described.items() if len(said) != 1 or len(said[0]) < 20} == {}
    descriptions = {said[0] for said in described.values()}
    assert len(descriptions) > len(described) - 3  # each page its own (a league's two views share one)


def test_a_players_recent_runs_fit_a_phone(browser, site, scene):
    """Their ids in full: the table no wider than its box, the page no wider than the screen."""
    context = browser.new_context(viewport={"width": 375, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    try:
        page.goto(site.url(f"/players/{MANY_RUNS}"))
        screenshot(page, "player-runs-375")
        runs = page.locator("table.runs")
        box = runs.locator("xpath=..")
        assert runs.locator("tbody tr").count() >= 4
        table_width = runs.evaluate("table => table.getBoundingClientRect().width")
        box_width = box.evaluate("box => box.clientWidth")
        assert table_width <= box_width, f"the runs table is {table_width} px wide in a {box_width} px box"
        for code in runs.locator("tbody td:last-child code").all():  # every id shown in full, inside the page
            edge = code.evaluate("code => code.getBoundingClientRect().right")
            assert edge <= 375 and code.evaluate("code => code.scrollWidth <= code.clientWidth + 1"), code.inner_text()
        assert scene["many_runs"][0]["id"] in runs.inner_text()
        assert not scrolls_sideways(page)
        assert problems == []
    finally:
        context.close()


def test_the_player_page_at_desktop_width(browser, site, scene):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(site.url(f"/players/{MANY_RUNS}"))
        assert not scrolls_sideways(page)
        screenshot(page, "player-runs-1280")
    finally:
        context.close()


# ---- a player's own page: their data and the deletion of their account (issue 33, item 5) ------------------
#
# A player signs up on ``/play``, submits a game, and opens their page: in their browser (which keeps their
# token) it offers "Download my data", saved as ``scoundrel-<name>.json`` with their account and their run, and
# "Delete my account", which asks them to type their name, deletes the account and forgets the token; the
# player is gone from the API after. Anyone else's browser is offered neither.

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


def signed_up(stack, site, page) -> tuple[str, str]:
    """A player signed up on /play in this browser, with one game submitted: ``(name, token)``."""
    name = f"acc-{uuid.uuid4().hex[:8]}"
    page.goto(site.url("/play"))
    page.wait_for_selector("body[data-ready='true']")
    page.fill("#signup-name", name)
    page.click("#signup button[type=submit]")
    expect(page.locator("#player-name")).to_have_text(name)
    token = json.loads(page.evaluate(f"() => localStorage.getItem('{STORAGE_KEY}')"))["token"]
    submitted = stack.submit(token, legal_games(1)[0])
    assert submitted.status_code == 202, submitted.text
    stack.wait_final(submitted.json()["id"])
    return name, token


def open_player_page(site, page, name: str) -> None:
    """``/players/<name>``, once its script has shown the account's section or left it hidden."""
    page.goto(site.url(f"/players/{name}"))
    page.wait_for_selector("body[data-ready='true']")


def open_own_page(site, page, name: str) -> None:
    open_player_page(site, page, name)
    expect(page.locator("#account")).to_be_visible()


def clean(page, *refused: int) -> None:
    """No console error but the browser's own note of each API refusal the test caused (statuses ``refused``)."""
    notes = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in refused)
    assert [problem for problem in page.problems if not problem.startswith(notes)] == []


def test_a_player_downloads_their_data_then_deletes_their_account_after_typing_its_name(context_at, stack, site):
    page = context_at(1280)
    name, _ = signed_up(stack, site, page)
    open_own_page(site, page, name.upper())  # names ignore case: the page is theirs in any spelling
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
    assert page.evaluate(f"() => localStorage.getItem('{STORAGE_KEY}')") is None
    assert stack.get(f"/v1/players/{name}/runs").status_code == 404
    page.locator("#account").scroll_into_view_if_needed()
    screenshot(page, "player-account-deleted-1280", full_page=False)
    clean(page)


def test_another_browser_and_another_players_page_offer_neither(context_at, stack, site):
    page = context_at(1280)
    name, _ = signed_up(stack, site, page)
    other, _ = stack.register()
    open_player_page(site, page, other)
    expect(page.locator("#signed-in")).to_have_text(f"Signed in as {name}")
    expect(page.locator("#account")).to_be_hidden()
    stranger = context_at(1280)
    open_player_page(site, stranger, name)
    expect(stranger.locator("#account")).to_be_hidden()
    clean(page)


def test_a_token_the_referee_no_longer_takes_is_explained_and_nothing_is_deleted(context_at, stack, site, moderator):
    page = context_at(1280)
    name, _ = signed_up(stack, site, page)
    replaced = stack.post(f"/v1/players/{name}/revoke-token", headers={"Authorization": f"Bearer {moderator}"})
    assert replaced.status_code == 200, replaced.text
    open_own_page(site, page, name)
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
def test_the_account_section_at_each_width_fits_and_has_no_serious_accessibility_violation(context_at, stack, site,
                                                                                          width):
    page = context_at(width)
    name, _ = signed_up(stack, site, page)
    open_own_page(site, page, name)
    page.click("#account-delete")
    page.fill("#delete-name", "not-the-name")
    page.click("#account-delete-yes")
    expect(page.locator("#delete-error")).not_to_be_empty()
    assert not scrolls_sideways(page)
    assert serious_violations(page) == []
    page.locator("#account").scroll_into_view_if_needed()
    screenshot(page, f"player-account-{width}")
    clean(page)
