"""The site's pages in headless Chromium: what only a browser shows.

What a page says, links to and lists is read from its HTML in the test process
(``test_board_pages.py``, ``test_friends_page.py``, ``test_front_door.py``).
Here the pages are loaded in Chromium from the module's in-process stack,
served over HTTP by the test process (``tests.support.browser.serving``), to
check what needs a browser: the look at 1280 and 375 px (nothing wider than
a phone's screen) with axe-core, no console error, the scripts that fill in
a signed-in reader's line and friends and tick a countdown, a player's own
page offering their data and their account's deletion, ``/play`` framed by
a studio's page and signed in by its token, and that no page asks anything
of another origin. Screenshots go to ``test-artifacts/``.

The scene is the board pages' (``test_board_pages.board_scene``), and ada
following three players (one with no place), and a player of many runs
with a sealed daily.

The replay viewer at ``/runs/<id>`` (issue 4) steps through a run with
buttons, keys and a slider, shows each position as the engine has it,
highlights a rejected move and its reason, and shows a moderator the moves'
times and the run's flags. It and ``/play`` say "in the public log at #N" once the browser has
checked it. The page checks the run's place with the JS client
(``checkLogged``): the log's key, the latest checkpoint and its signature,
the run's leaf and its inclusion proof to the checkpoint's root. The log the
browser asks is one this test builds from the specifications alone
(``tests/support/public_log.py``: RFC 9162's tree and proofs, a C2SP
checkpoint signed with ``cryptography``'s Ed25519): Playwright answers
``/v1/log/*`` from it and adds the run's ``log`` place to the service's own
``/v1/runs/<id>`` answer, so the pages are held to the formats rather than
to one implementation of them. A forged checkpoint or proof is said
plainly; a run the log does not hold shows nothing; a run logged after the
latest checkpoint is checked once the next is signed (issue 47).
"""

import base64
import json
import random
import re
import time
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest

import scoundrel
from tests.audit.conftest import submit_final
from tests.games.table import Table
from tests.support.browser import (
    WIDTHS,
    blank_slate,
    console_clean,
    console_problems,
    each_width,
    init_script,
    looked_at,
    own_page,
    screenshot,
    scrolls_sideways,
    serious_violations,
    until_shown,
)
from tests.support.games import (
    accept_dealt,
    games_by_score,
    legal_games,
    moderator_token,
    play_at_machine_speed,
    winning_moves,
)
from tests.support.in_process import stack_of
from tests.support.public_log import (
    NoteKey,
    b64,
    canonical,
    checkpoint_text,
    inclusion_proof,
    leaf_hash,
    signed_note,
    tree_root,
)
from tests.support.served import Served

from .test_board_pages import board_scene, everyone, number
from .test_friends_page import expected_rows
from .test_front_door import PAGE_LINKS
from .test_play import legal, open_play, sign_up, stored

pytestmark = pytest.mark.slow

expect = pytest.importorskip("playwright.sync_api").expect

STORAGE_KEY = "scoundrel.player"
FRIENDS_TOKEN = "sr_kept-in-this-browser-only"
MANY_RUNS = "ada-of-the-many-runs"
NO_SUCH_RUN = "0" * 26
SWAGGER_UI = "/v1/docs"  # flask-smorest's page, not one of the service's templates: no description of its own
OWN_SCHEMES = ("data", "blob", "about")  # no request to any server


@pytest.fixture(scope="module")
def studio_origins():
    """Two sites of origins of their own: a studio's, which the service trusts to frame /play, and a stranger's."""
    studio, stranger = OtherOrigin(), OtherOrigin()
    yield studio, stranger
    studio.close()
    stranger.close()


@pytest.fixture(scope="module")
def stack(request, studio_origins):
    """The module's service (in this process), trusting the studio's origin to frame /play and its tokens."""
    issuers = [{"issuer": ISSUER, "audience": AUDIENCE, "secret": SECRET}]
    yield from stack_of(request, {"SCOUNDREL_JWT_ISSUERS": json.dumps(issuers),
                                  "SCOUNDREL_EMBED_ORIGINS": studio_origins[0].origin})


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


def signed_in(page, site, name: str, token: str = "x"):
    """``page`` made a fresh browser's (``blank_slate``) whose /play sign-up holds ``name``."""
    blank_slate(page, site.base)
    stored = f"JSON.stringify({{name: {name!r}, token: {token!r}}})"
    init_script(page, f"localStorage.setItem({STORAGE_KEY!r}, {stored})")
    return page


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


@pytest.fixture(scope="module")
def reader(browser):
    """One browser page for the board pages and the replay viewer's visits, loaded one after another as a reader
    going from one page to the next loads them: nobody is signed in and nothing is stored (a moderator's token is
    asked for by other tests, in a page of their own), so no page has anything to find of the one before. Their
    renderer, and axe-core's script compiled there, serve every page: the eight board pages cost 4.5 s of CPU so,
    6.3 s with a context each. Its console problems (``page.problems``) are each test's own (``visitor``)."""
    with own_page(browser, WIDTHS[0]) as page:
        yield page


@pytest.fixture(scope="module")
def tab(browser):
    """The one page the module's tests that need a fresh browser take in turn (``page``), in a context of its
    own; its console problems are ``page.problems``."""
    with own_page(browser, WIDTHS[0], accept_downloads=True) as opened:
        yield opened


@pytest.fixture
def page(tab, site):
    """A page of a fresh browser (nothing stored) at 1280 px, nothing loaded yet (``blank_slate``)."""
    return blank_slate(tab, site.base)


@pytest.fixture
def visitor(reader):
    """The reader's page (``reader``) for a test of its own: at 1280 px, its console problems cleared."""
    reader.problems.clear()
    reader.set_viewport_size({"width": WIDTHS[0], "height": 900})
    return reader


@pytest.mark.parametrize("name", BOARD_PAGES)
def test_each_page_fits_each_width_with_no_serious_accessibility_violation(site, scene, visitor, name):
    page = visitor
    page.goto(site.url(BOARD_PAGES[name].format(tournament=scene["tournament"])))
    page.wait_for_load_state("networkidle")
    looked_at(page, name)
    assert page.problems == []


