"""The replay viewer at ``/runs/<id>`` (issue 4), and its place in the public log (issue 47), in headless Chromium.

The viewer steps through a run with buttons, keys and a slider, shows each
position as the engine has it, highlights a rejected move and its reason, and
shows a moderator the moves' times and the run's flags. Screenshots go to
``test-artifacts/`` for a human to look at. Chromium loads the pages from the
module's in-process stack, served by the test process
(``tests.support.browser.serving``).

The viewer and ``/play`` say "in the public log at #N" once the browser has
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
latest checkpoint is checked once the next is signed. The pages are looked
at at 1280 and 375 px with axe-core.
"""

import base64
import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest

import scoundrel
from scoundrel.strategies import find_win
from tests.audit.conftest import submit_final
from tests.games.table import Table
from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.games import legal_games, play_at_machine_speed
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

pytestmark = pytest.mark.slow

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture
def page(browser):
    """A fresh browser context at 1280 px, its console problems collected."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.problems = console_problems(opened)
    yield opened
    context.close()


# ---- the viewer -----------------------------------------------------------------------------------------

WON_SEED = "view-1"


@pytest.fixture(scope="module")
def winning_moves() -> list[str]:
    moves = find_win(WON_SEED, variant="classic", budget=2000)
    assert moves is not None
    return moves


@pytest.fixture(scope="module")
def won(stack, winning_moves):
    _, token = stack.register()
    run = submit_final(stack, token, {"seed": WON_SEED, "moves": winning_moves})
    assert run["outcome"] == "won"
    return run


@pytest.fixture(scope="module")
def rejected(stack, winning_moves):
    moves = winning_moves
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


def test_a_won_run_steps_with_buttons_keys_and_the_slider(stack, site, page, won):
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


def test_a_rejected_run_highlights_the_offending_move_and_the_reason(stack, site, page, rejected):
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


@pytest.mark.parametrize("width", WIDTHS)
def test_the_viewer_fits_the_width_and_has_no_serious_accessibility_violation(stack, site, browser, won, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    open_viewer(site, page, won["id"])
    page.keyboard.press("End")
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    screenshot(page, f"viewer-{width}")
    context.close()
    assert problems == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_visitor_sees_no_token_field_only_the_moderators_closed_panel(stack, site, browser, won, width):
    """The moderators' token field is behind "For moderators"; opened, it is styled as the page is."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    open_viewer(site, page, won["id"])
    assert page.is_hidden("#moderator-token") and page.is_visible("#moderator-panel summary")
    assert "Moderator token" not in page.inner_text("main")
    page.click("#moderator-panel summary")
    assert page.is_visible("#moderator-token")
    field = page.eval_on_selector("#moderator-token", "input => { const s = getComputedStyle(input); "
                                                     "return [s.backgroundColor, s.borderRadius]; }")
    assert field == ["rgba(0, 0, 0, 0.35)", "8px"]  # the site's field, not the browser's white box
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    page.locator("#moderator-panel").scroll_into_view_if_needed()
    screenshot(page, f"viewer-moderator-{width}", full_page=False)
    context.close()


def test_an_unknown_run_gets_a_404_page(stack, site, page):
    response = page.goto(site.url("/runs/0000000000000000"))
    assert response.status == 404
    assert "No run" in page.inner_text("#missing h1")
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"  # a refusal, as the other pages' are


def test_a_sealed_daily_run_before_its_day_ends_says_the_apis_sentence_and_shows_no_empty_viewer(stack, site, browser):
    _, token = stack.register()
    auth = {"Authorization": f"Bearer {token}"}
    game = stack.post("/v1/games", json={"challenge": "daily"}, headers=auth).json()
    over = stack.post(f"/v1/games/{game['id']}/forfeit", json={"expected_moves": 0}, headers=auth).json()
    refused = stack.get(f"/v1/runs/{over['run_id']}/replay")
    assert refused.status_code == 403
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(site.url(f"/runs/{over['run_id']}"))
        page.wait_for_selector("#loading.refused")
        assert page.inner_text("#loading") == refused.json()["message"]  # the API's own sentence, not "HTTP 403"
        for viewer in ("#table", "#controls", "#moves"):
            assert not page.is_visible(viewer), viewer
        screenshot(page, f"viewer-sealed-{width}", full_page=False)
        context.close()


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


def looked_at(page, name: str) -> None:
    """At each width: nothing wider than the screen, no serious axe violation, a screenshot to look at."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert not scrolls_sideways(page), f"{name} at {width} px"
        assert serious_violations(page) == [], f"{name} at {width} px"
        screenshot(page, f"public-log-{name}-{width}", full_page=False)


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
    looked_at(page, "viewer-checked")
    assert page.problems == []


@pytest.mark.parametrize("forgery", FORGERIES)
def test_the_viewer_says_plainly_when_the_place_does_not_check_out(site, judged, log, page, forgery):
    log.forgery = forgery
    log.attach(page)
    place = viewer(site, page, judged["id"])
    expect(place).to_have_attribute("data-log", "failed")
    assert place.inner_text() == f"This run's place in the public log did not check out: {FORGERIES[forgery]}."
    if forgery == "proof":
        looked_at(page, "viewer-failed")
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
    page.locator("#verdict").scroll_into_view_if_needed()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert not scrolls_sideways(page), width
        assert serious_violations(page) == [], width
        page.locator("#verdict-log").scroll_into_view_if_needed()
        screenshot(page, f"public-log-play-{width}", full_page=False)
    assert page.problems == []
    context.close()
