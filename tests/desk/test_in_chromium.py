"""Issue 46 in headless Chromium: the moderators' desk and the players' side of moderation, from the module's
in-process stack served by the test process (``site``), the worker's steps run by the tests.

The desk: a moderator signs in with their token, finds the dispute a player filed, voids the run from its case
page and sees the board change, restores it; bans and unbans the case's player, every board coming back place
for place; a POST without its CSRF token is refused; a revoked moderator's open desk stops working at once;
every desk page at 1280 and 375 px, by keyboard alone, without a serious or critical axe-core violation.

The players' side (item 7): a signed-in player disputes their own run from its page (``/runs/<id>``) and follows
it to the moderator's decision and note; another signed-in player reports that run and its player from their
pages (a reason from the short list, a text); each sees their own disputes and reports, decisions included, on
their own page (``/players/<name>``); a visitor with no token is offered none of it. Each page passes axe-core
with no serious or critical violation at 1280 and 375 px and fits a phone's width.

Screenshots under ``test-artifacts/`` (``desk-*.jpg``, ``players-side-*.jpg``).
"""

import json
from datetime import UTC, datetime, timedelta

import pytest

from store import revoke_moderator
from store.webhooks import Attempt, Delivery, record_attempt
from tests.support import browser as pages
from tests.support.browser import WIDTHS, own_page, screenshot, scrolls_sideways, serious_violations
from tests.support.games import legal_games, moderator_token

from .conftest import dispute, won_run

expect = pytest.importorskip("playwright.sync_api").expect

PLAYER_KEY = "scoundrel.player"  # where /play keeps the signed-in player (site.js)
RECORDS_FORMS = {"/desk?section=reports": "form[id^='close-']", "/desk/tournaments": "form[id^='end-']",
                 "/desk/webhooks": "form.resend", "/desk/log": "a[href^='/tournaments/']"}
DESK_PAGES = ("/desk", "/desk?section=flags", "/desk?section=reports", "/desk?section=reverify", "/desk/log",
              "/desk/tournaments", "/desk/webhooks", "/desk/erasures")
SHOT = {"/desk": "desk-queue", "/desk/tournaments": "desk-tournaments", "/desk/erasures": "desk-erasures"}


@pytest.fixture(scope="module")
def browser():
    with pages.chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def site(stack):
    """The module's stack (in this process) served over HTTP: ``site.url(path)`` is what Chromium loads."""
    with pages.serving(stack) as served:
        yield served


@pytest.fixture(scope="module")
def disputed(stack):
    """A verified run a player disputed: ``(run, dispute, its player's name)``."""
    name, token = stack.register("Cass")
    run = won_run(stack, token)
    _, other = stack.register("Dora")
    return run, dispute(stack, other, run["id"]), name


@pytest.fixture
def records(stack, moderator, disputed):
    """What puts each of the desk's other forms on its pages: a running tournament (ending it), one ended early
    (in the log), an open report (closing it: closed afterwards, out of the other tests' queue), a delivery kept
    (sending it again)."""
    headers = {"Authorization": f"Bearer {moderator}"}
    now = datetime.now(UTC)
    made = [stack.post("/v1/tournaments", headers=headers, json={
        "title": title, "starts_at": (now - timedelta(minutes=1)).isoformat(),
        "ends_at": (now + timedelta(hours=1)).isoformat()}).json() for title in ("Running cup", "Ended cup")]
    assert stack.post(f"/v1/tournaments/{made[1]['id']}/end", json={"reason": "A leaked deck."}, headers=headers).ok
    _, reporter = stack.register()
    filed = stack.post(f"/v1/runs/{disputed[0]['id']}/reports", json={"reason": "bot", "text": "Too steady."},
                       headers={"Authorization": f"Bearer {reporter}"})
    assert filed.status_code == 201, filed.text
    hook = stack.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/kept", "events": ["run.verified"]},
                      headers=headers).json()
    db = stack.database()
    try:
        record_attempt(db, Delivery(hook["id"], "run.verified", "kept", "{}"), Attempt(200, None, 3, 1), None, 1.0)
    finally:
        db.close()
    yield
    assert stack.post(f"/v1/reports/{filed.json()['id']}/close", json={"decision": "dismissed"}, headers=headers).ok


def _signed_in(browser, site, token: str, width: int = 1280):
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(site.url("/desk"))
    assert page.url.endswith("/desk/sign-in")
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_selector("#tab-disputes")
    return page


@pytest.fixture(scope="module")
def at_desk(browser, site, moderator):
    """The page where mia, the module's moderator, signed in at the desk once (``_signed_in``): the tests that
    work at her desk take it in turn, as she goes from one desk page to the next, instead of each signing in
    again (two page loads and a sign-in each) or opening a tab (a renderer each). Signing in itself is proved by
    the revoked moderator's test and the keyboard's."""
    signed_in = _signed_in(browser, site, moderator)
    yield signed_in
    signed_in.context.close()


