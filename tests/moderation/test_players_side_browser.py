"""Issue 46, item 7: the players' side of moderation in headless Chromium against the real service.

A signed-in player disputes their own run from its page (``/runs/<id>``) and follows it to the moderator's
decision and note; another signed-in player reports that run and its player from their pages (a reason from the
short list, a text); each sees their own disputes and reports, decisions included, on their own page
(``/players/<name>``); a visitor with no token is offered none of it. Each page passes axe-core with no serious
or critical violation at 1280 and 375 px, fits a phone's width, and is kept as a screenshot under
``test-artifacts/players-side-*.png``.
"""

import json

import pytest

from tests.support.browser import WIDTHS, chromium, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.games import legal_games

pytestmark = pytest.mark.served  # pages in Chromium, which loads them over HTTP

expect = pytest.importorskip("playwright.sync_api").expect

PLAYER_KEY = "scoundrel.player"  # where /play keeps the signed-in player (site.js)


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


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


@pytest.fixture
def signed_in(browser, players):
    """A page of a fresh browser ``width`` px wide, signed in as ``name`` as /play signs a player in (None: a
    visitor with no token)."""
    opened = []

    def open_as(name: str | None, width: int = 1280):
        page = browser.new_page(viewport={"width": width, "height": 900})  # in a context of its own
        opened.append(page.context)
        page.problems = console_problems(page)
        if name is not None:
            kept = json.dumps({"name": name, "token": players[name]})
            page.add_init_script(f"localStorage.setItem({json.dumps(PLAYER_KEY)}, {json.dumps(kept)})")
        return page

    yield open_as
    for context in opened:
        context.close()


def visit(stack, page, path: str) -> None:
    """The page at ``path``, once cases.js has shown its section or left it hidden."""
    page.goto(stack.url(path))
    page.wait_for_selector("#cases[data-ready='true']", state="attached")


def looked_at(page, name: str) -> None:
    """The page passes axe-core, fits its width, and is kept as a screenshot."""
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    page.locator("#cases").scroll_into_view_if_needed()
    screenshot(page, f"players-side-{name}-{page.viewport_size['width']}", full_page=False)


def clean(page, *refused: int) -> None:
    """No console error but the browser's own note of each API refusal the test caused (statuses ``refused``)."""
    notes = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in refused)
    assert [problem for problem in page.problems if not problem.startswith(notes)] == []


def test_a_visitor_without_a_token_is_offered_nothing(stack, signed_in, players):
    page = signed_in(None)
    for path in (f"/runs/{players['run']}", "/players/ada"):
        visit(stack, page, path)
        expect(page.locator("#cases")).to_be_hidden()
    clean(page)


def test_the_runs_player_disputes_it_and_reads_the_moderators_decision(stack, signed_in, players, moderator):
    page = signed_in("ada")
    visit(stack, page, f"/runs/{players['run']}")
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

    [dispute] = stack.get("/v1/disputes", headers=bearer(moderator)).json()["disputes"]
    assert (dispute["run_id"], dispute["player"]) == (players["run"], "ada")
    resolved = stack.post(f"/v1/disputes/{dispute['id']}/resolve", headers=bearer(moderator),
                          json={"decision": "uphold", "note": "R10 holds here: the verdict is right."})
    assert resolved.status_code == 200, resolved.text
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        visit(stack, page, f"/runs/{players['run']}")
        item = page.locator("#run-disputes-list li")
        expect(item).to_contain_text("Upheld: the verdict stands. Decided by mia")
        expect(item).to_contain_text("The moderator's note: “R10 holds here: the verdict is right.”")
        looked_at(page, "dispute")
    clean(page)


def test_another_player_reports_the_run_and_its_player(stack, signed_in, players, moderator):
    page = signed_in("bob", 375)
    visit(stack, page, f"/runs/{players['run']}")
    expect(page.locator("#dispute-form")).to_be_hidden()
    expect(page.locator("#report-heading")).to_have_text("Report this run to the moderators")
    assert page.locator("#report-reason option").all_text_contents() == [
        "Cheating", "A bot plays it", "An offensive name", "Harassment", "Something else"]
    page.select_option("#report-reason", "bot")
    page.fill("#report-text", "Forty games an hour, every one at the same pace.")
    page.click("#report-send")
    expect(page.locator("#report-note")).to_contain_text("Your report is sent: a moderator will read it.")
    looked_at(page, "report-run")
    page.click("#report-send")  # the same report again, while the first is open
    expect(page.locator("#report-note")).to_have_text(
        "Your report of this is open already: a moderator has yet to close it, and you may report it again then.")

    visit(stack, page, "/players/ada")
    expect(page.locator("#report-heading")).to_have_text("Report this player to the moderators")
    expect(page.locator("#own-disputes")).to_be_hidden()
    page.select_option("#report-reason", "offensive_name")
    page.click("#report-send")
    expect(page.locator("#report-note")).to_contain_text("Your report is sent")
    looked_at(page, "report-player")

    queue = stack.get("/v1/reports", headers=bearer(moderator)).json()["reports"]
    assert [(report["kind"], report["target"], report["reporter"], report["reason"]) for report in queue] == [
        ("run", players["run"], "bob", "bot"), ("player", "ada", "bob", "offensive_name")]
    clean(page, 409)


def test_each_player_reads_their_own_disputes_and_reports_on_their_page(stack, signed_in, players, moderator):
    open_reports = stack.get("/v1/reports", headers=bearer(moderator)).json()["reports"]
    run_report = next(report for report in open_reports if report["kind"] == "run")
    closed = stack.post(f"/v1/reports/{run_report['id']}/close", headers=bearer(moderator),
                        json={"decision": "dismissed", "note": "A steady player, not a bot."})
    assert closed.status_code == 200, closed.text
    for width in WIDTHS:
        page = signed_in("bob", width)
        visit(stack, page, "/players/bob")
        expect(page.locator("#report-form")).to_be_hidden()  # no one reports themselves
        expect(page.locator("#own-disputes-none")).to_have_text("You have disputed no run.")
        reports = page.locator("#own-reports-list li")
        expect(reports).to_have_count(2)
        expect(reports.nth(0)).to_contain_text("An offensive name")
        expect(reports.nth(0)).to_contain_text("Open: a moderator has yet to read it.")
        expect(reports.nth(1)).to_contain_text("A bot plays it: “Forty games an hour, every one at the same pace.”")
        expect(reports.nth(1)).to_contain_text("Dismissed: a moderator found nothing to act on. Decided by mia")
        expect(reports.nth(1)).to_contain_text("The moderator's note: “A steady player, not a bot.”")
        looked_at(page, "own-reports")

        page = signed_in("ada", width)
        visit(stack, page, "/players/ada")
        [dispute] = page.locator("#own-disputes-list li").all()
        expect(dispute).to_contain_text(f"Run {players['run']}")
        expect(dispute).to_contain_text("Upheld: the verdict stands.")
        expect(page.locator("#own-reports-none")).to_have_text("You have reported nothing.")
        looked_at(page, "own-disputes")
        clean(page)
