"""Issue 14: ``/play``, a dealt game in the browser, driven in headless Chromium against the service.

A player signs up on the page, plays dealt games to the end by clicking and
by keyboard alone, gives one up, meets the sealed daily's one-game rule, and
sees the verdict the referee stored, the revealed seed and the page's own
check of it against the commitment, and their live events as they come. Each page is checked at 1280 and 375 px
with axe-core; screenshots go to ``test-artifacts/``. Chromium loads the
pages from the module's in-process stack, served by the test process; the
worker's steps run while the test waits for a verdict (``until_shown``).
"""

import base64
import hashlib
import hmac
import json
import re
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from service.play_page import CLIENT_MODULE
from service.security import CONTENT_SECURITY_POLICY
from store.live import publish
from tests.games.table import cards_in
from tests.support.browser import (
    blank_slate,
    console_clean,
    init_script,
    looked_at,
    own_page,
    screenshot,
    until_shown,
)
from tests.support.games import legal_games
from tests.support.service_http import within_one_day

pytestmark = pytest.mark.slow

expect = pytest.importorskip("playwright.sync_api").expect

MOVE_LIMIT = 250  # a game has at most 44 plays plus its avoids
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tab(browser):
    """The one page the module's tests take in turn (``fresh``), in a context of its own."""
    with own_page(browser) as page:
        yield page


@pytest.fixture
def fresh(tab, site):
    """A page of a fresh browser (nothing stored) at 1280 px, nothing loaded yet (``blank_slate``); the console
    must stay clean."""
    return blank_slate(tab, site.base)


@pytest.fixture
def opened(fresh, site):
    """``/play`` in a fresh browser (nothing stored) at 1280 px; the console must stay clean."""
    return open_play(site, fresh)


def open_play(site, page):
    page.goto(site.url("/play"))
    page.wait_for_selector("body[data-ready='true']")
    return page


def sign_up(page, name: str | None = None) -> str:
    name = name or f"pl-{uuid.uuid4().hex[:10]}"
    page.fill("#signup-name", name)
    page.click("#signup button[type=submit]")
    expect(page.locator("#player-name")).to_have_text(name)
    return name


def stored(page, key: str):
    return json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(key)})") or "null")


def legal(page) -> list[str]:
    """The moves the page offers, as buttons, in the order a keyboard reaches them."""
    return page.eval_on_selector_all("#room button, #avoid:not([hidden])", "bs => bs.map(b => b.dataset.move)")


def played(page) -> int:
    return int(page.get_attribute("#game", "data-moves"))


def value(move: str) -> int:
    return int(move.rstrip("wb")[1:])


def choose(moves: list[str], health: int, weapon: int = 0) -> str:
    """A simple player: a stronger weapon, then its fights, a potion that is not wasted, avoiding a deadly room."""
    better = [m for m in moves if m.startswith("D") and value(m) > weapon]
    if better:
        return max(better, key=value)
    armed = [m for m in moves if m.endswith("w")]
    if armed:
        return max(armed, key=value)
    potions = [m for m in moves if m.startswith("H")]
    if potions and (health + min(map(value, potions)) <= 20 or health < 8):
        return max(potions, key=value)
    barehanded = [m for m in moves if m.endswith("b")]
    if "flee" in moves and sum(map(value, barehanded)) >= health:
        return "flee"
    return min(barehanded, key=value) if barehanded else moves[0]


def health(page) -> int:
    return int(page.inner_text("#health"))


# The table as the simple player reads it, in one look rather than one question a figure (a game is some 45
# moves, each question a round trip through Playwright and Chromium): whether the verdict shows, the moves
# made, the moves offered (as ``legal`` lists them), the health and the weapon's card.
TABLE = """() => ({
  over: document.querySelector("#verdict").checkVisibility(),
  played: document.querySelector("#game").dataset.moves,
  legal: [...document.querySelectorAll("#room button, #avoid:not([hidden])")].map(b => b.dataset.move),
  health: Number(document.querySelector("#health").innerText),
  weapon: document.querySelector("#weapon .card")?.dataset.card})"""


def chosen(page, table: dict | None = None) -> str:
    """The simple player's move in the position the page shows (``table``: what ``TABLE`` read of it)."""
    table = table or page.evaluate(TABLE)
    return choose(table["legal"], table["health"], value(table["weapon"]) if table["weapon"] else 0)


def after_move(look: str = TABLE) -> str:
    """A script that waits until the page has made the move clicked (its count of moves no longer the one it is
    given) and shows the position that follows, a move to make or the verdict, then reads it with ``look``: the
    wait and the next look in one question to the page (a move cost 77 to 92 ms of CPU waited for with
    ``expect`` and looked at again, 62 to 76 ms so). It fails if the page shows no such position in 5 s, as
    ``expect`` would."""
    return f"""played => new Promise((seen, failed) => {{
  const game = document.querySelector("#game");
  const shown = () => {{
    if (game.dataset.moves === played) return false;
    const table = ({look})();
    if (!table.over && !table.legal.length) return false;
    observer.disconnect();
    clearTimeout(late);
    seen(table);
    return true;
  }};
  const observer = new MutationObserver(shown);
  const late = setTimeout(() => {{
    observer.disconnect();
    failed(new Error(`no move made after move ${{played}}, or no position to move from shown`));
  }}, 5000);
  if (!shown()) observer.observe(document.body, {{attributes: true, childList: true, subtree: true}});
}})"""


