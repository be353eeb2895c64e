"""Issue 4: disputes, and voiding and restoring a run with the boards following.

ada plays three classic games on today's daily seed (low, high, mid, in that
order). Her variant place is her best run (high); her daily place is her
first (low). Voiding a run gives the place to her next best (variant) or
next earliest (daily) verified run; restoring gives it back.
"""

import time

import pytest

from tests.support.games import games_by_score

from .conftest import bearer, submit_final


@pytest.fixture(scope="module")
def scene(stack):
    seed = stack.get("/v1/daily").json()["seed"]
    low, mid, high = games_by_score(seed, 3)
    ada = stack.register("ada")[1]
    bob = stack.register("bob")[1]
    runs = {}
    for label, game in (("low", low), ("high", high), ("mid", mid)):
        runs[label] = submit_final(stack, ada, game)
        time.sleep(0.005)
    runs["bob"] = submit_final(stack, bob, games_by_score(seed, 4)[-1])
    assert {run["status"] for run in runs.values()} == {"verified"}
    return {"ada": ada, "bob": bob, "runs": runs, "date": stack.get("/v1/daily").json()["date"]}


def classic_place(stack, player: str) -> tuple[str, int] | None:
    response = stack.get(f"/v1/leaderboards/classic/players/{player}")
    return (response.json()["run_id"], response.json()["score"]) if response.status_code == 200 else None


def daily_place(stack, date: str, player: str) -> str | None:
    entries = stack.get(f"/v1/daily/{date}/leaderboard").json()["entries"]
    return next((entry["run_id"] for entry in entries if entry["player"] == player), None)


def file(stack, token: str, run_id: str, reason: str = "This score looks impossible."):
    return stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": reason}, headers=bearer(token))


def resolve(stack, moderator: str, dispute_id: str, decision: str, note: str = ""):
    return stack.post(f"/v1/disputes/{dispute_id}/resolve", json={"decision": decision, "note": note},
                      headers=bearer(moderator))


def test_any_player_files_a_dispute_and_it_is_open(stack, scene):
    run_id = scene["runs"]["high"]["id"]
    response = file(stack, scene["bob"], run_id)
    assert response.status_code == 201
    dispute = response.json()
    assert dispute["run_id"] == run_id
    assert dispute["status"] == "open"
    assert dispute["player"] == "bob"
    assert dispute["reason"] == "This score looks impossible."
    assert dispute["decision"] is None and dispute["filed_at"].endswith("Z")


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "x" * 1001}, {"reason": 7},
                                  {"reason": "ok", "extra": 1}])
def test_a_dispute_needs_a_reason_of_1_to_1000_characters(stack, scene, body):
    response = stack.post(f"/v1/runs/{scene['runs']['low']['id']}/disputes", json=body, headers=bearer(scene["bob"]))
    assert response.status_code == 422
    assert response.json()["errors"]


def test_a_reason_of_1000_characters_is_fine(stack, scene):
    assert file(stack, scene["bob"], scene["runs"]["low"]["id"], "x" * 1000).status_code == 201


def test_a_dispute_of_an_unknown_run_is_404(stack, scene):
    assert file(stack, scene["bob"], "0000000000000000").status_code == 404


def test_open_disputes_are_listed_oldest_first_and_paged(stack, scene, moderator):
    first = file(stack, scene["bob"], scene["runs"]["mid"]["id"], "first").json()
    second = file(stack, scene["bob"], scene["runs"]["mid"]["id"], "second").json()
    listing = stack.get("/v1/disputes?status=open&limit=100", headers=bearer(moderator)).json()
    ids = [dispute["id"] for dispute in listing["disputes"]]
    assert listing["status"] == "open" and listing["total"] == len(ids)
    assert ids.index(first["id"]) < ids.index(second["id"])
    page = stack.get(f"/v1/disputes?limit=1&offset={ids.index(second['id'])}", headers=bearer(moderator)).json()
    assert page["total"] == listing["total"]
    assert [dispute["id"] for dispute in page["disputes"]] == [second["id"]]
    assert stack.get("/v1/disputes?status=nonsense", headers=bearer(moderator)).status_code == 422
    assert stack.get("/v1/disputes?limit=0", headers=bearer(moderator)).status_code == 422


