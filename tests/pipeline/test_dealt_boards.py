"""Issue 10: the boards of dealt games: best per player, the sealed daily, the ladder.

Dealt runs are put in the way the game server hands a finished game over
(``tests.support.games.accept_dealt``: the acceptance path with the run's
dealt fields) and judged by the stack's real worker; every board is read
over HTTP. A dealt run never enters an open board, nor an open run a dealt one.
"""

import time
from datetime import datetime

import pytest

from store.base.packing import LADDER_GAMES
from tests.support.games import accept_dealt_games, games_by_score, legal_games


def finished(stack, name: str, games: list[dict], **dealt) -> list[dict]:
    """``name``'s dealt games, one after another (distinct submission times), verified."""
    runs = accept_dealt_games(stack, name, games, **dealt)
    assert {run["status"] for run in runs} == {"verified"}
    return runs


def entry(page: dict, player: str) -> dict | None:
    return next((entry for entry in page["entries"] if entry["player"] == player), None)


@pytest.fixture(scope="module")
def dealt(stack):
    """ada deals low, high, mid; bob one sealed daily game; cyd an open run only."""
    low, mid, high = games_by_score("dealt-1", 3)
    for name in ("ada", "bob", "cyd"):
        stack.register(name)
    today = stack.get("/v1/daily").json()["date"]
    runs = dict(zip(("low", "high", "mid"), finished(stack, "ada", [low, high, mid]), strict=True))
    [runs["sealed"]] = finished(stack, "bob", [games_by_score("dealt-1", 4)[-1]], challenge="daily", date=today)
    runs["open"] = stack.wait_final(stack.submit(stack.register("dee")[1], high).json()["id"])
    return {"runs": runs, "today": today}


def test_the_dealt_board_holds_each_players_best_dealt_game(stack, dealt):
    runs = dealt["runs"]
    page = stack.get("/v1/leaderboards/dealt/classic").json()
    assert page["variant"] == "classic" and page["total"] == 2
    ada = entry(page, "ada")
    assert (ada["run_id"], ada["score"], ada["submitted_at"]) == (
        runs["high"]["id"], runs["high"]["score"], runs["high"]["submitted_at"])
    assert entry(page, "bob")["run_id"] == runs["sealed"]["id"]  # a sealed daily game is a dealt game too
    assert [e["rank"] for e in page["entries"]] == [1, 2]
    assert page["entries"][0]["score"] >= page["entries"][1]["score"]


def test_dealt_and_open_runs_never_share_a_board(stack, dealt):
    runs = dealt["runs"]
    open_board = stack.get("/v1/leaderboards/classic").json()
    assert [e["player"] for e in open_board["entries"]] == ["dee"]
    assert entry(stack.get("/v1/leaderboards/dealt/classic").json(), "dee") is None
    seed_board = stack.get("/v1/seeds/dealt-1/leaderboard").json()
    assert [(e["player"], e["run_id"]) for e in seed_board["entries"]] == [("dee", runs["open"]["id"])]
    assert stack.get(f"/v1/daily/{dealt['today']}/leaderboard").json()["total"] == 0


def test_a_players_place_on_the_dealt_board(stack, dealt):
    place = stack.get("/v1/leaderboards/dealt/classic/players/ada?around=1").json()
    assert place["run_id"] == dealt["runs"]["high"]["id"]
    assert [e["player"] for e in place["around"]] == [e["player"] for e in
                                                      stack.get("/v1/leaderboards/dealt/classic").json()["entries"]]
    assert stack.get("/v1/leaderboards/dealt/classic/players/dee").status_code == 404
    assert stack.get("/v1/leaderboards/dealt/easy").json() == {"variant": "easy", "total": 0, "entries": []}
    assert stack.get("/v1/leaderboards/dealt/nightmare").status_code == 404
    assert stack.get("/v1/leaderboards/dealt/classic?limit=0").status_code == 422


