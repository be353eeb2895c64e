"""``GET /v1/players/<name>``: a player's profile as JSON, for a player in good standing, a banned one and a
hidden one (what each viewer is shown: docs/moderation.md)."""

import pytest

from tests.support.games import legal_games


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def players(stack):
    """Three players with the same two verified runs, plus a rejected one for the first."""
    tokens = {}
    for name in ("ada", "bob", "cyd"):
        _, tokens[name] = stack.register(name)
        for game in legal_games(2):
            stack.wait_final(stack.submit(tokens[name], game).json()["id"])
    rejected = {**legal_games(1)[0], "moves": legal_games(1)[0]["moves"][:3]}  # incomplete
    response = stack.submit(tokens["ada"], rejected)
    assert response.status_code == 202, response.text
    assert stack.wait_final(response.json()["id"])["status"] == "rejected"
    return tokens


def test_a_profile_shows_registration_places_streak_and_run_counts(stack, players):
    response = stack.get("/v1/players/ADA")
    assert response.status_code == 200, response.text
    profile = response.json()
    assert profile["name"] == "ada" and profile["status"] == "active" and profile["ban"] is None
    assert profile["registered_at"].endswith("Z")
    assert profile["runs"] | {"won": 0} == {"total": 3, "verified": 2, "rejected": 1, "pending": 0, "void": 0,
                                            "error": 0, "won": 0}
    open_board = next(place for place in profile["places"] if place["board"] == "/v1/leaderboards/classic")
    on_board = stack.get("/v1/leaderboards/classic/players/ada").json()
    assert {key: open_board[key] for key in ("rank", "score", "run_id", "percentile", "total")} == \
        {key: on_board[key] for key in ("rank", "score", "run_id", "percentile", "total")}
    assert profile["ladders"] == [] and profile["league"] is None
    assert profile["streak"] == {"player": "ada", "current": 0, "best": 0, "last_date": None}
    assert stack.get("/v1/players/nobody").status_code == 404
    assert stack.get("/v1/players/me", headers=bearer(players["ada"])).json() == {"name": "ada"}  # still its own


def test_a_banned_players_profile_says_so_and_shows_no_places(stack, moderator, players):
    banned = stack.post("/v1/players/bob/ban", json={"reason": "cheating"}, headers=bearer(moderator))
    assert banned.status_code == 200
    public = stack.get("/v1/players/bob").json()
    assert public["status"] == "banned" and public["ban"] == {"since": banned.json()["ban"]["since"], "until": None}
    assert public["places"] == [] and public["streak"] is None and public["league"] is None
    assert public["runs"]["verified"] == 2
    own = stack.get("/v1/players/bob", headers=bearer(players["bob"])).json()
    assert own["ban"]["reason"] == "cheating" and own["ban"]["moderator"] == "mia"
    assert stack.get("/v1/players/bob", headers=bearer(moderator)).json()["ban"]["reason"] == "cheating"


def test_a_hidden_players_profile_tells_only_them_and_moderators(stack, moderator, players):
    shown = ("board", "page", "rank", "score", "run_id", "total", "percentile", "top_percent")
    before = sorted(({key: place[key] for key in shown} for place in stack.get("/v1/players/cyd").json()["places"]),
                    key=lambda place: place["board"])
    assert len(before) == 3  # the classic open board, and the seed board of each of its two runs
    assert stack.post("/v1/players/cyd/hide", json={"reason": "bot?"}, headers=bearer(moderator)).status_code == 200
    public = stack.get("/v1/players/cyd").json()
    assert public["status"] == "active" and public["places"] == [] and public["ban"] is None
    assert stack.get("/v1/players/cyd", headers=bearer(players["ada"])).json()["status"] == "active"
    for viewer in (players["cyd"], moderator):  # the player still sees their own places, and moderators do
        seen = stack.get("/v1/players/cyd", headers=bearer(viewer)).json()
        assert seen["status"] == "hidden"
        assert sorted(({key: place[key] for key in shown} for place in seen["places"]),
                      key=lambda place: place["board"]) == before


def test_the_players_page_says_what_the_profile_does(stack, moderator, players):
    """The page shows what the profile's JSON does: a ban and its end, no streak; of a hiding, nothing."""
    assert stack.post("/v1/players/ada/ban", json={"reason": "a bot", "until": "2099-01-01T00:00:00Z"},
                      headers=bearer(moderator)).status_code == 200
    page = " ".join(stack.get("/players/ada").text.split())
    assert "<strong>Banned</strong> by the moderators until 2099-01-01 00:00 UTC" in page
    assert "a bot" not in page and "mia" not in page  # the reason and the moderator are not the public's
    assert 'id="banned"' not in stack.get("/players/cyd").text  # hidden (the test above): the page says nothing
    assert stack.http.delete(stack.url("/v1/players/ada/ban"), headers=bearer(moderator)).status_code == 200
    assert 'id="banned"' not in stack.get("/players/ada").text
