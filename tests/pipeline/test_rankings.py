"""Issue 3: each player's best verified score per variant, ties to the
earlier submission, 1-based distinct ranks, paging and a player's place."""

import time

import pytest

from tests.support.games import games_by_score


@pytest.fixture(scope="module")
def board(stack):
    """A scenario: ada improves then regresses, bob and cyd tie, dee is rejected."""
    low, mid, high = games_by_score("rank-1", 3)
    players = {name: stack.register(name)[1] for name in ("ada", "bob", "cyd", "dee")}
    runs = {}

    def submit(name, game):
        run = stack.submit(players[name], game).json()
        time.sleep(0.005)  # distinct submission times, so ties are decided by time
        return stack.wait_final(run["id"])

    runs["ada-low"] = submit("ada", low)
    runs["ada-high"] = submit("ada", high)
    runs["ada-mid"] = submit("ada", mid)
    runs["bob"] = submit("bob", mid)
    runs["cyd"] = submit("cyd", mid)
    runs["dee"] = submit("dee", {**mid, "moves": mid["moves"][:-1]})
    runs["easy"] = submit("dee", games_by_score("rank-1", 1, "easy")[0])
    return runs


def test_a_player_is_ranked_by_their_best_verified_run(stack, board):
    entries = stack.get("/v1/leaderboards/classic").json()["entries"]
    ada = next(entry for entry in entries if entry["player"] == "ada")
    assert ada["run_id"] == board["ada-high"]["id"]
    assert ada["score"] == board["ada-high"]["score"]
    assert ada["submitted_at"] == board["ada-high"]["submitted_at"]


def test_equal_scores_rank_the_earlier_submission_first_with_distinct_ranks(stack, board):
    page = stack.get("/v1/leaderboards/classic").json()
    assert page["variant"] == "classic"
    assert page["total"] == 3  # dee's only classic run was rejected
    assert [(e["rank"], e["player"]) for e in page["entries"]] == [(1, "ada"), (2, "bob"), (3, "cyd")]
    assert page["entries"][1]["score"] == page["entries"][2]["score"] == board["bob"]["score"]


def test_rejected_runs_are_never_ranked_and_variants_have_their_own_boards(stack, board):
    assert board["dee"]["status"] == "rejected"
    assert stack.get("/v1/leaderboards/classic/players/dee").status_code == 404
    easy = stack.get("/v1/leaderboards/easy").json()
    assert [(e["player"], e["run_id"]) for e in easy["entries"]] == [("dee", board["easy"]["id"])]
    assert stack.get("/v1/leaderboards/hard").json() == {"variant": "hard", "total": 0, "entries": []}


def test_pages_follow_limit_and_offset(stack, board):
    page = stack.get("/v1/leaderboards/classic?limit=1&offset=1").json()
    assert page["total"] == 3
    assert [(e["rank"], e["player"]) for e in page["entries"]] == [(2, "bob")]
    assert stack.get("/v1/leaderboards/classic?offset=10").json()["entries"] == []


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=many", "offset=-1"])
def test_bad_paging_is_422(stack, query):
    response = stack.get(f"/v1/leaderboards/classic?{query}")
    assert response.status_code == 422
    assert response.json()["errors"]


def test_an_unknown_variant_has_no_board(stack):
    assert stack.get("/v1/leaderboards/nightmare").status_code == 404
    assert stack.get("/v1/leaderboards/nightmare/players/ada").status_code == 404


def test_a_players_place_comes_with_the_places_around_it(stack, board):
    place = stack.get("/v1/leaderboards/classic/players/bob?around=1").json()
    assert place["rank"] == 2
    assert place["run_id"] == board["bob"]["id"]
    assert [(e["rank"], e["player"]) for e in place["around"]] == [(1, "ada"), (2, "bob"), (3, "cyd")]
    top = stack.get("/v1/leaderboards/classic/players/ada?around=1").json()
    assert [e["player"] for e in top["around"]] == ["ada", "bob"]
    assert stack.get("/v1/leaderboards/classic/players/nobody").status_code == 404
