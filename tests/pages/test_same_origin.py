"""Issue 44, items 11 and 13: every page of the service, in headless Chromium against a real stack.

Each page (the front door, /play, the rules, the boards, seasons, leagues,
tournaments, the daily, a player, a run's replay, a share page, Swagger UI)
is loaded at 1280 and 375 px with every request it makes recorded: none of
them leaves the service's origin (no font, script or image from anyone
else). Every page of the service's own carries a ``<meta name="description">``
of its own, which search engines show under its title. A player's recent runs,
their ids in full, fit a 375 px phone: the table is no wider than its box, and
the page no wider than the screen. Screenshots go to ``test-artifacts/``.
"""

from urllib.parse import urlsplit

import pytest

from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways
from tests.support.games import accept_dealt, games_by_score, legal_games, moderator_token

pytestmark = [pytest.mark.served, pytest.mark.slow]  # pages in Chromium, which loads them over HTTP

PLAYER = "ada-of-the-many-runs"
NO_SUCH_RUN = "0" * 26
SWAGGER_UI = "/v1/docs"  # flask-smorest's page, not one of the service's templates: no description of its own
OWN_SCHEMES = ("data", "blob", "about")  # no request to any server


@pytest.fixture(scope="module")
def scene(stack) -> dict:
    """A player with open runs and a sealed daily, and a tournament: enough for every page to have content."""
    daily = stack.get("/v1/daily").json()
    _, token = stack.register(PLAYER)
    runs = [stack.wait_final(stack.submit(token, game).json()["id"]) for game in legal_games(3)]
    accept_dealt(stack, PLAYER, games_by_score("same-origin", 1)[0], challenge="daily", date=daily["date"])
    tournament = stack.post("/v1/tournaments", headers={"Authorization": f"Bearer {moderator_token(stack)}"}, json={
        "title": "Origin cup", "variant": "hard", "starts_at": "2026-01-01T00:00:00Z",
        "ends_at": "2099-01-01T00:00:00Z", "deals": 1, "max_attempts": 1})
    assert tournament.status_code == 201, tournament.text
    return {"day": daily["date"], "run": runs[0], "tournament": tournament.json()["id"]}


def service_pages(scene: dict) -> list[str]:
    run = scene["run"]
    return ["/", "/play", "/rules", "/boards", "/boards/classic", f"/boards/seed/{run['seed']}", "/seasons",
            "/leagues", f"/leagues?player={PLAYER}", "/tournaments", f"/tournaments/{scene['tournament']}",
            "/daily", f"/daily/{scene['day']}", f"/players/{PLAYER}", f"/runs/{run['id']}", f"/runs/{NO_SUCH_RUN}",
            f"/share/sealed/{scene['day']}/{PLAYER}", SWAGGER_UI]


def off_origin(url: str, origin: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in OWN_SCHEMES and f"{parts.scheme}://{parts.netloc}" != origin


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_asks_only_the_services_origin_and_says_what_it_is(browser, stack, scene, width):
    origin = stack.url("")
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    outside, described = {}, {}
    try:
        for path in service_pages(scene):
            asked.clear()
            page.goto(stack.url(path), wait_until="networkidle")
            if elsewhere := [url for url in asked if off_origin(url, origin)]:
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


def test_a_players_recent_runs_fit_a_phone(browser, stack, scene):
    context = browser.new_context(viewport={"width": 375, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    try:
        page.goto(stack.url(f"/players/{PLAYER}"))
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
        assert scene["run"]["id"] in runs.inner_text()
        assert not scrolls_sideways(page)
        assert problems == []
    finally:
        context.close()


def test_the_player_page_at_desktop_width(browser, stack, scene):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(stack.url(f"/players/{PLAYER}"))
        assert not scrolls_sideways(page)
        screenshot(page, "player-runs-1280")
    finally:
        context.close()