def test_a_tournaments_countdown_ticks_from_the_referees_clock(stack, site, scene, page):
    ends = datetime.now(UTC) + timedelta(minutes=30)
    soon = stack.post("/v1/tournaments", headers={"Authorization": f"Bearer {moderator_token(stack, 'tic')}"},
                      json={"title": "Soon", "starts_at": "2026-01-01T00:00:00Z", "ends_at": ends.isoformat()}).json()
    page.goto(site.url(f"/tournaments/{soon['id']}"))
    first = page.inner_text("[data-countdown]")
    assert re.fullmatch(r"(29|30):\d\d", first), first  # minutes and seconds, from the referee's figure
    page.wait_for_function("first => document.querySelector('[data-countdown]').innerText !== first", arg=first,
                           polling=100, timeout=10_000)  # the script ticks it each second
    assert page.inner_text("[data-countdown]") < first  # counting down


def classic_score(stack, player: str) -> str:
    """The player's score on the classic board, as the chart prints it."""
    return number(next(entry for entry in everyone(stack, "/v1/leaderboards/classic")
                       if entry["player"] == player)["score"])


MARKED_YOU = "document.querySelector('svg.histogram text.marker-mine').textContent.startsWith('you')"


def test_a_signed_in_browser_sees_its_own_line_filled_in(stack, site, scene, tab):
    page = signed_in(tab, site, "ada")
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
    assert page.problems == []


def test_another_signed_in_reader_sees_the_looked_up_players_name_on_the_marker(stack, site, scene, tab):
    page = signed_in(tab, site, "bob")
    page.goto(site.url("/boards/classic?player=ada"))
    page.wait_for_load_state("networkidle")
    assert page.inner_text("#signed-in") == "Signed in as bob"
    assert page.text_content("svg.histogram text.marker-mine") == f"ada {classic_score(stack, 'ada')}"
    assert page.problems == []


# ---- a board's "you and the players you follow" -----------------------------------------------------------

def friends_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#friends tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")


def test_a_signed_in_reader_sees_their_friends_at_each_width(stack, site, scene, tab):
    """The stored name, never its token, fills the table: the token is in no request."""
    among = stack.get("/v1/leaderboards/classic?among=ada").json()["entries"]
    assert {"ada", "fay"} <= {entry["player"] for entry in among} and "gus" not in str(among)  # cyd: no open run
    page = signed_in(tab, site, "ada", FRIENDS_TOKEN)
    requests = []

    def sent(request):
        requests.append(f"{request.url} {request.headers}")

    page.on("request", sent)
    page.goto(site.url("/boards/classic"))
    page.wait_for_selector("#friends tbody tr")
    assert friends_rows(page) == expected_rows(among)
    assert requests and not [request for request in requests if FRIENDS_TOKEN in request]
    page.wait_for_load_state("networkidle")
    looked_at(page, "board-friends")
    page.remove_listener("request", sent)
    assert page.problems == []


# ---- the front door and the rules -------------------------------------------------------------------------

def test_the_front_door_and_the_rules_in_a_browser(page, stack, site):
    """Both pages at each width, every link answering, no console error (a favicon's 404 would be one)."""
    assert page.goto(site.url("/")).status == 200
    looked_at(page, "front-door")
    hrefs = page.eval_on_selector_all("main a", "links => links.map(a => a.getAttribute('href'))")
    assert set(PAGE_LINKS.values()) | {"/v1/docs", "/v1/openapi.json"} <= set(hrefs)
    for href in hrefs:
        assert stack.get(href).status_code == 200, href
    page.click("main a[href='/rules']")
    page.wait_for_url(site.url("/rules"))
    assert page.inner_text("h1").startswith("Scoundrel")
    looked_at(page, "rules", full_page=False)
    assert page.problems == []


# ---- every page: the service's origin only, a description each (issue 44, items 11 and 13) ----------------

def service_pages(scene: dict) -> list[str]:
    run, day = scene["many_runs"][0], scene["daily"]["date"]
    return ["/", "/play", "/rules", "/boards", "/boards/classic", f"/boards/seed/{run['seed']}", "/seasons",
            "/leagues", f"/leagues?player={MANY_RUNS}", "/tournaments", f"/tournaments/{scene['tournament']}",
            "/daily", f"/daily/{day}", f"/players/{MANY_RUNS}", f"/runs/{run['id']}", f"/runs/{NO_SUCH_RUN}",
            f"/share/sealed/{day}/{MANY_RUNS}", SWAGGER_UI]


# Two frames drawn: the page's layout at a new width done, and whatever it asks for then asked.
NEXT_FRAMES = "() => new Promise(drawn => requestAnimationFrame(() => requestAnimationFrame(drawn)))"


def off_origin(url: str, origin: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in OWN_SCHEMES and f"{parts.scheme}://{parts.netloc}" != origin


def test_every_page_asks_only_the_services_origin_and_says_what_it_is(browser, site, scene):
    """Each page (the front door, /play, the rules, the boards, seasons, leagues, tournaments, the daily, a
    player, a run's replay, a share page, Swagger UI) with every request it makes recorded, loaded at one width
    and laid out at the other (what a media query would fetch is asked then): none leaves the service's origin
    (no font, script or image from anyone else). Every page of the service's own carries a
    ``<meta name="description">`` of its own, which search engines show under its title. Swagger UI, linked
    from the front door, shows the API with no console error (its scripts within the page's policy)."""
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900})
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    problems = console_problems(page)
    outside, described = {}, {}
    try:
        for path in service_pages(scene):
            asked.clear()
            problems.clear()
            page.set_viewport_size({"width": WIDTHS[0], "height": 900})
            page.goto(site.url(path), wait_until="networkidle")
            if path == SWAGGER_UI:
                page.wait_for_selector(".swagger-ui .info")
            page.set_viewport_size({"width": WIDTHS[1], "height": 900})
            page.evaluate(NEXT_FRAMES)
            if elsewhere := [url for url in asked if off_origin(url, site.base)]:
                outside[path] = elsewhere
            if path == SWAGGER_UI:
                swagger_problems = list(problems)
            else:
                described[path] = page.eval_on_selector_all(
                    "head meta[name=description]", "metas => metas.map(meta => meta.content.trim())")
    finally:
        context.close()
    assert outside == {}
    assert swagger_problems == []
    assert {path: said for path, said in described.items() if len(said) != 1 or len(said[0]) < 20} == {}
    descriptions = {said[0] for said in described.values()}
    assert len(descriptions) > len(described) - 3  # each page its own (a league's two views share one)


