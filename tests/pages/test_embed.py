"""Issue 33, item 5: ``/play`` embedded in a studio's page and signed in by the studio's token, in headless Chromium
against the real service.

A studio's page, served from an origin of its own (a server in this process on a free port), frames ``/play``;
the service trusts that origin (``SCOUNDREL_EMBED_ORIGINS``) and the studio's tokens (an HMAC issuer in
``SCOUNDREL_JWT_ISSUERS``). The page says it is ready, the studio answers with a token minted here, and the game
is played as the player linked to that account; a fresh token mid-game is used from the next move on. A sign-in
posted by a frame of another origin is ignored; a page of another origin cannot frame ``/play`` at all; an
account with no player yet chooses a name; a refused token and a sign-out leave nobody playing. No token is
ever in a URL, a header other than ``Authorization`` to the service, or the page's storage. Screenshots at 1280
and 375 px go to ``test-artifacts/embed-*.png``.
"""

import json
import time
import uuid
from contextlib import contextmanager

import jwt
import pytest

from tests.support.browser import WIDTHS, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.served import Served

expect = pytest.importorskip("playwright.sync_api").expect

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


class Site(Served):
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
def sites():
    studio, stranger = Site(), Site()
    yield studio, stranger
    studio.close()
    stranger.close()


@pytest.fixture(scope="module")
def stack(stack_pool, sites):
    studio, stranger = sites
    issuers = [{"issuer": ISSUER, "audience": AUDIENCE, "secret": SECRET}]
    running = stack_pool.take(env={"SCOUNDREL_JWT_ISSUERS": json.dumps(issuers),
                                   "SCOUNDREL_EMBED_ORIGINS": studio.origin})
    studio.pages["/"] = STUDIO_PAGE.format(referee=running.base, stranger=stranger.origin)
    stranger.pages["/stranger"] = STRANGER_PAGE
    stranger.pages["/frames-play"] = UNTRUSTED_PARENT.format(referee=running.base)
    yield running
    stack_pool.give_back(running)


@pytest.fixture
def embedded(browser, stack, sites):
    """The studio's page in a fresh browser at 1280 px (see ``studio_page``)."""
    with studio_page(browser, stack, sites, 1280) as page:
        yield page


