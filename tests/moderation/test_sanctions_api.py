"""Bans and hidings over the API: the moderators' doors, what a banned player is refused (403, reason banned),
their game in play forfeited (R18), their place gone and given back, the moderators' log."""

import pytest

from tests.support.games import legal_games

GAME = legal_games(1)[0]
UNTIL = "2099-01-01T00:00:00.000Z"  # a ban's end, as the API writes times


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def delete(stack, path: str, token: str):
    return stack.http.delete(stack.url(path), headers=bearer(token))


def place(stack, player: str):
    """The player's place on the classic open board: its run id, or None."""
    response = stack.get(f"/v1/leaderboards/classic/players/{player}")
    return response.json()["run_id"] if response.status_code == 200 else None


@pytest.fixture(scope="module")
def players(stack):
    """Two players with a verified run each, the first with a dealt game in play."""
    named = {}
    for name in ("ada", "bob"):
        _, token = stack.register(name)
        response = stack.submit(token, GAME)
        assert response.status_code == 202, response.text
        assert stack.wait_final(response.json()["id"])["status"] == "verified"
        named[name] = token
    started = stack.post("/v1/games", headers=bearer(named["ada"]))
    assert started.status_code == 201, started.text
    named["game"] = started.json()["id"]
    return named


def test_only_a_moderator_bans_with_a_reason_and_an_end_to_come(stack, moderator, players):
    assert stack.post("/v1/players/ada/ban", json={"reason": "x"}).status_code == 401
    assert stack.post("/v1/players/ada/ban", json={"reason": "x"}, headers=bearer(players["bob"])).status_code == 403
    assert stack.post("/v1/players/nobody/ban", json={"reason": "x"}, headers=bearer(moderator)).status_code == 404
    refused = stack.post("/v1/players/ada/ban", json={"reason": ""}, headers=bearer(moderator))
    assert refused.status_code == 422 and "reason" in refused.json()["errors"]
    past = stack.post("/v1/players/ada/ban", json={"reason": "x", "until": "2001-01-01T00:00:00Z"},
                      headers=bearer(moderator))
    assert past.status_code == 422 and "until" in past.json()["errors"]
    assert delete(stack, "/v1/players/ada/ban", moderator).status_code == 409  # not banned


def test_a_banned_player_loses_their_place_and_game_and_is_refused_until_unbanned(stack, moderator, players):
    held = place(stack, "ada")
    assert held is not None
    banned = stack.post("/v1/players/ADA/ban", json={"reason": "cheating", "until": "2099-01-01T00:00:00Z"},
                        headers=bearer(moderator))
    assert banned.status_code == 200, banned.text
    assert banned.json()["ban"] == {"reason": "cheating", "moderator": "mia", "since": banned.json()["ban"]["since"],
                                    "until": UNTIL}
    assert place(stack, "ada") is None and place(stack, "bob") is not None
    game = stack.get(f"/v1/games/{players['game']}", headers=bearer(players["ada"])).json()
    assert game["status"] == "forfeit"  # R18

    for refused in (stack.submit(players["ada"], legal_games(2)[1]),
                    stack.post("/v1/runs/batch", json={"runs": [GAME]}, headers=bearer(players["ada"])),
                    stack.post("/v1/games", headers=bearer(players["ada"]))):
        assert refused.status_code == 403, refused.text
        assert refused.json()["reason"] == "banned" and refused.json()["until"] == UNTIL

    log = stack.get("/v1/moderation-log", headers=bearer(moderator)).json()
    assert log["entries"][0] | {"at": None} == {"action": "ban", "player": "ada", "moderator": "mia",
                                                "reason": "cheating", "until": UNTIL, "at": None}
    assert stack.get("/v1/players/ada/sanctions", headers=bearer(moderator)).json()["ban"]["reason"] == "cheating"

    lifted = delete(stack, "/v1/players/ada/ban", moderator)
    assert lifted.status_code == 200 and lifted.json()["ban"] is None
    assert place(stack, "ada") == held
    assert stack.post("/v1/games", headers=bearer(players["ada"])).status_code == 201
    assert stack.get("/v1/moderation-log", headers=bearer(moderator)).json()["entries"][0]["action"] == "unban"


def test_a_hidden_player_plays_on_off_the_boards_until_shown(stack, moderator, players):
    held = place(stack, "bob")
    hidden = stack.post("/v1/players/bob/hide", json={"reason": "a bot?"}, headers=bearer(moderator))
    assert hidden.status_code == 200 and hidden.json()["hidden"]["reason"] == "a bot?"
    assert place(stack, "bob") is None
    response = stack.submit(players["bob"], legal_games(3)[2])
    assert response.status_code == 202  # nothing refused: they are not to know
    stack.wait_final(response.json()["id"])
    assert place(stack, "bob") is None  # a verdict landing while hidden places nothing
    assert delete(stack, "/v1/players/bob/hide", moderator).status_code == 200
    assert place(stack, "bob") in (held, response.json()["id"])  # the better of the two runs
    assert delete(stack, "/v1/players/bob/hide", moderator).status_code == 409


def test_a_void_or_a_restore_of_a_banned_players_run_leaves_their_places_withheld(stack, moderator, players):
    another = stack.submit(players["ada"], legal_games(4)[3]).json()["id"]  # the place a void falls back on
    stack.wait_final(another)
    held = place(stack, "ada")
    assert held is not None
    stack.post("/v1/players/ada/ban", json={"reason": "cheating"}, headers=bearer(moderator))
    dispute = stack.post(f"/v1/runs/{held}/disputes", json={"reason": "R10"}, headers=bearer(players["bob"])).json()
    voided = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void"}, headers=bearer(moderator))
    assert voided.status_code == 200 and place(stack, "ada") is None
    assert stack.post(f"/v1/runs/{held}/restore", headers=bearer(moderator)).status_code == 200
    assert stack.post(f"/v1/runs/{held}/reverify", headers=bearer(moderator)).status_code == 200
    assert place(stack, "ada") is None
    assert delete(stack, "/v1/players/ada/ban", moderator).status_code == 200
    assert place(stack, "ada") == held