def test_a_players_recent_runs_fit_a_phone_and_the_desktop(tab, site, scene):
    """Their ids in full: the table no wider than its box, the page no wider than the screen."""
    page = blank_slate(tab, site.base, {"width": 375, "height": 900})
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
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not scrolls_sideways(page)
    screenshot(page, "player-runs-1280")
    assert page.problems == []


# ---- a player's own page: their data and the deletion of their account (issue 33, item 5) ------------------
#
# A player signs up on ``/play``, submits a game, and opens their page: in their browser (which keeps their
# token) it offers "Download my data", saved as ``scoundrel-<name>.json`` with their account and their run, and
# "Delete my account", which asks them to type their name, deletes the account and forgets the token; the
# player is gone from the API after. Anyone else's browser is offered neither.

@pytest.fixture
def context_at(browser, tab, site):
    """A fresh browser (nothing stored) of the given width: the module's page made blank (``blank_slate``) the
    first time, a context of its own (closed after the test) each time after, another browser."""
    opened = []

    def open_at(width: int):
        if not opened:
            opened.append(None)
            return blank_slate(tab, site.base, {"width": width, "height": 900})
        context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
        opened.append(context)
        page = context.new_page()
        page.problems = console_problems(page)
        return page

    yield open_at
    for context in opened[1:]:
        context.close()


def signed_up(stack, site, page) -> tuple[str, str]:
    """A player signed up on /play in this browser, with one game submitted: ``(name, token)``."""
    open_play(site, page)
    name = sign_up(page, f"acc-{uuid.uuid4().hex[:8]}")
    token = stored(page, STORAGE_KEY)["token"]
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
    console_clean(page)


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
    console_clean(page)


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
    console_clean(page, 401)


def test_the_account_section_at_each_width_fits_and_has_no_serious_accessibility_violation(context_at, stack, site):
    page = context_at(WIDTHS[0])
    name, _ = signed_up(stack, site, page)
    open_own_page(site, page, name)
    page.click("#account-delete")
    page.fill("#delete-name", "not-the-name")
    page.click("#account-delete-yes")
    expect(page.locator("#delete-error")).not_to_be_empty()
    looked_at(page, "player-account", shown="#account")
    console_clean(page)


# ---- the replay viewer ------------------------------------------------------------------------------------

WON_SEED = "view-1"


@pytest.fixture(scope="module")
def won(stack):
    _, token = stack.register()
    run = submit_final(stack, token, {"seed": WON_SEED, "moves": winning_moves(WON_SEED)})
    assert run["outcome"] == "won"
    return run


@pytest.fixture(scope="module")
def rejected(stack):
    moves = winning_moves(WON_SEED)
    trace = scoundrel.replay(WON_SEED, moves, trace=True).steps
    # a weapon fight the weapon may not fight (R10): the first fight after a kill, against a stronger monster
    index = next(i for i, step in enumerate(trace) if step.last_kill and i + 1 < len(trace)
                 and _stronger_monster(trace[i]))
    monster = _stronger_monster(trace[index])
    bad = moves[: index + 1] + [f"{monster}w"]
    verdict = scoundrel.replay(WON_SEED, bad)
    assert verdict.error.code == "weapon_not_usable"
    _, token = stack.register()
    return submit_final(stack, token, {"seed": WON_SEED, "moves": bad}), index + 1


def _stronger_monster(step) -> str | None:
    last = int(step.last_kill[1:]) if step.last_kill else None
    return next((card for card in step.room_after if card[0] in "SC" and last is not None
                 and int(card[1:]) >= last), None)


def open_viewer(site, page, run_id: str):
    page.goto(site.url(f"/runs/{run_id}"))
    page.wait_for_selector("body[data-ready='true']", timeout=10_000)


def shown(page) -> dict:
    return {
        "health": page.inner_text("#health-value"),
        "room": page.eval_on_selector_all("#room .card.face", "cards => cards.map(c => c.dataset.card)"),
        "weapon": page.eval_on_selector_all("#weapon .card.wielded", "cards => cards.map(c => c.dataset.card)"),
        "kills": page.eval_on_selector_all("#kills .card.kill", "cards => cards.map(c => c.dataset.card)"),
        "dungeon": page.inner_text("#dungeon-count"),
        "position": page.inner_text("#position"),
    }


def expected(seed: str, moves: list[str], position: int) -> dict:
    """What the page should show after ``position`` moves, from the engine itself."""
    if position == 0:
        state = scoundrel.start(scoundrel.deal(seed))
        room, health, weapon, kills, dungeon = list(state.room), state.health, None, [], len(state.dungeon)
    else:
        step = scoundrel.replay(seed, moves, trace=True).steps[position - 1]
        room, health, weapon, kills, dungeon = (list(step.room_after), step.health, step.weapon,
                                                list(step.kills), step.dungeon)
    return {"health": f"{health} / 20", "room": room, "weapon": [weapon] if weapon else [], "kills": kills,
            "dungeon": str(dungeon)}


def test_a_won_run_steps_with_buttons_keys_and_the_slider(stack, site, visitor, won):
    page = visitor
    moves, total = won["moves"], len(won["moves"])
    open_viewer(site, page, won["id"])
    assert page.title() == f"Run {won['id']} · Scoundrel Referee"
    assert {**shown(page), "position": None} == {**expected(WON_SEED, moves, 0), "position": None}
    assert shown(page)["position"] == f"Move 0 / {total}"
    assert page.is_disabled("#prev") and page.is_hidden("#final") and page.is_hidden("#error")

    page.click("#next")
    page.click("#next")
    assert shown(page) == {**expected(WON_SEED, moves, 2), "position": f"Move 2 / {total}"}
    page.click("#prev")
    assert shown(page)["position"] == f"Move 1 / {total}"

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert shown(page) == {**expected(WON_SEED, moves, 4), "position": f"Move 4 / {total}"}
    page.keyboard.press("ArrowLeft")
    assert shown(page)["position"] == f"Move 3 / {total}"

    # a weapon with kills: the slider jumps to the first position that shows one
    trace = scoundrel.replay(WON_SEED, moves, trace=True).steps
    with_kills = next(i + 1 for i, step in enumerate(trace) if len(step.kills) >= 2)
    page.fill("#slider", str(with_kills))
    now = shown(page)
    assert now == {**expected(WON_SEED, moves, with_kills), "position": f"Move {with_kills} / {total}"}
    assert len(now["kills"]) >= 2 and now["weapon"]
    assert page.inner_text("#move-text").startswith(f"Move {with_kills}: {moves[with_kills - 1]}.")
    screenshot(page, "viewer-won-midgame")

    page.keyboard.press("End")
    assert shown(page) == {**expected(WON_SEED, moves, total), "position": f"Move {total} / {total}"}
    assert page.is_visible("#final")
    assert page.inner_text("#score") == f"Score {won['score']}"
    assert "Won" in page.inner_text("#final")
    assert page.is_disabled("#next")
    screenshot(page, "viewer-won-end")


