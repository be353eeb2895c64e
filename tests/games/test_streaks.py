"""Streaks and the share card of the sealed daily, against the real service over HTTP.

A game of today's sealed daily played to its end counts today in its player's streak
(``/v1/players/<name>/streak``); the share page carries the Open Graph and Twitter card tags, its
image is a 1200 x 630 PNG, and while the day is on none of them, nor their headers, shows the day's
seed or any card of its deck. Streaks across several days, the close's forfeit and a gap:
``tests/store/test_streaks_store.py`` (the store's clock moved) and ``tests/games/test_clock_moved.py``.
"""

import io
import random
from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest
from PIL import Image

from store.base import keys
from tests.games.table import Table, cards_in

SUITS = ("Spades", "Clubs", "Diamonds", "Hearts")


class Tags(HTMLParser):
    """The page's ``<meta>`` tags: property or name → content."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: dict[str, str] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "meta" and "content" in found:
            self.tags[found.get("property") or found.get("name") or ""] = found["content"]


def everything(response) -> str:
    return response.text + "\n" + "\n".join(f"{name}: {value}" for name, value in response.headers.items())


@pytest.fixture(scope="module")
def finished(stack):
    """A player's sealed daily of today played to its end, with its verified run, and the day's seed as the
    stack's Redis holds it."""
    name, token = stack.register()
    table = Table(stack, token, random.Random(7))
    table.start(challenge="daily")
    game = table.play_to_the_end()
    run = stack.wait_final(game["run_id"])
    db = stack.database()
    seed = db.redis.hget(keys.game(game["id"]), "seed")
    db.close()
    assert seed and game["seed"] is None
    return {"name": name, "token": token, "game": game, "run": run, "seed": seed, "day": game["date"]}


def test_a_sealed_daily_played_to_its_end_counts_today_in_the_streak(stack, finished):
    today = datetime.now(UTC).date().isoformat()
    assert finished["day"] == today
    streak = stack.get(f"/v1/players/{finished['name'].upper()}/streak")
    assert streak.status_code == 200
    assert streak.json() == {"player": finished["name"], "current": 1, "best": 1, "last_date": today}



def test_the_player_page_shows_the_streak_and_links_the_day_s_share_page(stack, finished):
    page = stack.get(f"/players/{finished['name']}").text
    assert "Sealed daily streak: <strong>1</strong>" in page
    assert f'href="/share/sealed/{finished["day"]}/{finished["name"]}"' in page

def test_a_player_who_never_finished_one_has_no_streak_and_an_unknown_one_is_404(stack):
    name, token = stack.register()
    assert stack.get(f"/v1/players/{name}/streak").json() == {"player": name, "current": 0, "best": 0,
                                                             "last_date": None}
    in_play = Table(stack, token, random.Random(8))
    in_play.start(challenge="daily")
    in_play.step()
    assert stack.get(f"/v1/players/{name}/streak").json()["last_date"] is None  # not finished yet
    day = in_play.game["date"]
    for path in (f"/share/sealed/{day}/{name}", f"/share/sealed/{day}/{name}.png"):
        missing = stack.get(path)
        assert missing.status_code == 404 and missing.headers["Cache-Control"] == "no-store", path
    assert stack.get(f"/v1/daily/{day}/sealed/share/{name}").status_code == 404
    assert stack.get(f"/share/sealed/2026-02-30/{name}").status_code == 422  # no such date
    assert stack.get(f"/share/sealed/2999-01-01/{name}.png").status_code == 404  # a day to come
    unknown = stack.get("/v1/players/nobody-at-all/streak")
    assert unknown.status_code == 404 and "nobody-at-all" in unknown.json()["message"]


def test_the_share_page_has_open_graph_and_twitter_card_tags_with_the_card_image(stack, finished):
    day, name, score = finished["day"], finished["name"], finished["run"]["score"]
    page = stack.get(f"/share/sealed/{day}/{name}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "public, max-age=60"
    tags = Tags(page.text).tags
    image = stack.url(f"/share/sealed/{day}/{name}.png")
    assert tags["og:image"] == tags["twitter:image"] == image  # absolute, as unfurlers require
    assert (tags["og:image:width"], tags["og:image:height"], tags["twitter:card"]) == ("1200", "630",
                                                                                      "summary_large_image")
    assert tags["og:url"] == stack.url(f"/share/sealed/{day}/{name}")
    assert name in tags["og:title"] and day in tags["og:title"]
    share = stack.get(f"/v1/daily/{day}/sealed/share/{name}").json()
    standing = "the first to play it" if share["total"] == 1 else f"better than 0 % of {share['total']} players"
    assert f"Score {score}, {standing}" in tags["og:description"]
    assert "streak 1 day in a row" in tags["og:description"]
    assert share["url"] == tags["og:url"] and share["image"] == image
    assert share["text"].splitlines() == [f"Scoundrel sealed daily {day}", f"Score {score}, {standing}",
                                          "Streak 1 day in a row", tags["og:url"]]


def test_the_share_image_is_a_1200_by_630_png_cached_by_its_etag(stack, finished):
    day, name = finished["day"], finished["name"]
    response = stack.get(f"/share/sealed/{day}/{name}.png")
    assert response.status_code == 200 and response.headers["Content-Type"] == "image/png"
    assert response.headers["Cache-Control"] == "public, max-age=60"  # the day is on: the standing moves
    with Image.open(io.BytesIO(response.content)) as card:
        assert (card.format, card.size) == ("PNG", (1200, 630))
    etag = response.headers["ETag"]
    again = stack.get(f"/share/sealed/{day}/{name}.png", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.content


def test_while_the_day_is_on_the_share_page_and_image_show_no_seed_and_no_card(stack, finished):
    day, name, seed = finished["day"], finished["name"], finished["seed"]
    responses = [stack.get(f"/share/sealed/{day}/{name}"), stack.get(f"/share/sealed/{day}/{name}.png"),
                 stack.get(f"/v1/daily/{day}/sealed/share/{name}"), stack.get(f"/v1/players/{name}/streak")]
    assert all(response.status_code == 200 for response in responses)
    for response in responses:
        text = everything(response) if response.headers["Content-Type"] != "image/png" else \
            "\n".join(f"{name}: {value}" for name, value in response.headers.items())
        assert seed not in text and seed.encode() not in response.content
        assert not cards_in(text) and not any(f"of {suit}" in text for suit in SUITS)
    with Image.open(io.BytesIO(responses[1].content)) as card:
        assert not [key for key in card.info if key not in ("dpi", "gamma")]  # no text chunk carries anything