def test_the_sealed_board_holds_the_days_sealed_games_only(stack, dealt):
    today, sealed = dealt["today"], dealt["runs"]["sealed"]
    page = stack.get(f"/v1/daily/{today}/sealed/leaderboard").json()
    assert page == {"date": today, "total": 1, "entries": [
        {"rank": 1, "player": "bob", "score": sealed["score"], "run_id": sealed["id"],
         "submitted_at": sealed["submitted_at"], "total": 1, "percentile": 100.0, "top_percent": 100.0}]}
    place = stack.get(f"/v1/daily/{today}/sealed/leaderboard/players/bob").json()
    assert (place["rank"], place["run_id"]) == (1, sealed["id"])
    assert stack.get(f"/v1/daily/{today}/sealed/leaderboard/players/ada").status_code == 404
    assert stack.get("/v1/daily/2000-01-01/sealed/leaderboard").json()["total"] == 0
    assert stack.get("/v1/daily/2999-01-01/sealed/leaderboard").status_code == 404
    assert stack.get("/v1/daily/someday/sealed/leaderboard/players/bob").status_code == 422  # not a date
    assert stack.get("/v1/daily/2026-02-30/sealed/leaderboard").json()["errors"] == {
        "day": ["Not a date: YYYY-MM-DD, a day that exists."]}
    assert stack.get(f"/v1/daily/{today}/sealed/leaderboard/players/BOB").json()["rank"] == 1  # a name in any case


@pytest.fixture(scope="module")
def ladder(stack):
    """eve finishes 22 dealt games, fay 20, gus 19: only eve and fay have a ladder place."""
    games = list(legal_games(LADDER_GAMES + 2))
    played = {}
    for name, deals in (("eve", games), ("fay", games[2:]), ("gus", games[:LADDER_GAMES - 1])):
        stack.register(name)
        played[name] = finished(stack, name, deals)
        if name == "eve":  # ladder ties go to the earlier last game, to the second: fay's ends in a later one
            past_the_second_of(played[name][-1])
    return played


def past_the_second_of(run: dict) -> None:
    """Back once the clock is past the second ``run`` was submitted in (its ``submitted_at``)."""
    second = int(datetime.fromisoformat(run["submitted_at"].replace("Z", "+00:00")).timestamp())
    while time.time() < second + 1:
        time.sleep(0.01)


def mean_of_last(runs: list[dict]) -> float:
    return round(sum(run["score"] for run in runs[-LADDER_GAMES:]) / LADDER_GAMES, 2)


def test_the_ladder_ranks_the_mean_of_the_last_20_games(stack, ladder):
    page = stack.get("/v1/leaderboards/dealt/classic/ladder").json()
    assert page["variant"] == "classic" and page["total"] == 2
    by_player = {e["player"]: e for e in page["entries"]}
    assert set(by_player) == {"eve", "fay"}
    eve, fay = by_player["eve"], by_player["fay"]
    assert eve["mean"] == mean_of_last(ladder["eve"])  # the first two games no longer count
    assert eve["mean"] != round(sum(run["score"] for run in ladder["eve"][:LADDER_GAMES]) / LADDER_GAMES, 2)
    assert (eve["games"], eve["run_id"], eve["submitted_at"]) == (
        LADDER_GAMES + 2, ladder["eve"][-1]["id"], ladder["eve"][-1]["submitted_at"])
    # eve and fay played the same last 20 deals with the same moves: equal means, and fay ended later
    assert fay["mean"] == eve["mean"] and fay["games"] == LADDER_GAMES
    assert [(e["rank"], e["player"]) for e in page["entries"]] == [(1, "eve"), (2, "fay")]


def test_the_mean_is_a_number_with_at_most_two_decimals(stack, ladder):
    response = stack.get("/v1/leaderboards/dealt/classic/ladder")
    for e in response.json()["entries"]:
        assert isinstance(e["mean"], float) and round(e["mean"], 2) == e["mean"]
        assert f'"mean":{e["mean"]!r}' in response.text.replace(" ", "")


def test_a_players_place_on_the_ladder(stack, ladder):
    place = stack.get("/v1/leaderboards/dealt/classic/ladder/players/fay?around=3").json()
    assert (place["rank"], place["mean"], place["games"]) == (2, mean_of_last(ladder["fay"]), LADDER_GAMES)
    assert place["run_id"] == ladder["fay"][-1]["id"]
    assert [e["player"] for e in place["around"]] == ["eve", "fay"]
    missing = stack.get("/v1/leaderboards/dealt/classic/ladder/players/gus")
    assert missing.status_code == 404 and "20" in missing.json()["message"]
    assert stack.get("/v1/leaderboards/dealt/classic/ladder?limit=1&offset=1").json()["entries"][0]["player"] == "fay"


def test_the_twentieth_game_puts_a_player_on_the_ladder(stack, ladder):
    [last] = finished(stack, "gus", [legal_games(LADDER_GAMES)[-1]])
    place = stack.get("/v1/leaderboards/dealt/classic/ladder/players/gus").json()
    assert place["mean"] == mean_of_last([*ladder["gus"], last]) and place["games"] == LADDER_GAMES
    assert place["run_id"] == last["id"]