def test_a_rejected_run_highlights_the_offending_move_and_the_reason(stack, site, visitor, rejected):
    page = visitor
    run, applied = rejected
    moves = run["moves"]
    open_viewer(site, page, run["id"])
    assert page.text_content("#status") == "rejected"
    assert page.is_hidden("#error")
    page.keyboard.press("End")
    assert shown(page) == {**expected(WON_SEED, moves[:applied], applied), "position": f"Move {applied} / {applied}"}
    assert page.is_visible("#error")
    error = page.inner_text("#error")
    assert f"Move {applied + 1} ({moves[applied]}) is rejected: weapon_not_usable (R10)" in error
    assert run["error"]["message"] in error
    offending = page.eval_on_selector_all("#room .card.offending", "cards => cards.map(c => c.dataset.card)")
    assert offending == [moves[applied][:-1]]
    assert page.inner_text("#moves li.offending") == moves[applied]
    assert page.is_hidden("#final")
    screenshot(page, "viewer-rejected")
    page.keyboard.press("Home")
    assert page.is_hidden("#error") and shown(page)["position"] == f"Move 0 / {applied}"


def test_the_viewer_fits_each_width_and_has_no_serious_accessibility_violation(stack, site, visitor, won):
    page = visitor
    open_viewer(site, page, won["id"])
    page.keyboard.press("End")
    looked_at(page, "viewer")
    assert page.problems == []


def test_a_visitor_sees_no_token_field_only_the_moderators_closed_panel(stack, site, visitor, won):
    """The moderators' token field is behind "For moderators"; opened, it is styled as the page is."""
    page = visitor
    open_viewer(site, page, won["id"])
    for width in each_width(page):
        assert page.is_hidden("#moderator-token") and page.is_visible("#moderator-panel summary"), width
    assert "Moderator token" not in page.inner_text("main")
    page.click("#moderator-panel summary")
    for width in each_width(page):
        assert page.is_visible("#moderator-token"), width
        field = page.eval_on_selector("#moderator-token", "input => { const s = getComputedStyle(input); "
                                                         "return [s.backgroundColor, s.borderRadius]; }")
        assert field == ["rgba(0, 0, 0, 0.35)", "8px"], width  # the site's field, not the browser's white box
    looked_at(page, "viewer-moderator", full_page=False, shown="#moderator-panel")


def test_an_unknown_run_gets_a_404_page(stack, site, visitor):
    page = visitor
    response = page.goto(site.url("/runs/0000000000000000"))
    assert response.status == 404
    assert "No run" in page.inner_text("#missing h1")
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"  # a refusal, as the other pages' are


def test_a_sealed_daily_run_before_its_day_ends_says_the_apis_sentence_and_shows_no_empty_viewer(stack, site, page):
    _, token = stack.register()
    auth = {"Authorization": f"Bearer {token}"}
    game = stack.post("/v1/games", json={"challenge": "daily"}, headers=auth).json()
    over = stack.post(f"/v1/games/{game['id']}/forfeit", json={"expected_moves": 0}, headers=auth).json()
    refused = stack.get(f"/v1/runs/{over['run_id']}/replay")
    assert refused.status_code == 403
    page.goto(site.url(f"/runs/{over['run_id']}"))
    page.wait_for_selector("#loading.refused")
    assert page.inner_text("#loading") == refused.json()["message"]  # the API's own sentence, not "HTTP 403"
    for width in each_width(page):
        for viewer in ("#table", "#controls", "#moves"):
            assert not page.is_visible(viewer), (viewer, width)
        screenshot(page, f"viewer-sealed-{width}", full_page=False)


def test_the_viewer_page_is_revalidated_before_reuse(stack, won):
    response = stack.get(f"/runs/{won['id']}")
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_viewer_assets_are_served(stack):
    assert stack.get("/assets/viewer.js").status_code == 200
    assert stack.get("/assets/viewer.css").headers["Content-Type"].startswith("text/css")


def test_a_moderator_sees_the_server_time_of_each_move_of_a_dealt_game(stack, site, page, moderator):
    _, token = stack.register()
    table = Table(stack, token, random.Random(12))
    table.start()
    game = table.play_to_the_end()
    stack.wait_final(game["run_id"])
    open_viewer(site, page, game["run_id"])
    assert page.eval_on_selector_all("#moves .move-time", "times => times.length") == 0
    page.click("#moderator-panel summary")
    page.fill("#moderator-token", moderator)
    page.click("#moderator-show")
    page.wait_for_selector("body[data-ready='true']", timeout=10_000)
    times = page.eval_on_selector_all("#moves .move-time", "times => times.map(t => t.title)")
    replay = stack.get(f"/v1/runs/{game['run_id']}/replay", headers={"Authorization": f"Bearer {moderator}"}).json()
    assert times == replay["move_times"] and len(times) == len(game["moves"])


