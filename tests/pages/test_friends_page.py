"""A board page's "you and the players you follow": the reader and those they follow, ranked among
themselves, each with their place on the whole board, as the JSON's ``?among=`` lists them.

Six players with a run each on the classic board (scores from the engine's
own players), ada following three of them (one with no place). The table for
``?player=`` is read from the page's HTML as rendered (``tests.support.html``);
a browser signed in on /play (whose stored name, never its token, fills the
table), at 1280 and 375 px with axe-core, is ``test_in_chromium.py``'s.
"""

import pytest

from tests.support.games import games_by_score
from tests.support.html import rendered

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


def expected_rows(entries: list[dict]) -> list[list[str]]:
    return [[str(entry["rank"]), entry["player"], str(entry["score"]).replace("-", "−"), str(entry["global_rank"])]
            for entry in entries]


def test_a_looked_up_players_friends_are_ranked_among_themselves(stack, scene):
    assert [entry["player"] for entry in scene] and "gus" not in {entry["player"] for entry in scene}
    page = rendered(stack, "/boards/classic?player=ADA")
    assert page.text_content("#friends-heading") == "ada and the players they follow"
    assert page.rows("#friends tbody tr") == expected_rows(scene)
    fay = next(entry for entry in scene if entry["player"] == "fay")
    links = [row.select("td")[-1].select_one("a")["href"] for row in page.all("#friends tbody tr")
             if "fay" in row.get_text()]
    assert links == [f"/boards/classic?page=1#place-{fay['global_rank']}"]
    page = rendered(stack, "/boards/classic")  # nobody asked about: a placeholder, no table
    assert page.text_content("#friends-heading") == "You and the players you follow"
    assert page.rows("#friends tbody tr") == []
    assert "Neither ada nor anyone they follow has a place" in \
        rendered(stack, "/boards/dealt-classic-ladder?player=ada").text("#friends")