@contextmanager
def studio_page(browser, stack, sites, width: int):
    """The studio's page in a fresh browser, its frame of /play (``page.referee``) ready; every request the browser
    makes is kept (``page.sent``), and so is every console error (``page.problems``)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.problems = console_problems(page)
    page.sent = []
    context.on("request", lambda request: page.sent.append(request))
    page.goto(sites[0].origin + "/")
    page.wait_for_function(f"() => heard.some((message) => message.type === {json.dumps(READY)})")
    page.referee = page.frame(url=stack.url("/play"))
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


def moves(frame) -> list[str]:
    return frame.eval_on_selector_all("#room button, #avoid:not([hidden])", "bs => bs.map(b => b.dataset.move)")


def play_a_move(frame) -> None:
    """A move that costs no health if the room has one (a potion, a weapon, a fight with it, avoiding the room),
    else the cheapest fight barehanded."""
    offered = moves(frame)
    free = [move for move in offered if move[0] in "HD" or move.endswith("w") or move == "flee"]
    move = free[0] if free else min(offered, key=lambda move: int(move.rstrip("wb")[1:]))
    count = frame.get_attribute("#game", "data-moves")
    frame.click(f"#game [data-move='{move}']")
    expect(frame.locator("#game")).not_to_have_attribute("data-moves", count)


def with_token(page, token: str) -> list:
    """The requests the browser made that carry ``token`` anywhere."""
    return [request for request in page.sent if token in request.url or
            any(token in value for value in request.all_headers().values())]


def assert_only_sent_as_bearer_to_the_referee(stack, page, token: str) -> None:
    """``token`` went to the service in ``Authorization`` alone: in no URL, no other header, no storage."""
    carrying = with_token(page, token)
    assert carrying, "the token was used"
    for request in carrying:
        headers = request.all_headers()
        assert request.url.startswith(stack.base + "/") and token not in request.url, request.url
        assert [name for name, value in headers.items() if token in value] == ["authorization"], request.url
        assert headers["authorization"] == f"Bearer {token}"
    kept = page.referee.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}, document.cookie])")
    assert token not in kept
    assert token not in page.referee.url and token not in page.url


def test_the_studios_token_plays_as_its_linked_player_and_a_fresh_one_is_used_from_the_next_move(embedded, stack):
    page, frame = embedded, embedded.referee
    name, token = linked_player(stack, "acct-ada")
    expect(frame.locator("#studio-status")).to_contain_text("Waiting for the site around this game")
    sign_in(page, token, name)
    expect(frame.locator("#studio-status")).to_have_text(f"Signed in by {page.url.split('/')[2]}.")
    expect(frame.locator("#token-warning")).to_be_hidden()  # no token of the referee's to keep
    with page.context.expect_page() as opened:  # every other page refuses to be framed: links leave the frame
        frame.click(".site-nav a[href='/rules']")
    opened.value.wait_for_load_state()
    assert opened.value.url == stack.url("/rules") and page.referee.url == stack.url("/play")
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
    expect(frame.locator("#verdict-run")).to_contain_text("verified", timeout=30_000)
    game = stack.get(f"/v1/games/{game_id}").json()
    assert game["player"] == name
    runs = stack.get(f"/v1/players/{name}/runs").json()
    assert runs["total"] == 1 and runs["runs"][0]["player"] == name
    assert stack.wait_final(runs["runs"][0]["id"])["status"] == "verified"
    moved = [request for request in page.sent if request.url.endswith(f"/v1/games/{game_id}/moves")]
    assert {request.all_headers()["authorization"] for request in moved[1:]} == {f"Bearer {fresh}"}
    assert moved[0].all_headers()["authorization"] == f"Bearer {token}"
    for used in (token, fresh):
        assert_only_sent_as_bearer_to_the_referee(stack, page, used)
    assert page.problems == []


def test_a_sign_in_posted_from_another_origin_is_ignored(embedded, stack):
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


def test_a_page_of_an_origin_not_trusted_cannot_frame_play(browser, stack, sites):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(sites[1].origin + "/frames-play")
    page.wait_for_selector("body[data-framed='tried']")
    assert page.frame(url=stack.url("/play")) is None  # the browser refused to show it there
    context.close()


def test_an_account_with_no_player_yet_chooses_a_name_in_the_frame(embedded, stack):
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
    assert_only_sent_as_bearer_to_the_referee(stack, page, token)
    clean_but_refusals(page, 403, 409)


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
    clean_but_refusals(page, 401)


def clean_but_refusals(page, *statuses: int) -> None:
    """No console error but the browser's own note of each refusal the test caused."""
    notes = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in statuses)
    assert [problem for problem in page.problems if not problem.startswith(notes)] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_embedded_page_at_each_width_fits_and_has_no_serious_accessibility_violation(browser, stack, sites,
                                                                                        width):
    with studio_page(browser, stack, sites, width) as page:
        choose_a_name_then_play(page, stack, width)


def choose_a_name_then_play(page, stack, width: int) -> None:
    frame = page.referee
    send(page, {"type": SIGN_IN, "token": studio_token(f"acct-w{width}-{uuid.uuid4().hex[:6]}")})
    expect(frame.locator("#signup-name")).to_be_visible()
    assert not scrolls_sideways(frame)
    assert serious_violations(frame) == []
    screenshot(page, f"embed-choose-name-{width}")
    name, token = linked_player(stack, f"acct-play-{width}")
    sign_in(page, token, name)
    frame.click("#start [data-variant='classic']")
    expect(frame.locator("#game")).to_have_attribute("data-moves", "0")
    play_a_move(frame)
    assert not scrolls_sideways(frame)
    assert serious_violations(frame) == []
    screenshot(page, f"embed-playing-{width}")
    clean_but_refusals(page, 403)