def test_upholding_leaves_the_run_and_a_decision_is_final(stack, scene, moderator):
    run_id = scene["runs"]["mid"]["id"]
    dispute = file(stack, scene["bob"], run_id).json()
    response = resolve(stack, moderator, dispute["id"], "uphold", "Replayed it; every move is legal.")
    assert response.status_code == 200
    resolved = response.json()
    assert (resolved["status"], resolved["decision"], resolved["moderator"]) == ("resolved", "uphold", "mia")
    assert resolved["note"] == "Replayed it; every move is legal."
    assert stack.get(f"/v1/runs/{run_id}").json()["status"] == "verified"
    assert resolve(stack, moderator, dispute["id"], "void").status_code == 409
    assert stack.get(f"/v1/runs/{run_id}").json()["status"] == "verified"
    listed = stack.get("/v1/disputes?status=resolved&limit=100", headers=bearer(moderator)).json()["disputes"]
    assert dispute["id"] in [entry["id"] for entry in listed]
    still_open = stack.get("/v1/disputes?status=open&limit=100", headers=bearer(moderator)).json()["disputes"]
    assert dispute["id"] not in [entry["id"] for entry in still_open]


def test_resolving_takes_a_decision_and_a_known_dispute(stack, scene, moderator):
    dispute = file(stack, scene["bob"], scene["runs"]["mid"]["id"]).json()
    assert resolve(stack, moderator, dispute["id"], "ban").status_code == 422
    assert resolve(stack, moderator, "0000000000000000", "void").status_code == 404


def test_voiding_takes_the_run_off_both_boards_and_the_next_run_takes_its_place(stack, scene, moderator):
    runs, date = scene["runs"], scene["date"]
    assert classic_place(stack, "ada") == (runs["high"]["id"], runs["high"]["score"])
    assert daily_place(stack, date, "ada") == runs["low"]["id"]

    # the best run: the variant board falls back to the next best (mid), the day's board is unmoved
    high = file(stack, scene["bob"], runs["high"]["id"]).json()
    assert resolve(stack, moderator, high["id"], "void", "Client bug: impossible draw.").status_code == 200
    assert stack.get(f"/v1/runs/{runs['high']['id']}").json()["status"] == "void"
    assert classic_place(stack, "ada") == (runs["mid"]["id"], runs["mid"]["score"])
    assert daily_place(stack, date, "ada") == runs["low"]["id"]

    # the first run of the day: the day's board falls back to the next earliest (mid, after the void high)
    low = file(stack, scene["bob"], runs["low"]["id"]).json()
    assert resolve(stack, moderator, low["id"], "void").status_code == 200
    assert daily_place(stack, date, "ada") == runs["mid"]["id"]
    assert classic_place(stack, "ada") == (runs["mid"]["id"], runs["mid"]["score"])
    daily = stack.get(f"/v1/daily/{date}/leaderboard").json()["entries"]
    assert next(entry for entry in daily if entry["player"] == "ada")["score"] == runs["mid"]["score"]

    # other players are untouched
    assert classic_place(stack, "bob") == (runs["bob"]["id"], runs["bob"]["score"])

    # restoring the best run puts it back on the variant board; the day's board goes to the earliest again
    restored = stack.post(f"/v1/runs/{runs['high']['id']}/restore", headers=bearer(moderator))
    assert restored.status_code == 200
    assert restored.json()["status"] == "verified"
    assert classic_place(stack, "ada") == (runs["high"]["id"], runs["high"]["score"])
    assert daily_place(stack, date, "ada") == runs["high"]["id"]
    assert stack.post(f"/v1/runs/{runs['low']['id']}/restore", headers=bearer(moderator)).status_code == 200
    assert daily_place(stack, date, "ada") == runs["low"]["id"]
    assert classic_place(stack, "ada") == (runs["high"]["id"], runs["high"]["score"])


def test_voiding_every_run_of_a_player_takes_them_off_the_boards(stack, scene, moderator):
    run_id = scene["runs"]["bob"]["id"]
    dispute = file(stack, scene["ada"], run_id).json()
    assert resolve(stack, moderator, dispute["id"], "void").status_code == 200
    assert classic_place(stack, "bob") is None
    assert daily_place(stack, scene["date"], "bob") is None
    assert stack.post(f"/v1/runs/{run_id}/restore", headers=bearer(moderator)).status_code == 200
    assert classic_place(stack, "bob") == (run_id, scene["runs"]["bob"]["score"])


def test_only_a_void_run_can_be_restored(stack, scene, moderator):
    assert stack.post(f"/v1/runs/{scene['runs']['mid']['id']}/restore", headers=bearer(moderator)).status_code == 409
    assert stack.post("/v1/runs/0000000000000000/restore", headers=bearer(moderator)).status_code == 404


def test_a_voided_rejected_run_is_restored_to_rejected(stack, scene, moderator):
    rejected = submit_final(stack, scene["ada"], {"seed": "void-rejected", "moves": ["flee"]})
    assert rejected["status"] == "rejected"
    dispute = file(stack, scene["bob"], rejected["id"]).json()
    assert resolve(stack, moderator, dispute["id"], "void").status_code == 200
    assert stack.get(f"/v1/runs/{rejected['id']}").json()["status"] == "void"
    assert stack.post(f"/v1/runs/{rejected['id']}/restore", headers=bearer(moderator)).json()["status"] == "rejected"
