"""Issue 6: ``POST /v1/runs/batch`` — up to 1,000 games in one request, each
with its own run and verdict, per-run idempotency, a malformed item refused
on its own, and far fewer verification jobs than runs. Issue 44, item 6: a refused item's
answer is its first error alone, so the answer stays smaller than the request."""

import json

import pytest
import redis
from rq import Queue

import scoundrel
from schemas.batch import MAX_FIELD_NAME
from schemas.submission import MOVE_MESSAGE
from service.app import create_app
from settings import Settings
from store.base import keys
from tests.support.games import legal_games


def queued_jobs(stack) -> list:
    return Queue("verify", connection=redis.Redis.from_url(stack.redis.url)).get_jobs()


def post_batch(stack, token, runs):
    return stack.post("/v1/runs/batch", json={"runs": runs}, headers={"Authorization": f"Bearer {token}"})


def test_each_item_is_accepted_or_refused_on_its_own(stack):
    name, token = stack.register()
    games = legal_games(3)
    earlier = stack.submit(token, games[0]).json()
    items = [games[0], games[1], {"seed": "bad seed", "moves": ["flee"]}, games[1], "not an object",
             {**games[2], "moves": games[2]["moves"] + ["S3"]}, games[2]]
    response = post_batch(stack, token, items)
    assert response.status_code == 200
    body = response.json()
    assert [r["status"] for r in body["results"]] == [200, 202, 422, 200, 422, 422, 202]
    assert (body["accepted"], body["existing"], body["invalid"]) == (2, 2, 3)
    results = body["results"]
    assert [r["index"] for r in results] == list(range(len(items)))
    assert results[0]["run"]["id"] == earlier["id"]  # per-run idempotency holds across paths
    assert results[3]["run"]["id"] == results[1]["run"]["id"]  # and within one batch
    assert "seed" in results[2]["errors"] and results[2]["run"] is None
    assert "_schema" in results[4]["errors"]
    assert list(results[5]["errors"]["moves"]) == [str(len(games[2]["moves"]))]
    assert results[6]["run"]["status"] == "pending" and results[6]["errors"] is None
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 3


def test_any_json_value_as_an_item_is_refused_on_its_own_and_the_rest_accepted(stack):
    _, token = stack.register()
    game = legal_games(4)[3]
    items = [None, game, 7, 2.5, True, "x", [], [game], {}, {"seed": "abc", "moves": []}, {"runs": [game]}]
    response = post_batch(stack, token, items)
    assert response.status_code == 200, response.text
    body = response.json()
    assert [result["status"] for result in body["results"]] == [422, 202] + [422] * (len(items) - 2)
    assert (body["accepted"], body["invalid"]) == (1, len(items) - 1)
    assert body["results"][0]["errors"] == {"_schema": ["Invalid input type."]}
    assert body["results"][9]["errors"] == {"moves": ["Moves must hold at least one move."]}


def test_a_refused_items_answer_is_its_first_error_and_the_answer_is_smaller_than_the_request(redis_url, tmp_path):
    """A thousand games of 200 moves none of which is a move (1 MB) were answered with every move's
    error, 24 MB: each refused item now names its first error, with its field."""
    client = create_app(Settings(redis_url=redis_url, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3")
                        ).test_client()
    token = client.post("/v1/players", json={"name": "batcher"}).get_json()["token"]
    not_moves = {"seed": "abc", "moves": ["S15x"] * scoundrel.MAX_MOVES}
    items = [not_moves] * 997 + [{**not_moves, "seed": "bad seed"}, {**not_moves, "moves": ["flee", "S15x"]},
                                 {**legal_games(1)[0], "x" * 10_000: 1}]
    body = json.dumps({"runs": items}).encode()
    response = client.post("/v1/runs/batch", data=body, content_type="application/json",
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert len(response.data) < len(body) / 4
    answer = response.get_json()
    assert (answer["accepted"], answer["invalid"]) == (0, 1000)
    errors = [result["errors"] for result in answer["results"]]
    assert errors[:997] == [{"moves": {"0": [MOVE_MESSAGE]}}] * 997
    assert errors[997] == {"seed": [scoundrel.SEED_MESSAGE]}  # the first field's, not the moves' as well
    assert errors[998] == {"moves": {"1": [MOVE_MESSAGE]}}
    assert errors[999] == {"x" * MAX_FIELD_NAME: ["Unknown field."]}  # a field's name repeated only so far
    assert max(len(json.dumps(result)) for result in answer["results"]) < 300


def test_a_batch_needs_far_fewer_jobs_than_runs_and_a_repeat_needs_none(stack):
    _, token = stack.register()
    games = [{"seed": f"batch-{n}", "moves": ["flee"]} for n in range(250)]
    before = len(queued_jobs(stack))
    body = post_batch(stack, token, games).json()
    assert body["accepted"] == 250
    jobs = queued_jobs(stack)[before:]
    assert len(jobs) == 3  # 100 runs a job
    assert sorted(run_id for job in jobs for run_id in job.args) == sorted(r["run"]["id"] for r in body["results"])
    again = post_batch(stack, token, games).json()
    assert again["existing"] == 250
    assert len(queued_jobs(stack)) == before + 3  # no job without a new run


@pytest.mark.parametrize("body, field", [
    ({"runs": []}, "runs"),
    ({"runs": [{"seed": "a", "moves": []}] * 1001}, "runs"),
    ({"runs": "all of them"}, "runs"),
    ({}, "runs"),
    ({"runs": [], "extra": 1}, "extra"),
])
def test_a_malformed_batch_is_422(stack, body, field):
    _, token = stack.register()
    response = stack.post("/v1/runs/batch", json=body, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 422
    assert field in response.json()["errors"]


def test_a_batch_needs_a_player_token(stack):
    assert stack.post("/v1/runs/batch", json={"runs": []}).status_code == 401


def test_every_run_of_a_batch_gets_the_engines_verdict_and_one_bad_run_fails_alone(stack):
    _, token = stack.register()
    games = [*legal_games(5), {**legal_games(1)[0], "moves": legal_games(1)[0]["moves"][:-1]}]
    runs = [r["run"] for r in post_batch(stack, token, games).json()["results"]]
    # damage one stored run behind the API's back: its job keeps failing
    stack.database().redis.hset(keys.run(runs[2]["id"]), "variant", "no-such-variant")
    finals = [stack.wait_final(run["id"]) for run in runs]
    assert finals[2]["status"] == "error"
    for index, (game, final) in enumerate(zip(games, finals, strict=True)):
        if index == 2:
            continue
        expected = scoundrel.replay(game["seed"], game["moves"], game.get("variant", "classic")).to_dict()
        assert final["status"] == expected["status"]
        assert final["score"] == expected.get("score")
    assert finals[-1]["error"]["code"] == "incomplete"
