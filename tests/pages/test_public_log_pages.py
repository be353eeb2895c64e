"""Issue 47: the replay viewer and ``/play`` say "in the public log at #N" once the browser has checked it.

The page checks the run's place with the JS client (``checkLogged``): the
log's key, the latest checkpoint and its signature, the run's leaf and its
inclusion proof to the checkpoint's root. The log the browser asks is one
this test builds from the specifications alone (``tests/support/public_log.py``:
RFC 9162's tree and proofs, a C2SP checkpoint signed with ``cryptography``'s
Ed25519): Playwright answers ``/v1/log/*`` from it and adds the run's
``log`` place to the service's own ``/v1/runs/<id>`` answer, so the pages are
held to the formats rather than to one implementation of them. A forged
checkpoint or proof is said plainly; a run the log does not hold shows
nothing; a run logged after the latest checkpoint is checked once the next
is signed. The pages are looked at at 1280 and 375 px with axe-core;
screenshots go to ``test-artifacts/``.
"""

import base64
import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.games.table import Table
from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.games import legal_games
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

pytestmark = [pytest.mark.served, pytest.mark.slow]  # pages in Chromium, which loads them over HTTP

expect = pytest.importorskip("playwright.sync_api").expect

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


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.problems = console_problems(opened)
    yield opened
    context.close()


def viewer(stack, page, run_id: str):
    page.goto(stack.url(f"/runs/{run_id}"))
    page.wait_for_selector("body[data-ready='true']")
    return page.locator("#log-place")


def looked_at(page, name: str) -> None:
    """At each width: nothing wider than the screen, no serious axe violation, a screenshot to look at."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert not scrolls_sideways(page), f"{name} at {width} px"
        assert serious_violations(page) == [], f"{name} at {width} px"
        screenshot(page, f"public-log-{name}-{width}", full_page=False)


def test_the_viewer_shows_the_runs_place_in_the_public_log_once_checked(stack, judged, log, page):
    log.attach(page)
    place = viewer(stack, page, judged["id"])
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
def test_the_viewer_says_plainly_when_the_place_does_not_check_out(stack, judged, log, page, forgery):
    log.forgery = forgery
    log.attach(page)
    place = viewer(stack, page, judged["id"])
    expect(place).to_have_attribute("data-log", "failed")
    assert place.inner_text() == f"This run's place in the public log did not check out: {FORGERIES[forgery]}."
    if forgery == "proof":
        looked_at(page, "viewer-failed")
    assert page.problems == []


def test_a_log_that_cannot_be_asked_is_said_so_not_taken_for_a_forgery(stack, judged, log, page):
    log.attach(page)
    page.route(re.compile(r".*/v1/log/key$"), lambda route: route.fulfill(
        status=404, json={"code": 404, "status": "Not Found", "message": "This service signs no checkpoints."}))
    place = viewer(stack, page, judged["id"])
    expect(place).to_have_attribute("data-log", "unchecked")
    said = place.inner_text()
    assert said.startswith(f"This run's place in the public log (#{log.places[judged['id']]}) could not be checked: ")
    assert said.endswith("/v1/log/key: 404 This service signs no checkpoints.")
    assert [problem for problem in page.problems if "404" not in problem] == []


def test_a_run_the_log_does_not_hold_shows_nothing(stack, judged, page):
    page.route(re.compile(r".*/v1/log/.*"), lambda route: pytest.fail(f"the log was asked: {route.request.url}"))

    def unlogged(route) -> None:  # the run as it reads before the workers move its leaf to the archive
        answer = route.fetch()
        route.fulfill(response=answer, json={key: value for key, value in answer.json().items() if key != "log"})

    page.route(RUN_PATH, unlogged)
    place = viewer(stack, page, judged["id"])
    expect(place).to_have_attribute("data-log", "absent")
    assert place.is_hidden()
    assert page.problems == []


def test_a_run_logged_after_the_latest_checkpoint_is_checked_once_the_next_is_signed(stack, judged, log, page):
    index = log.place(judged)
    log.signed_size = index  # the checkpoint stops just before the run's leaf
    log.attach(page)
    place = viewer(stack, page, judged["id"])
    expect(place).to_have_attribute("data-log", "pending")
    assert place.inner_text() == f"In the public log at #{index}: waiting for the next signed checkpoint to check it…"
    log.signed_size = None  # the next checkpoint: the whole log
    expect(place).to_have_attribute("data-log", "checked", timeout=RECHECK_WAIT)
    assert CHECKED.match(place.inner_text()).groups() == (str(index), str(len(log.leaves)))
    assert page.problems == []


def test_play_shows_a_judged_games_place_in_the_public_log_beside_the_deal_checked(stack, browser):
    name, token = stack.register()
    table = Table(stack, token, random.Random(47))
    table.start(variant="classic")
    game = table.play_to_the_end()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.problems = console_problems(page)
    context.add_init_script(f"""
        localStorage.setItem("scoundrel.player", {json.dumps(json.dumps({"name": name, "token": token}))});
        localStorage.setItem("scoundrel.play.game", {json.dumps(json.dumps({"player": name, "id": game["id"]}))});
    """)
    log = RoutedLog()
    log.attach(page)
    page.goto(stack.url("/play"))
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