def play_to_the_end(page) -> None:
    """Click the simple player's move until the game is over."""
    table = page.evaluate(TABLE)
    for _ in range(MOVE_LIMIT):
        if table["over"]:
            return
        page.click(f"#game [data-move='{chosen(page, table)}']")
        table = page.evaluate(after_move(), table["played"])
    raise AssertionError("the game did not end")


def start(page, variant: str = "classic") -> None:
    page.click(f"#start [data-variant='{variant}']")
    expect(page.locator("#game")).to_have_attribute("data-moves", "0")


def verdict_checked(stack, page) -> None:
    """The worker judges the run, then the page replays it and checks its deal."""
    until_shown(stack, page.locator("#checks"), "The deal checks out.")


def shown_verdict(page) -> dict:
    return {
        "score": page.inner_text("#verdict-score"),
        "run": page.inner_text("#verdict-run"),
        "seed": page.inner_text("#verdict-seed"),
        "commitment": page.inner_text("#verdict-commitment"),
        "server_seed": page.inner_text("#verdict-server-seed"),
        "client_seed": page.inner_text("#verdict-client-seed"),
        "replay": page.get_attribute("#replay-link", "href"),
    }


def run_of(stack, page) -> dict:
    """The run the referee stored for the page's game (its id from the replay link)."""
    expect(page.locator("#replay-link")).to_have_attribute("href", re.compile(r"^/runs/\w+$"))
    run_id = page.get_attribute("#replay-link", "href").rsplit("/", 1)[1]
    return stack.wait_final(run_id)


def score_made(run: dict) -> str:
    """How the page says a verified run's score is made: as ``scoundrel replay`` says it (R15, R16, R18)."""
    score, health = run["score"], run["health"]
    if run["outcome"] == "won":
        return f"= health {health} + {score - health}, a potion drunk at full health as the last card (R15)" \
            if score != health else f"= health {health} (R15)"
    if run["outcome"] == "forfeit":
        return (f"= 0 - {-score}, the monsters not yet defeated, in the room and the dungeon: a game given up "
                "scores as dying at once (R18)")
    return f"= health {health} - {health - score}, the monsters left in the dungeon (R16)"


def assert_verdict_is_the_referees(stack, page) -> dict:
    run = run_of(stack, page)
    shown = shown_verdict(page)
    assert run["status"] == "verified"
    assert shown["score"] == str(run["score"])
    expect(page.locator("#verdict-score-made")).to_have_text(score_made(run))
    assert shown["run"] == f"verified · {run['outcome']}"
    assert shown["seed"] == run["seed"]
    # the page deals from the committed server seed and a client seed: both steps, recomputed here
    server_seed, client_seed = shown["server_seed"], shown["client_seed"]
    assert client_seed and shown["commitment"] == hashlib.sha256(server_seed.encode("ascii")).hexdigest()
    derived = hmac.new(server_seed.encode("ascii"), client_seed.encode("ascii"), hashlib.sha256).digest()
    assert run["seed"] == base64.urlsafe_b64encode(derived).decode("ascii").rstrip("=")
    assert shown["replay"] == f"/runs/{run['id']}"
    return run


# ---- the page as served ------------------------------------------------------------------------


def test_the_page_has_the_viewers_policy_and_is_revalidated_before_reuse(stack):
    response = stack.get("/play")
    assert response.status_code == 200
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "<script>" not in response.text and " style=" not in response.text  # no inline script or style
    assert '<script type="module" src="/assets/play.js">' in response.text