def _classic_rank(stack, name: str) -> int | None:
    found = stack.get(f"/v1/leaderboards/classic/players/{name}")
    return found.json()["rank"] if found.status_code == 200 else None


def test_a_moderator_voids_a_disputed_run_from_its_case_and_restores_it(at_desk, site, stack, disputed):
    run, filed, name = disputed
    page = at_desk
    page.goto(site.url("/desk"))
    problems = pages.console_problems(page)
    item = page.locator(f"li.queue-item[data-id='{filed['id']}']")
    assert filed["reason"] in item.inner_text()
    assert pages.serious_violations(page) == []
    pages.screenshot(page, "desk-queue-1280")
    item.locator("a.case-link").click()
    page.wait_for_selector("body[data-ready='true']", timeout=10_000)  # the replay viewer drew the game
    assert pages.serious_violations(page) == []
    pages.screenshot(page, "desk-case-1280")
    assert _classic_rank(stack, name) is not None
    page.goto(site.url("/boards/classic"))
    assert page.locator(f"a:text-is('{name}')").count() == 1
    page.go_back()
    page.fill(f"#note-{filed['id']}", "A client bug, confirmed")
    page.click(f"#resolve-{filed['id']} button[value=void]")
    page.wait_for_selector("#done")
    assert page.inner_text("#verdict").lower().startswith("void")
    assert _classic_rank(stack, name) is None
    page.goto(site.url("/boards/classic?page=1"))  # another address: the board's page may be cached 5 s
    assert page.locator(f"a:text-is('{name}')").count() == 0  # the board changed
    page.goto(site.url(f"/desk/runs/{run['id']}"))
    page.fill("#restore-note", "The client was right after all")
    page.click("#restore button")
    page.wait_for_selector("#done")
    assert page.inner_text("#verdict").lower().startswith("verified")
    assert _classic_rank(stack, name) is not None
    audit = page.inner_text("#audit")
    assert "voided by moderator mia" in audit and "restored by moderator mia" in audit
    assert problems == []


def test_a_post_without_its_csrf_token_is_refused(at_desk, site, disputed):
    run, _, _ = disputed
    page = at_desk
    page.goto(site.url(f"/desk/runs/{run['id']}"))
    answer = page.evaluate("""url => fetch(url, {method: "POST", body: new URLSearchParams({seen: "99"}),
                                                headers: {Accept: "application/json"}})
                                     .then(response => response.json().then(body => [response.status, body.reason]))""",
                           site.url(f"/desk/runs/{run['id']}/reverify"))
    assert answer == [403, "csrf_missing"]


def test_a_revoked_moderators_open_desk_stops_working_at_once(browser, site, stack, db, disputed):
    run, _, _ = disputed
    page = _signed_in(browser, site, moderator_token(stack, "rex"))
    page.goto(site.url(f"/desk/runs/{run['id']}"))
    page.wait_for_selector("#take")
    revoke_moderator(db, "rex")
    page.click("#take")  # the page still open: its next request is refused
    assert "csrf" not in page.url and "signed_out" in page.inner_text("#reason")
    page.goto(site.url("/desk"))
    assert page.url.endswith("/desk/sign-in?ended=1")
    assert "Your desk session has ended" in page.inner_text("main")


@pytest.mark.usefixtures("records")
def test_every_desk_page_fits_and_works_by_keyboard_alone(browser, site, stack, moderator, disputed):
    """Signed in, and on from the queue to a case, by keyboard alone at each width; every desk page at each width
    (``each_width``: one load serves both)."""
    run, _, _ = disputed
    _, another = stack.register()
    dispute(stack, another, run["id"], "Still looks wrong to me")  # an open one, whatever the other tests did
    page = browser.new_context(viewport={"width": WIDTHS[0], "height": 900}).new_page()
    page.goto(site.url("/desk/sign-in"))
    pages.looked_at(page, "desk-sign-in")
    for _width in pages.each_width(page):
        page.context.clear_cookies()  # a browser with no desk session
        page.goto(site.url("/desk/sign-in"))
        for _ in range(30):  # to the token's field by Tab, typed, sent with Enter
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.id") == "token":
                break
        page.keyboard.type(moderator)
        page.keyboard.press("Enter")
        page.wait_for_selector("#tab-disputes")
    for path in DESK_PAGES:
        page.goto(site.url(path))
        if path in RECORDS_FORMS:  # those the checks below see (``records``)
            assert page.locator(RECORDS_FORMS[path]).count(), path
        for width in pages.each_width(page):
            assert serious_violations(page) == [], (path, width)
            assert not scrolls_sideways(page), (path, width)
            if path in SHOT:
                screenshot(page, f"{SHOT[path]}-{width}")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(site.url("/desk"))
        for _ in range(80):  # to the dispute's case by Tab, opened with Enter
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.getAttribute('href')") == f"/desk/runs/{run['id']}":
                break
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-ready='true']", timeout=10_000)
        assert serious_violations(page) == [] and not scrolls_sideways(page)
        screenshot(page, f"desk-case-{width}")
    page.goto(site.url("/desk?variant=chess"))
    for width in pages.each_width(page):
        assert serious_violations(page) == [], width


