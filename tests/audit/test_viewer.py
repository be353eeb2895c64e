"""Issue 4: the replay viewer at ``/runs/<id>``, driven in headless Chromium.

Headless Chromium (tests/support/browser.py). Screenshots go to
``test-artifacts/`` for a human to look at.
"""

import random
import time

import pytest

import scoundrel
from scoundrel.strategies import find_win
from tests.games.table import Table
from tests.support.browser import (
    WIDTHS,
    chromium,
    console_problems,
    screenshot,
    scrolls_sideways,
    serious_violations,
)
from tests.support.games import play_at_machine_speed

from .conftest import submit_final

pytestmark = pytest.mark.served  # the viewer in Chromium, which loads it over HTTP

WON_SEED = "view-1"


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


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


def open_viewer(stack, page, run_id: str):
    page.goto(stack.url(f"/runs/{run_id}"))
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


def test_a_won_run_steps_with_buttons_keys_and_the_slider(stack, page, won):
    moves, total = won["moves"], len(won["moves"])
    open_viewer(stack, page, won["id"])
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


def test_a_rejected_run_highlights_the_offending_move_and_the_reason(stack, page, rejected):
    run, applied = rejected
    moves = run["moves"]
    open_viewer(stack, page, run["id"])
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
def test_the_viewer_fits_the_width_and_has_no_serious_accessibility_violation(stack, browser, won, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    open_viewer(stack, page, won["id"])
    page.keyboard.press("End")
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    screenshot(page, f"viewer-{width}")
    context.close()
    assert problems == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_visitor_sees_no_token_field_only_the_moderators_closed_panel(stack, browser, won, width):
    """The moderators' token field is behind "For moderators"; opened, it is styled as the page is."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    open_viewer(stack, page, won["id"])
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


def test_an_unknown_run_gets_a_404_page(stack, page):
    response = page.goto(stack.url("/runs/0000000000000000"))
    assert response.status == 404
    assert "No run" in page.inner_text("#missing h1")
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"  # a refusal, as the other pages' are


def test_a_sealed_daily_run_before_its_day_ends_says_the_apis_sentence_and_shows_no_empty_viewer(stack, browser):
    _, token = stack.register()
    auth = {"Authorization": f"Bearer {token}"}
    game = stack.post("/v1/games", json={"challenge": "daily"}, headers=auth).json()
    over = stack.post(f"/v1/games/{game['id']}/forfeit", json={"expected_moves": 0}, headers=auth).json()
    refused = stack.get(f"/v1/runs/{over['run_id']}/replay")
    assert refused.status_code == 403
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(stack.url(f"/runs/{over['run_id']}"))
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


def test_a_moderator_sees_the_server_time_of_each_move_of_a_dealt_game(stack, page, moderator):
    _, token = stack.register()
    table = Table(stack, token, random.Random(12))
    table.start()
    game = table.play_to_the_end()
    stack.wait_final(game["run_id"])
    open_viewer(stack, page, game["run_id"])
    assert page.eval_on_selector_all("#moves .move-time", "times => times.length") == 0
    page.click("#moderator-panel summary")
    page.fill("#moderator-token", moderator)
    page.click("#moderator-show")
    page.wait_for_selector("body[data-ready='true']", timeout=10_000)
    times = page.eval_on_selector_all("#moves .move-time", "times => times.map(t => t.title)")
    replay = stack.get(f"/v1/runs/{game['run_id']}/replay", headers={"Authorization": f"Bearer {moderator}"}).json()
    assert times == replay["move_times"] and len(times) == len(game["moves"])


def test_a_moderator_sees_a_run_s_flags_on_the_viewer_and_dismisses_one(stack, page, moderator):
    game, _ = play_at_machine_speed(stack)
    run = stack.get(f"/v1/runs/{game['run_id']}").json()
    auth = {"Authorization": f"Bearer {moderator}"}
    deadline = time.monotonic() + 20
    while not (listed := stack.get("/v1/flags", params={"run_id": run["id"]}, headers=auth).json()["entries"]):
        assert time.monotonic() < deadline, "the bot-speed game was not flagged"
        time.sleep(0.05)
    assert "fast_moves" in [flag["reason"] for flag in listed]

    open_viewer(stack, page, run["id"])
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