def test_the_introduction_names_the_rulings_up_to_rules_mds_last(stack):
    rulings = re.findall(r"^- \*\*R(\d+) ", (ROOT / "RULES.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert f"(R1–R{max(map(int, rulings))}, which the verdict cites)" in stack.get("/play").text


def test_the_js_client_is_served_as_published_in_clients_js_src(stack):
    published = sorted(CLIENT_MODULE.glob("*.js"))
    assert CLIENT_MODULE == Path(__file__).resolve().parents[2] / "clients" / "js" / "src"
    assert {path.name for path in published} >= {"index.js", "dealt.js", "engine.js", "commitment.js"}
    for path in published:
        response = stack.get(f"/assets/client/{path.name}")
        assert response.status_code == 200, path.name
        assert response.headers["Content-Type"].startswith("text/javascript")
        assert response.headers["Cache-Control"] == "no-cache" and response.headers["ETag"]  # revalidated
        assert response.content == path.read_bytes(), f"{path.name} is not the published file"
    assert 'from "./client/index.js"' in stack.get("/assets/play.js").text


def test_without_javascript_the_page_says_so_and_links_to_the_boards(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url("/play"))
    expect(page.locator(".notice", has_text="Playing needs JavaScript")).to_be_visible()
    assert page.locator(".notice a", has_text="boards").get_attribute("href") == "/boards"
    assert page.locator("button:visible").count() == 0  # nothing to press that could not work
    context.close()


# ---- the player ---------------------------------------------------------------------------------


def test_sign_up_keeps_the_token_in_this_browser_and_says_it_is_the_only_copy(opened, stack, site):
    name = sign_up(opened)
    player = stored(opened, "scoundrel.player")
    assert player["name"] == name and player["token"].startswith("sr_")
    expect(opened.locator("#signed-in")).to_have_text(f"Signed in as {name}")  # the site's navigation, at once
    assert opened.locator("#signed-in a").get_attribute("href") == f"/players/{name}"
    expect(opened.locator("#token-warning")).to_contain_text("This browser holds the only copy of your token.")
    expect(opened.locator("#token-box")).to_be_hidden()
    opened.click("#token-show")
    expect(opened.locator("#token-value")).to_have_text(player["token"])
    assert opened.get_attribute("#token-show", "aria-expanded") == "true"
    opened.context.grant_permissions(["clipboard-read", "clipboard-write"])
    opened.click("#token-copy")
    expect(opened.locator("#token-note")).to_have_text("The token is copied: paste it somewhere safe.")
    assert opened.evaluate("() => navigator.clipboard.readText()") == player["token"]
    # the stored token is the player's: the referee deals it a game
    answer = stack.post("/v1/games", json={"variant": "easy"}, headers={"Authorization": f"Bearer {player['token']}"})
    assert answer.status_code == 201 and answer.json()["player"] == name
    opened.reload()
    opened.wait_for_selector("body[data-ready='true']")
    expect(opened.locator("#player-name")).to_have_text(name)  # still signed in after a reload
    console_clean(opened)


def test_a_taken_name_and_a_malformed_one_are_explained_beside_the_field(opened, stack):
    taken, _ = stack.register()
    opened.fill("#signup-name", taken.upper())
    opened.click("#signup button[type=submit]")
    expect(opened.locator("#signup-error")).to_contain_text(f"The name “{taken.upper()}” is taken")
    assert opened.get_attribute("#signup-name", "aria-invalid") == "true"
    opened.fill("#signup-name", "x!")
    opened.click("#signup button[type=submit]")
    message = stack.post("/v1/players", json={"name": "x!"}).json()["errors"]["name"][0]
    expect(opened.locator("#signup-error")).to_have_text(message)
    assert stored(opened, "scoundrel.player") is None
    console_clean(opened, 409, 422)


def sign_in(page, name: str, token: str) -> None:
    if page.get_attribute("#have-token", "open") is None:
        page.click(".have-token summary")
    page.fill("#signin-name", name)
    page.fill("#signin-token", token)
    page.click("#signin button[type=submit]")


def test_a_token_brought_is_checked_before_anything_is_said_or_kept(opened, stack):
    """Any name and token was taken at its word, "Playing as" and stored, until a game was refused."""
    sign_in(opened, "whoever-xyz", "sr_bogus")
    expect(opened.locator("#signin-error")).to_have_text(
        "The referee does not know this token: check that it was copied whole, or, if a moderator replaced it, "
        "use the new one. Nothing was kept.")
    expect(opened.locator("#signin-token")).to_be_focused()
    assert opened.get_attribute("#signin-token", "aria-invalid") == "true"
    expect(opened.locator("#player-token")).to_be_hidden()
    expect(opened.locator("#signed-in")).to_be_hidden()
    assert stored(opened, "scoundrel.player") is None
    looked_at(opened, "play-token-refused")
    opened.set_viewport_size({"width": 1280, "height": 900})
    name, token = stack.register()
    sign_in(opened, "someone-else", token)  # a real token under another name
    expect(opened.locator("#signin-error")).to_have_text(
        f"This token is “{name}”'s, not “someone-else”'s: check the name. Nothing was kept.")
    assert stored(opened, "scoundrel.player") is None
    sign_in(opened, name.upper(), token)  # names ignore case: the referee's spelling is kept
    expect(opened.locator("#player-name")).to_have_text(name)
    assert stored(opened, "scoundrel.player") == {"name": name, "token": token}
    expect(opened.locator("#signed-in")).to_have_text(f"Signed in as {name}")
    console_clean(opened, 401)


def test_a_kept_token_the_referee_no_longer_accepts_is_explained_when_a_game_starts(fresh, site):
    """A token that was good when brought and was replaced since (a moderator's revoke-token): kept in this
    browser before ``/play`` is opened (the one load of the page here)."""
    init_script(fresh, """localStorage.setItem("scoundrel.player",
                                                JSON.stringify({name: "someone", token: "sr_replaced"}))""")
    opened = open_play(site, fresh)
    expect(opened.locator("#player-name")).to_have_text("someone")
    opened.click("#start [data-variant='classic']")
    expect(opened.locator("#page-error")).to_contain_text("The referee does not accept this token")
    expect(opened.locator("#game")).to_be_hidden()
    expect(opened.locator("#signed-in")).to_have_text("Signed in as someone")
    opened.click("#sign-out")
    opened.click("#sign-out-yes")
    expect(opened.locator("#signup-name")).to_be_focused()
    expect(opened.locator("#signed-in")).to_be_hidden()
    assert stored(opened, "scoundrel.player") is None
    console_clean(opened, 401)


def test_signing_up_on_a_phone_lands_with_new_game_in_view(tab, site):
    """At 375 px the token's note and the next thing to do, a new game, are both on the screen."""
    page = blank_slate(tab, site.base, {"width": 375, "height": 667})
    open_play(site, page)
    sign_up(page)
    expect(page.locator("#token-note")).to_contain_text("keep a copy")
    expect(page.locator("#token-show")).to_be_focused()
    for shown in ("#token-note", "#start-title", "#start [data-variant='classic']"):
        expect(page.locator(shown)).to_be_in_viewport()
    screenshot(page, "play-signed-up-375", full_page=False)
    console_clean(page)


@pytest.mark.parametrize(("status", "said"), [
    (429, "Too many requests for now: try again in 30 s."),
    (503, "The referee is unavailable for a moment: try again in 30 s."),
])
def test_a_busy_referee_is_explained_with_its_retry_after(opened, status, said):
    """A wait longer than the client waits by itself (its RETRY) is said at once."""
    sign_up(opened)
    opened.route("**/v1/games", lambda route: route.fulfill(
        status=status, headers={"Retry-After": "30"}, content_type="application/json",
        body=json.dumps({"code": status, "status": "busy", "message": "Slow down."})))
    opened.click("#start [data-variant='classic']")
    expect(opened.locator("#page-error")).to_have_text(said)
    expect(opened.locator("#game")).to_be_hidden()
    console_clean(opened, status)


# ---- playing ------------------------------------------------------------------------------------


def test_a_classic_game_played_to_the_end_by_clicking_ends_with_the_referees_verdict_and_a_checked_seed(
        opened, stack, site):
    """The page signed out, mid-game and after the verdict is looked at at each width on the way (``looked_at``:
    no serious axe violation, nothing wider than the screen, a screenshot)."""
    looked_at(opened, "play-signed-out")
    sign_up(opened)
    expect(opened.locator("#next-commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    committed = opened.inner_text("#next-commitment")
    opened.fill("#client-seed", "my-own_seed-1")
    start(opened)
    expect(opened.locator("#room li")).to_have_count(4)
    for count in range(1, 4):
        if opened.is_visible("#verdict"):
            break  # three monsters barehanded can kill
        opened.click(f"#game [data-move='{chosen(opened)}']")
        expect(opened.locator("#game")).to_have_attribute("data-moves", str(count))
    looked_at(opened, "play-midgame")
    play_to_the_end(opened)
    verdict_checked(stack, opened)
    run = assert_verdict_is_the_referees(stack, opened)
    assert run["origin"] == "dealt" and run["variant"] == "classic" and run["outcome"] in ("won", "lost")
    assert shown_verdict(opened)["commitment"] == committed and shown_verdict(opened)["client_seed"] == "my-own_seed-1"
    for line in ("SHA-256 of the server seed is the commitment shown before your seed was chosen",
                 "HMAC-SHA256(server seed, your seed)", "The seed deals every room",
                 "replay of the moves gives the referee's verdict"):
        expect(opened.locator("#checks .ok", has_text=line)).to_have_count(1)
    expect(opened.locator("#next-commitment")).not_to_have_text(committed)  # the next game's: a new deal
    expect(opened.locator("#start")).to_be_visible()  # another game
    opened.click("#token-show")
    looked_at(opened, "play-verdict")
    opened.click("#replay-link")
    opened.wait_for_selector("body[data-ready='true']")
    assert opened.url == site.url(f"/runs/{run['id']}")
    console_clean(opened)


FOCUSED_MOVE = "() => document.activeElement?.dataset?.move ?? null"
TABLE_AND_FOCUS = f"() => ({{...({TABLE})(), focused: ({FOCUSED_MOVE})()}})"  # one look a turn


def focused_move(page) -> str | None:
    return page.evaluate(FOCUSED_MOVE)


def test_a_game_played_with_the_keyboard_alone(opened, stack, site):
    """Tab to a move and press Enter or Space; after each move the focus is still on a move."""
    keyboard = opened.keyboard
    for _ in range(10):  # past the site's navigation, if any
        keyboard.press("Tab")
        if opened.evaluate("() => document.activeElement.id") == "signup-name":
            break
    expect(opened.locator("#signup-name")).to_be_focused()
    keyboard.type(f"kb-{uuid.uuid4().hex[:10]}")
    keyboard.press("Enter")
    expect(opened.locator("#token-show")).to_be_focused()
    for _ in range(8):  # on to the new-game buttons, right after the player's panel
        if opened.evaluate("() => document.activeElement.dataset.variant") == "hard":
            break
        keyboard.press("Tab")
    keyboard.press("Enter")  # hard: never an avoid, every move a card
    expect(opened.locator("#game")).to_have_attribute("data-moves", "0")
    keys = ["Enter", "Space"]
    table = opened.evaluate(TABLE_AND_FOCUS)
    for turn in range(MOVE_LIMIT):
        if table["over"]:
            break
        focused = table["focused"]
        assert focused is not None, "the focus left the moves"
        moves, wanted = table["legal"], chosen(opened, table)
        for _ in range(len(moves)):
            if focused == wanted:
                break
            keyboard.press("Tab" if moves.index(wanted) > moves.index(focused) else "Shift+Tab")
            focused = focused_move(opened)
        assert focused == wanted
        keyboard.press(keys[turn % 2])
        table = opened.evaluate(after_move(TABLE_AND_FOCUS), table["played"])
        assert table["played"] == str(turn + 1)
    expect(opened.locator("#verdict")).to_be_focused()
    verdict_checked(stack, opened)
    assert_verdict_is_the_referees(stack, opened)
    console_clean(opened)


def test_a_game_started_while_the_game_in_play_is_looked_up_keeps_the_keyboards_place(opened):
    """As the player signs in, the page looks up their game in play; a game dealt before the answer comes
    is the one shown, the focus on its first move. The answer is held back here until then (on a loaded
    machine it comes that late by itself): shown over the new game, it took the focus off the moves."""
    in_play = re.compile(r".*/v1/players/[^/]+/games\?status=playing$")
    held = []
    opened.route(in_play, lambda route: held.append(route))
    with opened.expect_request(in_play):
        name = sign_up(opened)
    start(opened, "hard")
    assert focused_move(opened) is not None
    held[0].continue_()
    expect(opened.locator("body")).to_have_attribute("data-signed-in", name)  # the look-up has ended
    assert focused_move(opened) is not None, "the focus left the moves"
    expect(opened.locator("#status")).not_to_contain_text("as you left it")
    console_clean(opened)


def test_the_shortcuts_avoid_and_play_a_card_by_its_place_and_the_game_can_be_forfeited(opened, stack):
    sign_up(opened)
    start(opened, "easy")
    room = cards_in_room(opened)
    opened.keyboard.press("a")
    expect(opened.locator("#game")).to_have_attribute("data-moves", "1")
    expect(opened.locator("#game-label")).to_have_text("· easy · 1 move played")
    expect(opened.locator("#status")).to_contain_text("You avoided the room")
    first = cards_in_room(opened)[0]
    assert first not in room  # the avoided cards went under the dungeon (R7)
    opened.keyboard.press("Shift+Digit1")  # the first card: barehanded if a monster
    expect(opened.locator("#game")).to_have_attribute("data-moves", "2")
    expect(opened.locator("#game-label")).to_have_text("· easy · 2 moves played")
    expect(opened.locator("#room .card")).to_have_count(3)
    assert first not in cards_in_room(opened)
    if first[0] in "SC":
        expect(opened.locator("#status")).to_contain_text("barehanded")
    opened.click("#forfeit")
    expect(opened.locator("#forfeit-no")).to_be_focused()
    opened.keyboard.press("Shift+Tab")
    opened.keyboard.press("Enter")
    expect(opened.locator("#verdict-line")).to_have_text("You gave the game up: it scores as dying at once (R18).")
    verdict_checked(stack, opened)
    run = assert_verdict_is_the_referees(stack, opened)
    assert run["outcome"] == "forfeit" and run["forfeit"] is True
    assert run["moves"][0] == "flee" and len(run["moves"]) == 2
    console_clean(opened)


def cards_in_room(page) -> list[str]:
    return page.eval_on_selector_all("#room .card", "cs => cs.map(c => c.dataset.card)")


def potions_in_room(page) -> list[str]:
    return [move for move in legal(page) if move.startswith("H")]


def two_potions_in_a_room(page, deals: int = 5) -> list[str]:
    """The potions of the first room of an easy game to hold two or more, rooms avoided (any number in a row,
    R14) until one does. An avoided room goes under the dungeon (R7), so the rooms come round again once all
    its cards have been dealt, and about one deal in fifty has none with two potions: such a game is given
    up (R18) and another one dealt."""
    for _ in range(deals):
        start(page, "easy")
        seen = set()
        while (room := tuple(cards_in_room(page))) not in seen:
            potions = potions_in_room(page)
            if len(potions) >= 2:
                return potions
            seen.add(room)
            count = played(page)
            page.click("#avoid")
            expect(page.locator("#game")).not_to_have_attribute("data-moves", str(count))
        page.click("#forfeit")
        page.click("#forfeit-yes")
        expect(page.locator("#start")).to_be_visible()
    raise AssertionError(f"no room held two potions in {deals} easy deals")


def test_r8_a_second_potion_in_a_room_says_it_heals_nothing_on_its_button_and_in_the_status(opened):
    """An easy game avoids rooms (any number in a row) until one holds two potions; the first is drunk."""
    sign_up(opened)
    first, second = two_potions_in_a_room(opened)[:2]
    button = opened.locator(f"#room [data-move='{second}']")
    expect(button).to_have_text(f"Drink: up to +{value(second)}")
    opened.click(f"#room [data-move='{first}']")
    expect(button).to_have_text("Drink: no effect, a second potion in this room (R8)")
    looked_at(opened, "play-second-potion")
    opened.set_viewport_size({"width": 1280, "height": 900})
    before = health(opened)
    button.click()
    expect(opened.locator("#status")).to_contain_text("no effect, as a second potion in a room heals nothing (R8).")
    assert health(opened) == before
    console_clean(opened)


def test_a_game_in_play_is_resumed_after_a_reload(opened, stack):
    """A hard game (classic without avoiding): as resumable as a classic one, and shorter to play out."""
    name = sign_up(opened)
    start(opened, "hard")
    opened.click(f"#game [data-move='{chosen(opened)}']")
    expect(opened.locator("#game")).to_have_attribute("data-moves", "1")
    room = opened.inner_text("#room")
    kept = stored(opened, "scoundrel.play.game")
    assert kept["player"] == name
    opened.reload()
    opened.wait_for_selector("body[data-ready='true']")
    expect(opened.locator("#game")).to_have_attribute("data-moves", "1")
    assert opened.inner_text("#room") == room
    expect(opened.locator("#start")).to_be_hidden()  # no new game while this one is played
    play_to_the_end(opened)
    verdict_checked(stack, opened)
    assert run_of(stack, opened)["game_id"] == kept["id"]
    console_clean(opened)


def test_a_seed_that_is_not_one_is_explained_beside_the_field_and_deals_nothing(opened, stack):
    name = sign_up(opened)
    opened.fill("#client-seed", "not a seed!")
    opened.click("#start [data-variant='classic']")
    expect(opened.locator("#client-seed-error")).to_have_text("A seed is 1 to 64 characters from A–Z a–z 0–9 _ -.")
    expect(opened.locator("#game")).to_be_hidden()
    opened.click("#client-seed-draw")
    drawn = opened.input_value("#client-seed")
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", drawn)
    expect(opened.locator("#client-seed-error")).to_have_text("")
    start(opened)
    token = stored(opened, "scoundrel.player")["token"]
    games = stack.get(f"/v1/players/{name}/games", headers={"Authorization": f"Bearer {token}"}).json()["games"]
    assert [game["client_seed"] for game in games] == [drawn]
    console_clean(opened)


def test_a_game_in_play_is_found_again_without_this_browsers_note_of_it_and_is_one_a_variant(opened, stack):
    sign_up(opened)
    start(opened, "easy")
    opened.click(f"#game [data-move='{chosen(opened)}']")
    expect(opened.locator("#game")).to_have_attribute("data-moves", "1")
    game_id = stored(opened, "scoundrel.play.game")["id"]
    opened.evaluate("() => localStorage.removeItem('scoundrel.play.game')")  # the id is lost
    opened.reload()
    opened.wait_for_selector("body[data-ready='true']")
    expect(opened.locator("#game")).to_have_attribute("data-moves", "1")
    expect(opened.locator("#status")).to_have_text("Your game in play, as you left it.")
    assert stored(opened, "scoundrel.play.game")["id"] == game_id
    # a second easy game while this one is played: the referee answers with this one (another tab's start)
    token = stored(opened, "scoundrel.player")["token"]
    again = stack.post("/v1/games", json={"variant": "easy"}, headers={"Authorization": f"Bearer {token}"})
    assert again.status_code == 409 and again.json()["game_id"] == game_id
    console_clean(opened)


def test_a_sealed_daily_in_its_last_hour_shows_the_time_left(opened):
    """The referee's ``closes_in`` (the service's clock, not the browser's) drives the countdown."""
    closes_in = [95.0]

    def nearly_midnight(route):
        answer = route.fetch()
        game = answer.json()
        playing = game.get("status") == "playing"
        route.fulfill(response=answer, json={**game, "closes_in": closes_in[0]} if playing else game)

    opened.route(re.compile(r".*/v1/games(/\w+)?$"), nearly_midnight)
    sign_up(opened)
    opened.click("#start [data-challenge='daily']")
    expect(opened.locator("#closing")).to_be_visible()
    expect(opened.locator("#closing")).to_contain_text(re.compile(r"closes in 1:3[0-5], at the end of its UTC day"))
    expect(opened.locator("#closing")).to_contain_text("forfeited (R18)")
    closes_in[0] = 7200.0  # two hours left: no countdown yet
    opened.reload()
    opened.wait_for_selector("body[data-ready='true']")
    expect(opened.locator("#game")).to_be_visible()
    expect(opened.locator("#closing")).to_be_hidden()
    console_clean(opened)


def test_todays_sealed_daily_keeps_its_seed_sealed_and_is_one_game_a_day(tab, site, stack):
    within_one_day(lambda day: todays_sealed_daily(open_play(site, blank_slate(tab, site.base)), stack, day))


def todays_sealed_daily(opened, stack, day) -> None:
    """The sealed daily of ``day`` (today) played to its end on /play, its seed kept sealed; a second refused."""
    sign_up(opened)
    sealed = stack.get("/v1/daily/sealed").json()
    assert sealed["date"] == day.isoformat()
    expect(opened.locator("#daily-commitment")).to_have_text(sealed["commitment"])
    opened.click("#start [data-challenge='daily']")
    expect(opened.locator("#game-label")).to_contain_text(f"sealed daily of {sealed['date']}")
    game_id = stored(opened, "scoundrel.play.game")["id"]
    play_to_the_end(opened)
    expect(opened.locator("#verdict-seed")).to_have_text(f"sealed until the UTC day {sealed['date']} is over")
    expect(opened.locator("#verdict-commitment")).to_have_text(sealed["commitment"])
    until_shown(stack, opened.locator("#checks"), "come back to this page then")
    run = run_of(stack, opened)
    expect(opened.locator("#verdict-score")).to_have_text(str(run["score"]))
    assert run["seed"] is None and run["challenge"] == "daily"
    opened.click("#start [data-challenge='daily']")  # a second one the same day
    expect(opened.locator("#page-error")).to_contain_text("Today's sealed daily is one game per player")
    expect(opened.locator("#status")).to_contain_text("You have started today's sealed daily already")
    assert stored(opened, "scoundrel.play.game")["id"] == game_id
    expect(opened.locator("#verdict-score")).to_have_text(str(run["score"]))
    console_clean(opened, 409)


def test_a_sealed_daily_over_offers_its_share_text_with_no_card_and_the_share_page(fresh, stack, site):
    """Given up at once (it counts for the streak): the text names the day, the score, the standing and
    the streak, never a card; the button copies it, the link opens the page with the card's image."""
    page = fresh
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_play(site, page)
    name = sign_up(page)
    page.click("#start [data-challenge='daily']")
    expect(page.locator("#game")).to_have_attribute("data-moves", "0")
    page.click("#forfeit")
    page.click("#forfeit-yes")
    until_shown(stack, page.locator("#share"))
    run = run_of(stack, page)
    day = run["date"]
    link = site.url(f"/share/sealed/{day}/{name}")
    text = page.inner_text("#share-text")
    assert text.splitlines()[0] == f"Scoundrel sealed daily {day}"
    share = stack.get(f"/v1/daily/{day}/sealed/share/{name}").json()
    standing = "the first to play it" if share["total"] == 1 else f"better than {share['better_than']} % of "
    assert text.splitlines()[1].startswith(f"Score {run['score']}, {standing}")
    assert "of 1 player" not in text
    assert text.splitlines()[2:] == ["Streak 1 day in a row", link]
    assert not cards_in(text)
    expect(page.locator("#share-link")).to_have_attribute("href", link)
    looked_at(page, "play-share")
    page.click("#share-copy")
    expect(page.locator("#share-note")).to_have_text("Copied: paste it into a chat.")
    assert page.evaluate("() => navigator.clipboard.readText()") == text
    page.click("#share-link")
    page.wait_for_url(link)
    expect(page.locator("img.share-card")).to_have_js_property("naturalWidth", 1200)
    looked_at(page, "share")
    console_clean(page)


# ---- widths and accessibility (and the signed-out, mid-game and verdict states at each width: in the classic
# game played to the end above) --------------------------------------------------------------------------------


PHONE = {"width": 375, "height": 740}
BELOW_THE_FOLD = """() => [...document.querySelectorAll("#room button, #avoid:not([hidden])")]
  .map(b => [b.dataset.move, b.getBoundingClientRect(), window.scrollY])
  .filter(([, box, scrolled]) => box.top + scrolled < 0 || box.bottom + scrolled > window.innerHeight)
  .map(([move]) => move)"""
TABLE_AND_FOLD = f"() => ({{...({TABLE})(), below: ({BELOW_THE_FOLD})()}})"  # one look a turn


def test_on_a_phone_every_move_is_on_the_first_screen_on_every_turn(tab, stack, site):
    """375 × 740: the masthead and the introduction give the table the screen, so no move is
    below the fold, whatever the room holds (each move button in the page's first screen)."""
    page = blank_slate(tab, site.base, PHONE)
    open_play(site, page)
    sign_up(page)
    start(page)
    screenshot(page, "play-375x740-dealt", full_page=False)
    table = page.evaluate(TABLE_AND_FOLD)
    for turn in range(MOVE_LIMIT):
        if table["over"]:
            break
        assert table["legal"], "a move to play"
        assert table["below"] == [], f"below the fold on turn {turn + 1}"
        page.click(f"#game [data-move='{chosen(page, table)}']")
        table = page.evaluate(after_move(TABLE_AND_FOLD), table["played"])
    verdict_checked(stack, page)
    console_clean(page)


def test_without_web_crypto_the_verdict_is_shown_and_the_seed_left_to_check_by_hand(fresh, stack, site):
    """Browsers give Web Crypto to https and localhost pages only; the check then falls to the player."""
    page = fresh
    init_script(page, "Object.defineProperty(globalThis.crypto, 'subtle', {value: undefined})")
    open_play(site, page)
    sign_up(page)
    start(page, "easy")
    page.click("#forfeit")
    page.click("#forfeit-yes")
    run = run_of(stack, page)
    expect(page.locator("#verdict-score")).to_have_text(str(run["score"]))
    expect(page.locator("#verdict-score-made")).to_have_text(score_made(run))  # R18: the forfeit's own words
    server_seed, client_seed = page.inner_text("#verdict-server-seed"), page.inner_text("#verdict-client-seed")
    expect(page.locator("#checks")).to_contain_text(f"printf %s {server_seed} | sha256sum gives the commitment, and "
                                                    f"printf %s {client_seed} | openssl dgst -sha256 -hmac "
                                                    f"{server_seed} -binary | basenc --base64url | tr -d = gives "
                                                    "the seed.")
    assert hashlib.sha256(server_seed.encode()).hexdigest() == page.inner_text("#verdict-commitment")
    console_clean(page)


def test_a_game_played_on_the_page_shows_on_the_dealt_board_and_the_players_page(opened, stack, site):
    """The whole visit: sign up, play to the end, then find the game's run where a player looks for it. A hard
    game, on the hard dealt board: the same visit as a classic one's, on a game shorter to play out."""
    name = sign_up(opened)
    start(opened, "hard")
    play_to_the_end(opened)
    verdict_checked(stack, opened)
    run = assert_verdict_is_the_referees(stack, opened)
    run_link = f"a[href='/runs/{run['id']}']"

    opened.click("nav >> text=Boards")
    opened.click("a[href='/boards/dealt-hard']")
    mine = opened.locator("p.you")
    shown_score = str(run["score"]).replace("-", "\u2212")  # the pages write a true minus sign
    expect(mine).to_contain_text(f"{name} scored {shown_score}")  # filled in for the signed-in browser
    expect(mine.locator(run_link)).to_have_count(1)

    mine.locator(f"a[href='/players/{name}']").click()
    assert opened.url == site.url(f"/players/{name}")
    expect(opened.locator("table.runs " + run_link)).to_have_count(1)
    expect(opened.locator("table.places", has_text="Dealt")).to_have_count(1)
    screenshot(opened, "journey-player")
    console_clean(opened)


# ---- tournaments ------------------------------------------------------------------------------------


def tournament(stack, moderator: str, start_in: int = -60, **fields) -> dict:
    """A tournament a moderator sets up: started ``start_in`` seconds from now (a minute ago), for an hour."""
    now = datetime.now(UTC)
    body = {"title": f"Gauntlet {uuid.uuid4().hex[:6]}", "starts_at": (now + timedelta(seconds=start_in)).isoformat(),
            "ends_at": (now + timedelta(seconds=start_in + 3600)).isoformat(), "max_attempts": 2, **fields}
    answer = stack.post("/v1/tournaments", json=body, headers={"Authorization": f"Bearer {moderator}"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def entry(stack, page, tournament_id: str) -> dict:
    token = stored(page, "scoundrel.player")["token"]
    return stack.get(f"/v1/tournaments/{tournament_id}", headers={"Authorization": f"Bearer {token}"}).json()["you"]


def test_a_tournaments_page_offers_join_and_play_and_play_deals_a_game_of_it(fresh, stack, site, moderator):
    gauntlet = tournament(stack, moderator, join_required=True, deals=1)
    opened = fresh
    opened.goto(site.url(f"/tournaments/{gauntlet['id']}"))  # nobody signed in: Play, and where to sign in
    opened.wait_for_selector("body[data-ready='true']")
    expect(opened.locator("#join")).to_be_hidden()
    expect(opened.locator("#play")).to_be_visible()
    open_play(site, opened)
    name = sign_up(opened)
    opened.goto(site.url(f"/tournaments/{gauntlet['id']}"))
    opened.wait_for_selector("body[data-ready='true']")
    expect(opened.locator("#entry-status")).to_have_text(f"{name}, only players who join may play: join, then play.")
    looked_at(opened, "tournament-join")
    opened.set_viewport_size({"width": 1280, "height": 900})
    opened.click("#join")
    expect(opened.locator("#entry-status")).to_have_text(f"{name}, you joined: 2 attempts left.")
    expect(opened.locator("#join")).to_be_hidden()
    assert entry(stack, opened, gauntlet["id"])["joined"]
    looked_at(opened, "tournament-entry")
    opened.set_viewport_size({"width": 1280, "height": 900})
    opened.click("#play")
    opened.wait_for_selector("body[data-ready='true']")
    offered = opened.locator(f"#tournament-list [data-tournament='{gauntlet['id']}']")
    expect(offered).to_be_focused()  # the one the page was opened for, in reach
    expect(offered).to_have_text("Play")
    offered.click()
    expect(opened.locator("#game-label")).to_contain_text(f"tournament “{gauntlet['title']}”, deal 1, classic")
    opened.click("#forfeit")
    opened.click("#forfeit-yes")
    expect(opened.locator("#verdict-seed")).to_have_text("sealed until the tournament ends (R19)")
    until_shown(stack, opened.locator("#checks"), "revealed once it has ended (R19)")
    expect(opened.locator("#replay-link")).to_have_text("The replay (open once the tournament has ended)")
    expect(opened.locator("#tournaments")).to_contain_text("1 attempt left")
    assert entry(stack, opened, gauntlet["id"])["attempts_left"] == 1
    looked_at(opened, "play-tournament")
    console_clean(opened)


def test_play_offers_the_running_tournaments_a_player_may_play_joining_where_it_must(opened, stack, moderator):
    first_game_joins = tournament(stack, moderator)
    join_first = tournament(stack, moderator, join_required=True)
    full = tournament(stack, moderator, max_entrants=1)
    _, rival = stack.register()
    assert stack.post(f"/v1/tournaments/{full['id']}/join", headers={"Authorization": f"Bearer {rival}"}).ok
    upcoming = tournament(stack, moderator, start_in=3600)
    sign_up(opened)
    choice = lambda one: opened.locator(f"#tournament-list [data-tournament='{one['id']}']")  # noqa: E731
    expect(choice(first_game_joins)).to_have_text("Play")
    expect(choice(join_first)).to_have_text("Join and play")
    expect(opened.locator("#tournaments")).to_contain_text("only players who join may play")
    assert choice(full).count() == 0 and choice(upcoming).count() == 0
    assert not entry(stack, opened, join_first["id"])["joined"]
    choice(join_first).click()
    expect(opened.locator("#game-label")).to_contain_text(f"tournament “{join_first['title']}”")
    assert entry(stack, opened, join_first["id"])["joined"]
    console_clean(opened)


def test_play_opened_for_a_tournament_it_cannot_play_says_why(fresh, stack, site, moderator):
    upcoming = tournament(stack, moderator, start_in=3600)
    page = fresh
    open_play(site, page)
    sign_up(page)
    page.goto(site.url(f"/play?tournament={upcoming['id']}"))
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("#tournament-list")).to_contain_text(
        f"{upcoming['title']} It has not started yet: its page counts down to the start.")
    page.goto(site.url("/play?tournament=nosuchthing"))
    page.wait_for_selector("body[data-ready='true']")
    expect(page.locator("#tournament-missing")).to_have_text(
        "There is no tournament nosuchthing to play: the link may be mistyped.")
    console_clean(page, 404)


# ---- "As it happens": the signed-in player's live events (docs/live.md) -----------------------------------


def test_the_signed_in_players_events_are_listed_as_they_come(fresh, stack, site, db):
    """The page holds its stream over HTTP; each event published is listed as it comes."""
    ann, ann_token = stack.register()
    passing = stack.submit(ann_token, legal_games(1)[0]).json()["id"]
    assert stack.wait_final(passing)["status"] == "verified"
    page = fresh
    open_play(site, page)
    name = sign_up(page)
    expect(page.locator("#live")).to_be_visible()
    listed = page.locator("#live-events li[data-type='place.lost']")
    for _ in range(100):  # the stream starts with the next event once open: sent until one is heard
        publish(db, name, {"type": "place.lost", "run_id": passing, "board": 1, "place": 4})
        try:
            expect(listed.first).to_be_visible(timeout=500)
            break
        except AssertionError:
            continue
    expect(listed.first).to_have_text(f"{ann} passed you on /v1/leaderboards/classic: you are 4th.")
    publish(db, name, {"type": "run.verified", "run_id": "r2", "status": "verified"})
    expect(page.locator("#live-events li").first).to_have_text("Your run r2 is verified.")