def test_a_moderator_sees_a_run_s_flags_on_the_viewer_and_dismisses_one(stack, site, page, moderator):
    game, _ = play_at_machine_speed(stack)
    run = stack.get(f"/v1/runs/{game['run_id']}").json()
    auth = {"Authorization": f"Bearer {moderator}"}
    listed = stack.until(lambda: stack.get("/v1/flags", params={"run_id": run["id"]}, headers=auth).json()["entries"],
                         "the bot-speed game's flag")
    assert "fast_moves" in [flag["reason"] for flag in listed]

    open_viewer(site, page, run["id"])
    assert page.is_hidden("#flags")  # not a moderator yet: nothing of the flags is shown
    page.click("#moderator-panel summary")
    page.fill("#moderator-token", moderator)
    page.click("#moderator-show")
    page.wait_for_selector("body[data-ready='true']", timeout=10_000)
    shown_reasons = page.eval_on_selector_all("#flag-list .flag-reason", "reasons => reasons.map(r => r.textContent)")
    assert shown_reasons == [flag["reason"] for flag in listed]
    fast = next(flag for flag in listed if flag["reason"] == "fast_moves")
    item = f"#flag-list li[data-flag-id='{fast['id']}']"
    assert f"over {fast['detail']['timed_moves']} moves" in page.inner_text(item)
    assert serious_violations(page) == []
    screenshot(page, "viewer-flags")

    page.click(f"{item} .flag-dismiss")
    page.wait_for_selector(f"#flag-list li.dismissed[data-flag-id='{fast['id']}']", timeout=10_000)
    assert "dismissed by mia" in page.inner_text(item)
    [after] = [flag for flag in stack.get("/v1/flags", params={"run_id": run["id"]}, headers=auth).json()["entries"]
               if flag["id"] == fast["id"]]
    assert after["status"] == "dismissed" and after["dismissed"]["moderator"] == "mia"
    page.set_viewport_size({"width": 375, "height": 900})
    assert not scrolls_sideways(page)


# ---- its place in the public log ---------------------------------------------------------------------

ORIGIN = "referee.example/log"
CHECKED = re.compile(r"^In the public log at #(\d+), checked in this browser against the log's signed checkpoint "
                     r"of (\d+) entries\.$")
RECHECK_WAIT = 15_000  # ms: the page checks a run logged after the latest checkpoint again every 5 s
RUN_PATH = re.compile(r"/v1/runs/([^/?]+)$")


FORGERIES = {  # what a forger may change, and what the page says of it
    "key": f"no signature by {ORIGIN} on the note",  # a checkpoint signed by another key of the log's name
    "size": f"the signature by {ORIGIN} does not verify: the note is not what the key signed",  # changed, once signed
    "proof": "the inclusion proof of #11 does not lead to the root of the tree of 15",  # a bit of a hash flipped
}


class RoutedLog:
    """A public log the browser is answered from: leaves of other runs around the runs placed in it, a checkpoint
    signed at ``signed_size`` (None: the whole log), and the API's answers for them, forged as ``forgery``
    (one of FORGERIES) says."""

    def __init__(self) -> None:
        self.key = NoteKey.from_seed(ORIGIN, "scoundrel referee: the pages' log key")
        self.leaves: list[str] = []
        for index in range(11):
            self._append(f"other-{index}")
        self.places: dict[str, int] = {}
        self.signed_size: int | None = None
        self.forgery: str | None = None

    def _append(self, run_id: str, run: dict | None = None) -> int:
        """The index of a new leaf of the run's verdict, as the service's leaves have it."""
        run = run or {"status": "verified", "score": -40, "variant": "classic"}
        index = len(self.leaves)
        self.leaves.append(canonical({"index": index, "kind": "verdict", "run": run_id, "verdict": run["status"],
                                      "score": run.get("score"), "variant": run.get("variant")}))
        return index

    def place(self, run: dict) -> int:
        """The run's index in the log, appending its leaf (and three of other runs after it) the first time."""
        if run["id"] not in self.places:
            self.places[run["id"]] = self._append(run["id"], run)
            for later in range(3):
                self._append(f"later-{later}")
        return self.places[run["id"]]

    def _raw(self) -> list[bytes]:
        return [leaf.encode() for leaf in self.leaves]

    def checkpoint(self) -> str:
        size = len(self.leaves) if self.signed_size is None else self.signed_size
        signer = NoteKey.from_seed(ORIGIN, "a forger's key") if self.forgery == "key" else self.key
        note = signed_note(checkpoint_text(ORIGIN, size, tree_root(self._raw()[:size])), signer)
        return note.replace(f"\n{size}\n", f"\n{size + 1}\n", 1) if self.forgery == "size" else note

    def _answer(self, path: str, query: dict[str, list[str]]) -> tuple[str, str]:
        if path == "/v1/log/key":
            return "text/plain", self.key.vkey + "\n"
        if path == "/v1/log/checkpoint":
            return "text/plain", self.checkpoint()
        if path == "/v1/log/entries":
            start, end = int(query["start"][0]), int(query["end"][0])
            return "application/json", json.dumps({"entries": [
                {"index": index, "leaf": leaf, "leaf_hash": b64(leaf_hash(leaf.encode()))}
                for index, leaf in enumerate(self.leaves[start:end], start)]})
        assert path == "/v1/log/proof/inclusion", path
        size, wanted = int(query["size"][0]), base64.b64decode(query["leaf"][0])
        index = next(i for i, leaf in enumerate(self._raw()) if leaf_hash(leaf) == wanted)
        hashes = inclusion_proof(index, self._raw()[:size])
        if self.forgery == "proof":
            hashes[0] = bytes([hashes[0][0] ^ 1]) + hashes[0][1:]
        return "application/json", json.dumps({"index": index, "tree_size": size, "hashes": [b64(h) for h in hashes]})

    def _log_route(self, route) -> None:
        url = urlsplit(route.request.url)
        content_type, body = self._answer(url.path, parse_qs(url.query))
        route.fulfill(status=200, content_type=content_type, body=body)

    def _run_route(self, route) -> None:
        """The service's answer for the run, with its place in this log once it has its verdict."""
        answer = route.fetch()
        run = answer.json()
        if answer.ok and run["status"] != "pending":
            index = self.place(run)
            run["log"] = {"index": index, "leaf_hash": b64(leaf_hash(self.leaves[index].encode()))}
        route.fulfill(response=answer, json=run)

    def attach(self, page) -> None:
        page.route(re.compile(r".*/v1/log/.*"), self._log_route)
        page.route(RUN_PATH, self._run_route)


@pytest.fixture(scope="module")
def judged(stack) -> dict:
    """An open run with its verdict."""
    _, token = stack.register()
    return stack.wait_final(stack.submit(token, legal_games(1)[0]).json()["id"])


@pytest.fixture
def log() -> RoutedLog:
    return RoutedLog()


