"""A board page's "you and the players you follow": the reader and those they follow, ranked among
themselves, each with their place on the whole board, as the JSON's ``?among=`` lists them.

Six players with a run each on the classic board (scores from the engine's
own players), ada following three of them (one with no place). Content is
checked with JavaScript off for ``?player=``, and with it on for a browser
signed in on /play (whose stored name, never its token, fills the table);
the look at 1280 and 375 px with axe-core.
"""

import pytest

from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.games import games_by_score

pytestmark = pytest.mark.served  # pages in Chromium, which loads them over HTTP

STORAGE_KEY = "scoundrel.player"
TOKEN = "sr_kept-in-this-browser-only"
PLAYERS = ("ada", "bob", "cyd", "dee", "eve", "fay")


@pytest.fixture(scope="module")
def scene(stack):
    tokens = {name: stack.register(name)[1] for name in (*PLAYERS, "gus")}
    games = games_by_score("friends-page", len(PLAYERS))
    for run_id in [stack.submit(tokens[name], game).json()["id"] for name, game in zip(PLAYERS, games, strict=True)]:
        assert stack.wait_final(run_id)["status"] == "verified"
    for other in ("cyd", "fay", "gus"):  # gus has no place
        response = stack.http.put(stack.url(f"/v1/players/ada/following/{other}"),
                                  headers={"Authorization": f"Bearer {tokens['ada']}"}, timeout=10)
        assert response.status_code == 204
    return stack.get("/v1/leaderboards/classic?among=ada").json()["entries"]


def friends_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#friends tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")


def expected_rows(entries: list[dict]) -> list[list[str]]:
    return [[str(entry["rank"]), entry["player"], str(entry["score"]).replace("-", "−"), str(entry["global_rank"])]
            for entry in entries]


def test_a_looked_up_players_friends_are_ranked_among_themselves(stack, scene, browser):
    assert [entry["player"] for entry in scene] and "gus" not in {entry["player"] for entry in scene}
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(stack.url("/boards/classic?player=ADA"))
    assert page.text_content("#friends-heading") == "ada and the players they follow"
    assert friends_rows(page) == expected_rows(scene)
    fay = next(entry for entry in scene if entry["player"] == "fay")
    link = page.get_attribute("#friends tbody tr:has-text('fay') td:last-child a", "href")
    assert link == f"/boards/classic?page=1#place-{fay['global_rank']}"
    page.goto(stack.url("/boards/classic"))  # nobody asked about: a placeholder, no table
    assert page.text_content("#friends-heading") == "You and the players you follow"
    assert friends_rows(page) == []
    page.goto(stack.url("/boards/dealt-classic-ladder?player=ada"))
    assert "Neither ada nor anyone they follow has a place" in page.inner_text("#friends")
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_signed_in_reader_sees_their_friends_at_each_width(stack, scene, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script(f"localStorage.setItem({STORAGE_KEY!r}, JSON.stringify({{name: 'ada', token: {TOKEN!r}}}))")
    page = context.new_page()
    problems = console_problems(page)
    requests = []
    page.on("request", lambda request: requests.append(f"{request.url} {request.headers}"))
    page.goto(stack.url("/boards/classic"))
    page.wait_for_selector("#friends tbody tr")
    assert friends_rows(page) == expected_rows(scene)
    assert requests and not [request for request in requests if TOKEN in request]  # the token is never sent
    page.wait_for_load_state("networkidle")
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    screenshot(page, f"board-friends-{width}")
    context.close()
    assert problems == []