def _boards(stack, run: dict) -> list:
    """Every board the run counts on, place for place: the variant's, the seed's."""
    return [stack.get(path).json()["entries"] for path in (
        "/v1/leaderboards/classic?limit=100", f"/v1/seeds/{run['seed']}/leaderboard?limit=100")]


def test_a_moderator_bans_and_unbans_the_cases_player_and_every_board_comes_back(at_desk, site, stack):
    name, token = stack.register()
    run = won_run(stack, token)  # the disputed run's seed, whose win is searched for once a test process
    before = _boards(stack, run)
    assert name in {entry["player"] for board in before for entry in board}
    page = at_desk
    page.goto(site.url(f"/desk/runs/{run['id']}"))
    page.fill("#ban-reason", "A bot, confirmed")
    page.click("#ban button")
    page.wait_for_selector("#banned")
    assert not {name} & {entry["player"] for board in _boards(stack, run) for entry in board}
    assert stack.submit(token, {"seed": "desk-ban-2", "moves": ["flee"]}).json()["reason"] == "banned"
    page.click("#unban button")
    page.wait_for_selector("#ban")
    assert _boards(stack, run) == before  # place for place


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def players(stack):
    """ada, with a verified run, and bob: their tokens, and ada's run."""
    tokens = {name: stack.register(name)[1] for name in ("ada", "bob")}
    submitted = stack.submit(tokens["ada"], legal_games(1)[0])
    assert submitted.status_code == 202, submitted.text
    assert stack.wait_final(submitted.json()["id"])["status"] == "verified"
    return {**tokens, "run": submitted.json()["id"]}


@pytest.fixture(scope="module")
def tab(browser):
    """The one page the players' side's tests take in turn (``signed_in``), in a context of its own."""
    with own_page(browser) as page:
        yield page


@pytest.fixture
def signed_in(tab, site, players):
    """A page of a fresh browser ``width`` px wide (the module's page made blank, ``blank_slate``), signed in as
    ``name`` as /play signs a player in (None: a visitor with no token); the page before it is done with."""

    def open_as(name: str | None, width: int = 1280):
        page = pages.blank_slate(tab, site.base, {"width": width, "height": 900})
        if name is not None:
            kept = json.dumps({"name": name, "token": players[name]})
            pages.init_script(page, f"localStorage.setItem({json.dumps(PLAYER_KEY)}, {json.dumps(kept)})")
        return page

    return open_as


def visit(site, page, path: str) -> None:
    """The page at ``path``, once cases.js has shown its section or left it hidden."""
    page.goto(site.url(path))
    page.wait_for_selector("#cases[data-ready='true']", state="attached")


def looked_at_this_width(page, name: str) -> None:
    """The page passes axe-core, fits its width, and is kept as a screenshot."""
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    page.locator("#cases").scroll_into_view_if_needed()
    screenshot(page, f"players-side-{name}-{page.viewport_size['width']}", full_page=False)


def looked_at_each_width(page, name: str) -> None:
    pages.looked_at(page, f"players-side-{name}", full_page=False, shown="#cases")


def clean(page, *refused: int) -> None:
    """No console error but the browser's own note of each API refusal the test caused (statuses ``refused``)."""
    notes = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in refused)
    assert [problem for problem in page.problems if not problem.startswith(notes)] == []


def test_a_visitor_without_a_token_is_offered_nothing(site, stack, signed_in, players):
    page = signed_in(None)
    for path in (f"/runs/{players['run']}", "/players/ada"):
        visit(site, page, path)
        expect(page.locator("#cases")).to_be_hidden()
    clean(page)