def viewer(site, page, run_id: str):
    open_viewer(site, page, run_id)
    return page.locator("#log-place")


def test_the_viewer_shows_the_runs_place_in_the_public_log_once_checked(site, judged, log, page):
    log.attach(page)
    place = viewer(site, page, judged["id"])
    expect(place).to_have_attribute("data-log", "checked")
    index, size = map(int, CHECKED.match(place.inner_text()).groups())
    assert (index, size) == (log.places[judged["id"]], len(log.leaves))
    links = place.locator("a")
    assert links.nth(0).inner_text() == f"#{index}"
    assert links.nth(0).get_attribute("href") == f"/v1/log/entries?start={index}&end={index + 1}"
    assert links.nth(1).get_attribute("href") == "/v1/log/checkpoint"
    looked_at(page, "public-log-viewer-checked", full_page=False)
    assert page.problems == []


@pytest.mark.parametrize("forgery", FORGERIES)
def test_the_viewer_says_plainly_when_the_place_does_not_check_out(site, judged, log, page, forgery):
    log.forgery = forgery
    log.attach(page)
    place = viewer(site, page, judged["id"])
    expect(place).to_have_attribute("data-log", "failed")
    assert place.inner_text() == f"This run's place in the public log did not check out: {FORGERIES[forgery]}."
    if forgery == "proof":
        looked_at(page, "public-log-viewer-failed", full_page=False)
    assert page.problems == []


def test_a_log_that_cannot_be_asked_is_said_so_not_taken_for_a_forgery(site, judged, log, page):
    log.attach(page)
    page.route(re.compile(r".*/v1/log/key$"), lambda route: route.fulfill(
        status=404, json={"code": 404, "status": "Not Found", "message": "This service signs no checkpoints."}))
    place = viewer(site, page, judged["id"])
    expect(place).to_have_attribute("data-log", "unchecked")
    said = place.inner_text()
    assert said.startswith(f"This run's place in the public log (#{log.places[judged['id']]}) could not be checked: ")
    assert said.endswith("/v1/log/key: 404 This service signs no checkpoints.")
    assert [problem for problem in page.problems if "404" not in problem] == []


def test_a_run_the_log_does_not_hold_shows_nothing(site, judged, page):
    page.route(re.compile(r".*/v1/log/.*"), lambda route: pytest.fail(f"the log was asked: {route.request.url}"))

    def unlogged(route) -> None:  # the run as it reads before the workers move its leaf to the archive
        answer = route.fetch()
        route.fulfill(response=answer, json={key: value for key, value in answer.json().items() if key != "log"})

    page.route(RUN_PATH, unlogged)
    place = viewer(site, page, judged["id"])
    expect(place).to_have_attribute("data-log", "absent")
    assert place.is_hidden()
    assert page.problems == []


def test_a_run_logged_after_the_latest_checkpoint_is_checked_once_the_next_is_signed(site, judged, log, page):
    index = log.place(judged)
    log.signed_size = index  # the checkpoint stops just before the run's leaf
    log.attach(page)
    place = viewer(site, page, judged["id"])
    expect(place).to_have_attribute("data-log", "pending")
    assert place.inner_text() == f"In the public log at #{index}: waiting for the next signed checkpoint to check it…"
    log.signed_size = None  # the next checkpoint: the whole log
    expect(place).to_have_attribute("data-log", "checked", timeout=RECHECK_WAIT)
    assert CHECKED.match(place.inner_text()).groups() == (str(index), str(len(log.leaves)))
    assert page.problems == []


def test_play_shows_a_judged_games_place_in_the_public_log_beside_the_deal_checked(stack, site, browser):
    name, token = stack.register()
    table = Table(stack, token, random.Random(47))
    table.start(variant="classic")
    game = table.play_to_the_end()
    stack.wait_final(game["run_id"])  # the page finds the verdict there
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.problems = console_problems(page)
    context.add_init_script(f"""
        localStorage.setItem("scoundrel.player", {json.dumps(json.dumps({"name": name, "token": token}))});
        localStorage.setItem("scoundrel.play.game", {json.dumps(json.dumps({"player": name, "id": game["id"]}))});
    """)
    log = RoutedLog()
    log.attach(page)
    page.goto(site.url("/play"))
    expect(page.locator("#checks")).to_contain_text("The deal checks out.")
    place = page.locator("#verdict-log")
    expect(place).to_have_attribute("data-log", "checked")
    assert CHECKED.match(place.inner_text()).groups() == (str(log.places[game["run_id"]]), str(len(log.leaves)))
    looked_at(page, "public-log-play", full_page=False, shown="#verdict-log")
    assert page.problems == []
    context.close()


# ---- /play embedded in a studio's page, signed in by the studio's token (issue 33, item 5) -----------------
#
# A studio's page, served from an origin of its own (a server in this process on a free port), frames ``/play``;
# the service trusts that origin (``SCOUNDREL_EMBED_ORIGINS``) and the studio's tokens (an HMAC issuer in
# ``SCOUNDREL_JWT_ISSUERS``). The page says it is ready, the studio answers with a token minted here, and the game
# is played as the player linked to that account; a fresh token mid-game is used from the next move on. A sign-in
# posted by a frame of another origin is ignored; a page of another origin cannot frame ``/play`` at all; an
# account with no player yet chooses a name; a refused token and a sign-out leave nobody playing. No token is
# ever in a URL, a header other than ``Authorization`` to the service, or the page's storage.

ISSUER, AUDIENCE = "https://auth.studio.example", "scoundrel-referee"
SECRET = "a-secret-the-studio-shares-with-the-referee-in-tests"
READY, SIGN_IN, SIGN_OUT = "scoundrel:ready", "scoundrel:sign-in", "scoundrel:sign-out"
SIGNED_IN, REFUSED = "scoundrel:signed-in", "scoundrel:refused"