def test_the_runs_player_disputes_it_and_reads_the_moderators_decision(site, stack, signed_in, players, moderator):
    page = signed_in("ada")
    visit(site, page, f"/runs/{players['run']}")
    expect(page.locator("#dispute-form")).to_be_visible()
    expect(page.locator("#report-form")).to_be_hidden()  # one's own run is disputed, not reported
    expect(page.locator("#run-disputes-none")).to_have_text("You have not disputed this run.")

    page.click("#dispute-send")
    expect(page.locator("#dispute-reason")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#dispute-reason")).to_be_focused()
    page.fill("#dispute-reason", "My last move was legal: R10 lets a worn weapon fight a lesser monster.")
    page.click("#dispute-send")
    expect(page.locator("#dispute-note")).to_have_text(
        "Your dispute is filed: a moderator will decide, and this page shows it.")
    expect(page.locator("#run-disputes-list li")).to_have_count(1)
    expect(page.locator("#run-disputes-list li")).to_contain_text("Open: a moderator has yet to decide.")

    disputes = stack.get("/v1/disputes", headers=bearer(moderator)).json()["disputes"]
    [dispute] = [filed for filed in disputes if filed["run_id"] == players["run"]]  # the desk's tests file others
    assert dispute["player"] == "ada"
    resolved = stack.post(f"/v1/disputes/{dispute['id']}/resolve", headers=bearer(moderator),
                          json={"decision": "uphold", "note": "R10 holds here: the verdict is right."})
    assert resolved.status_code == 200, resolved.text
    visit(site, page, f"/runs/{players['run']}")
    item = page.locator("#run-disputes-list li")
    expect(item).to_contain_text("Upheld: the verdict stands. Decided by mia")
    expect(item).to_contain_text("The moderator's note: “R10 holds here: the verdict is right.”")
    looked_at_each_width(page, "dispute")
    clean(page)


def test_another_player_reports_the_run_and_its_player(site, stack, signed_in, players, moderator):
    page = signed_in("bob", 375)
    visit(site, page, f"/runs/{players['run']}")
    expect(page.locator("#dispute-form")).to_be_hidden()
    expect(page.locator("#report-heading")).to_have_text("Report this run to the moderators")
    assert page.locator("#report-reason option").all_text_contents() == [
        "Cheating", "A bot plays it", "An offensive name", "Harassment", "Something else"]
    page.select_option("#report-reason", "bot")
    page.fill("#report-text", "Forty games an hour, every one at the same pace.")
    page.click("#report-send")
    expect(page.locator("#report-note")).to_contain_text("Your report is sent: a moderator will read it.")
    looked_at_this_width(page, "report-run")
    page.click("#report-send")  # the same report again, while the first is open
    expect(page.locator("#report-note")).to_have_text(
        "Your report of this is open already: a moderator has yet to close it, and you may report it again then.")

    visit(site, page, "/players/ada")
    expect(page.locator("#report-heading")).to_have_text("Report this player to the moderators")
    expect(page.locator("#own-disputes")).to_be_hidden()
    page.select_option("#report-reason", "offensive_name")
    page.click("#report-send")
    expect(page.locator("#report-note")).to_contain_text("Your report is sent")
    looked_at_this_width(page, "report-player")

    queue = stack.get("/v1/reports", headers=bearer(moderator)).json()["reports"]
    assert [(report["kind"], report["target"], report["reporter"], report["reason"]) for report in queue] == [
        ("run", players["run"], "bob", "bot"), ("player", "ada", "bob", "offensive_name")]
    clean(page, 409)


def test_each_player_reads_their_own_disputes_and_reports_on_their_page(site, stack, signed_in, players, moderator):
    open_reports = stack.get("/v1/reports", headers=bearer(moderator)).json()["reports"]
    run_report = next(report for report in open_reports if report["kind"] == "run")
    closed = stack.post(f"/v1/reports/{run_report['id']}/close", headers=bearer(moderator),
                        json={"decision": "dismissed", "note": "A steady player, not a bot."})
    assert closed.status_code == 200, closed.text
    page = signed_in("bob")
    visit(site, page, "/players/bob")
    expect(page.locator("#report-form")).to_be_hidden()  # no one reports themselves
    expect(page.locator("#own-disputes-none")).to_have_text("You have disputed no run.")
    reports = page.locator("#own-reports-list li")
    expect(reports).to_have_count(2)
    expect(reports.nth(0)).to_contain_text("An offensive name")
    expect(reports.nth(0)).to_contain_text("Open: a moderator has yet to read it.")
    expect(reports.nth(1)).to_contain_text("A bot plays it: “Forty games an hour, every one at the same pace.”")
    expect(reports.nth(1)).to_contain_text("Dismissed: a moderator found nothing to act on. Decided by mia")
    expect(reports.nth(1)).to_contain_text("The moderator's note: “A steady player, not a bot.”")
    looked_at_each_width(page, "own-reports")
    clean(page)

    page = signed_in("ada")
    visit(site, page, "/players/ada")
    [dispute] = page.locator("#own-disputes-list li").all()
    expect(dispute).to_contain_text(f"Run {players['run']}")
    expect(dispute).to_contain_text("Upheld: the verdict stands.")
    expect(page.locator("#own-reports-none")).to_have_text("You have reported nothing.")
    looked_at_each_width(page, "own-disputes")
    clean(page)