# The studio's page: /play in a frame, and a frame of another origin beside it. It keeps what the referee's frame
# posts it (``heard``) and posts the frame what the test gives ``send``, at the referee's origin only.
STUDIO_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A studio's game</title><link rel="icon" href="data:,">
<style>body {{ margin: 0; font-family: sans-serif; background: #2b2b3a; color: #eee; }}
  h1 {{ font-size: 1.1em; margin: 8px 12px; }} iframe {{ display: block; border: 0; width: 100%; }}
  #referee {{ height: 1300px; }} #stranger {{ height: 24px; }}</style></head>
<body><h1>A studio's game site, with the referee's /play framed</h1>
<iframe id="referee" title="Scoundrel" src="{referee}/play"></iframe>
<iframe id="stranger" title="Another site's frame" src="{stranger}/stranger"></iframe>
<script>
  window.heard = [];
  addEventListener("message", (event) => {{ if (event.origin === "{referee}") heard.push(event.data); }});
  window.send = (message) => document.getElementById("referee").contentWindow.postMessage(message, "{referee}");
</script></body></html>"""
STRANGER_PAGE = "<!doctype html><html lang='en'><title>Another site</title><p>another site</p></html>"
# A page of an origin the referee does not trust, framing /play: the browser must not show it.
UNTRUSTED_PARENT = """<!doctype html><html lang="en"><title>Not a studio</title>
<iframe id="referee" title="Scoundrel" src="{referee}/play"></iframe>
<script>document.getElementById("referee").addEventListener("load", () => (document.body.dataset.framed = "tried"));
</script></html>"""


class OtherOrigin(Served):
    """A web site of an origin of its own: the HTML pages the test gives it, by path."""

    def __init__(self):
        self.pages: dict[str, str] = {}
        super().__init__(lambda path: (200, "text/html; charset=utf-8", self.pages[path]) if path in self.pages
                         else (404, "text/plain", "not here"))


def studio_token(account: str, **claims) -> str:
    """A token of the studio's for its account ``account``, good for ten minutes unless ``claims`` say otherwise."""
    payload = {"iss": ISSUER, "aud": AUDIENCE, "sub": account, "exp": int(time.time()) + 600, **claims}
    return jwt.encode(payload, SECRET, algorithm="HS256")


@pytest.fixture(scope="module")
def studio_sites(studio_origins, site):
    """The studio's site, framing /play of the service (``site``), and another origin's, with their pages."""
    studio, stranger = studio_origins
    studio.pages["/"] = STUDIO_PAGE.format(referee=site.base, stranger=stranger.origin)
    stranger.pages["/stranger"] = STRANGER_PAGE
    stranger.pages["/frames-play"] = UNTRUSTED_PARENT.format(referee=site.base)
    return studio, stranger


@pytest.fixture
def embedded(browser, site, studio_sites):
    """The studio's page in a fresh browser at 1280 px (see ``studio_page``)."""
    with studio_page(browser, site, studio_sites, 1280) as page:
        yield page


@contextmanager
def studio_page(browser, site, sites, width: int):
    """The studio's page in a fresh browser, its frame of /play (``page.referee``) ready; every request the browser
    makes is kept (``page.sent``), and so is every console error (``page.problems``)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.problems = console_problems(page)
    page.sent = []
    context.on("request", lambda request: page.sent.append(request))
    page.goto(sites[0].origin + "/")
    page.wait_for_function(f"() => heard.some((message) => message.type === {json.dumps(READY)})")
    page.referee = page.frame(url=site.url("/play"))
    page.referee.wait_for_selector("body[data-ready='true']")
    try:
        yield page
    finally:
        context.close()


def send(page, message: dict) -> None:
    page.evaluate("message => send(message)", message)


def heard(page, kind: str, **fields) -> None:
    """Waits until the studio's page has heard a message of ``kind`` from the referee's frame, with ``fields``."""
    page.wait_for_function("wanted => heard.some((m) => Object.entries(wanted).every(([k, v]) => m[k] === v))",
                           arg={"type": kind, **fields})


def sign_in(page, token: str, name: str) -> None:
    send(page, {"type": SIGN_IN, "token": token})
    heard(page, SIGNED_IN, player=name)
    expect(page.referee.locator("#player-name")).to_have_text(name)


def linked_player(stack, account: str) -> tuple[str, str]:
    """A player linked to the studio account ``account`` (named once, as a studio's own client would), and a
    token of that account."""
    name, token = f"st-{uuid.uuid4().hex[:8]}", studio_token(account)
    made = stack.post("/v1/players", json={"name": name}, headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201, made.text
    return name, token


def play_a_move(frame) -> None:
    """A move that costs no health if the room has one (a potion, a weapon, a fight with it, avoiding the room),
    else the cheapest fight barehanded."""
    offered = legal(frame)
    free = [move for move in offered if move[0] in "HD" or move.endswith("w") or move == "flee"]
    move = free[0] if free else min(offered, key=lambda move: int(move.rstrip("wb")[1:]))
    count = frame.get_attribute("#game", "data-moves")
    frame.click(f"#game [data-move='{move}']")
    expect(frame.locator("#game")).not_to_have_attribute("data-moves", count)


def with_token(page, token: str) -> list:
    """The requests the browser made that carry ``token`` anywhere."""
    return [request for request in page.sent if token in request.url or
            any(token in value for value in request.all_headers().values())]


def assert_only_sent_as_bearer_to_the_referee(site, page, token: str) -> None:
    """``token`` went to the service in ``Authorization`` alone: in no URL, no other header, no storage."""
    carrying = with_token(page, token)
    assert carrying, "the token was used"
    for request in carrying:
        headers = request.all_headers()
        assert request.url.startswith(site.base + "/") and token not in request.url, request.url
        assert [name for name, value in headers.items() if token in value] == ["authorization"], request.url
        assert headers["authorization"] == f"Bearer {token}"
    kept = page.referee.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}, document.cookie])")
    assert token not in kept
    assert token not in page.referee.url and token not in page.url


def test_the_studios_token_plays_as_its_linked_player_and_a_fresh_one_is_used_from_the_next_move(embedded, stack, site):
    page, frame = embedded, embedded.referee
    name, token = linked_player(stack, "acct-ada")
    expect(frame.locator("#studio-status")).to_contain_text("Waiting for the site around this game")
    sign_in(page, token, name)
    expect(frame.locator("#studio-status")).to_have_text(f"Signed in by {page.url.split('/')[2]}.")
    expect(frame.locator("#token-warning")).to_be_hidden()  # no token of the referee's to keep
    with page.context.expect_page() as opened:  # every other page refuses to be framed: links leave the frame
        frame.click(".site-nav a[href='/rules']")
    opened.value.wait_for_load_state()
    assert opened.value.url == site.url("/rules") and page.referee.url == site.url("/play")
    frame.click("#start [data-variant='classic']")
    expect(frame.locator("#game")).to_have_attribute("data-moves", "0")
    expect(frame.locator("#signed-in")).to_have_text(f"Signed in as {name}")
    expect(frame.locator("#next-commitment")).not_to_have_text("…")
    play_a_move(frame)
    fresh = studio_token("acct-ada", exp=int(time.time()) + 900)
    assert fresh != token
    send(page, {"type": SIGN_IN, "token": fresh})
    page.wait_for_function("() => heard.filter((m) => m.type === 'scoundrel:signed-in').length === 2")
    game_id = frame.evaluate("() => JSON.parse(localStorage.getItem('scoundrel.play.game')).id")
    for _ in range(2):
        if frame.is_visible("#verdict"):
            break
        play_a_move(frame)
    if not frame.is_visible("#verdict"):
        frame.click("#forfeit")
        frame.click("#forfeit-yes")
    until_shown(stack, frame.locator("#verdict-run"), "verified")
    game = stack.get(f"/v1/games/{game_id}").json()
    assert game["player"] == name
    runs = stack.get(f"/v1/players/{name}/runs").json()
    assert runs["total"] == 1 and runs["runs"][0]["player"] == name
    assert stack.wait_final(runs["runs"][0]["id"])["status"] == "verified"
    moved = [request for request in page.sent if request.url.endswith(f"/v1/games/{game_id}/moves")]
    assert {request.all_headers()["authorization"] for request in moved[1:]} == {f"Bearer {fresh}"}
    assert moved[0].all_headers()["authorization"] == f"Bearer {token}"
    for used in (token, fresh):
        assert_only_sent_as_bearer_to_the_referee(site, page, used)
    assert page.problems == []


def test_a_sign_in_posted_from_another_origin_is_ignored(embedded, stack, site):
    page, frame = embedded, embedded.referee
    name, token = linked_player(stack, "acct-grace")
    intruder_name, intruder = linked_player(stack, "acct-mallory")
    stranger = next(frame for frame in page.frames if frame.url.endswith("/stranger"))
    with page.expect_console_message(lambda message: "ignored scoundrel:sign-in" in message.text) as warned:
        stranger.evaluate("t => parent.frames[0].postMessage({type: 'scoundrel:sign-in', token: t}, '*')", intruder)
    assert warned.value.type == "warning" and stranger.url.rsplit("/", 1)[0] in warned.value.text
    expect(frame.locator("#studio-status")).to_contain_text("Waiting for the site around this game")
    expect(frame.locator("#player-token")).to_be_hidden()
    sign_in(page, token, name)
    assert with_token(page, intruder) == []  # the intruder's token was never sent anywhere
    assert intruder_name not in frame.inner_text("body")
    assert page.problems == []


def test_a_page_of_an_origin_not_trusted_cannot_frame_play(browser, site, studio_sites):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(studio_sites[1].origin + "/frames-play")
    page.wait_for_selector("body[data-framed='tried']")
    assert page.frame(url=site.url("/play")) is None  # the browser refused to show it there
    context.close()


def test_an_account_with_no_player_yet_chooses_a_name_in_the_frame(embedded, stack, site):
    page, frame = embedded, embedded.referee
    token = studio_token(f"acct-new-{uuid.uuid4().hex[:6]}")
    send(page, {"type": SIGN_IN, "token": token})
    expect(frame.locator("#studio-status")).to_contain_text("has no player here yet: choose the name")
    expect(frame.locator("#signup-name")).to_be_visible()
    expect(frame.locator("#have-token")).to_be_hidden()
    expect(frame.locator("#start")).to_be_hidden()
    taken, _ = linked_player(stack, "acct-taken")
    frame.fill("#signup-name", taken.upper())
    frame.click("#signup button[type=submit]")
    expect(frame.locator("#signup-error")).to_contain_text("is taken")
    name = f"new-{uuid.uuid4().hex[:8]}"
    frame.fill("#signup-name", name)
    frame.click("#signup button[type=submit]")
    heard(page, SIGNED_IN, player=name)
    expect(frame.locator("#player-name")).to_have_text(name)
    expect(frame.locator("#start")).to_be_visible()
    again = stack.post("/v1/players", json={"name": "someone-else"}, headers={"Authorization": f"Bearer {token}"})
    assert (again.status_code, again.json()["name"]) == (200, name)  # the account is linked to the name chosen
    assert_only_sent_as_bearer_to_the_referee(site, page, token)
    console_clean(page, 403, 409)


def test_a_refused_token_and_a_sign_out_leave_nobody_playing(embedded, stack):
    page, frame = embedded, embedded.referee
    name, token = linked_player(stack, "acct-lin")
    sign_in(page, token, name)
    send(page, {"type": SIGN_OUT})
    expect(frame.locator("#studio-status")).to_have_text(f"Signed out by {page.url.split('/')[2]}.")
    expect(frame.locator("#player-token")).to_be_hidden()
    expect(frame.locator("#start")).to_be_hidden()
    expect(frame.locator("#signed-in")).to_be_hidden()
    sign_in(page, token, name)
    send(page, {"type": SIGN_IN, "token": studio_token("acct-lin", exp=int(time.time()) - 3600)})
    heard(page, REFUSED, reason="token_expired")
    expect(frame.locator("#studio-status")).to_contain_text("(token_expired): sign in there again")
    expect(frame.locator("#player-token")).to_be_hidden()
    expect(frame.locator("#start")).to_be_hidden()
    console_clean(page, 401)


def test_the_embedded_page_at_each_width_fits_and_has_no_serious_accessibility_violation(embedded, stack):
    page, frame = embedded, embedded.referee
    send(page, {"type": SIGN_IN, "token": studio_token(f"acct-w-{uuid.uuid4().hex[:6]}")})
    expect(frame.locator("#signup-name")).to_be_visible()
    looked_at(page, "embed-choose-name", frame=frame)
    name, token = linked_player(stack, "acct-play")
    sign_in(page, token, name)
    frame.click("#start [data-variant='classic']")
    expect(frame.locator("#game")).to_have_attribute("data-moves", "0")
    play_a_move(frame)
    looked_at(page, "embed-playing", frame=frame)
    console_clean(page, 403)
