"""Issue 3, end to end: submitting runs over HTTP to the real API, verified
by a real RQ worker, against a throwaway Redis."""

import random

import pytest

import scoundrel
from scoundrel.strategies import play_game
from store.accounts.tokens import hash_token
from store.base import keys
from tests.audit.conftest import cli
from tests.support.games import moderator_token

GAME_SEED = "pipeline-1"


def a_game(seed: str = GAME_SEED, rng_seed: int = 0, variant: str = "classic") -> dict:
    return {"seed": seed, "moves": play_game(seed, variant, rng=random.Random(rng_seed), strategy="random"),
            "variant": variant}


def test_health_answers_ok_with_versions(stack):
    body = stack.get("/v1/health").json()
    assert body["status"] == "ok"
    assert body["redis"] == "up"
    assert body["ruleset"] == "scoundrel-1"


def test_register_returns_a_token_shown_once_and_stored_hashed(stack):
    response = stack.post("/v1/players", json={"name": "hashed_ada"})
    assert response.status_code == 201
    token = response.json()["token"]
    assert response.json()["name"] == "hashed_ada"
    assert len(token) >= 32
    raw = stack.database().raw
    stored = [raw.dump(key) for key in raw.scan_iter()]
    assert not any(token.encode() in (value or b"") for value in stored)


def test_a_taken_name_is_409(stack):
    stack.register("taken_name")
    response = stack.post("/v1/players", json={"name": "taken_name"})
    assert response.status_code == 409
    assert "taken" in response.json()["message"]


@pytest.mark.parametrize("body, field", [
    ({"name": "ab"}, "name"),
    ({"name": "x" * 33}, "name"),
    ({"name": "bad name"}, "name"),
    ({"name": 42}, "name"),
    ({}, "name"),
    ({"name": "fine_name", "admin": True}, "admin"),
    ({"name": "___"}, "name"),  # a letter or digit at least
    ({"name": "-_-_-"}, "name"),
])
def test_a_malformed_registration_is_422_with_the_field(stack, body, field):
    response = stack.post("/v1/players", json=body)
    assert response.status_code == 422
    assert field in response.json()["errors"]


def test_a_verified_run_carries_the_engines_verdict(stack):
    _, token = stack.register()
    game = a_game()
    response = stack.submit(token, game)
    assert response.status_code == 202
    run = response.json()
    assert response.headers["Location"].endswith(f"/v1/runs/{run['id']}")
    assert run["status"] == "pending" and run["moves"] == game["moves"] and run["verified_at"] is None
    final = stack.wait_final(run["id"])
    expected = scoundrel.replay(game["seed"], game["moves"], game["variant"]).to_dict()
    assert final["status"] == "verified"
    for field in ("outcome", "score", "health", "ruleset", "engine"):
        assert final[field] == expected[field]
    assert final["error"] is None and final["verified_at"] >= final["submitted_at"]


def test_a_rejected_run_keeps_its_reason(stack):
    name, token = stack.register()
    game = a_game()
    game["moves"] = game["moves"][:-1]  # R17: the game is not over
    run = stack.submit(token, game).json()
    final = stack.wait_final(run["id"])
    assert final["status"] == "rejected"
    assert final["error"]["code"] == "incomplete"
    assert final["error"]["move_index"] == len(game["moves"])
    assert "R17" in final["error"]["message"]
    assert final["score"] is None
    assert stack.get(f"/v1/leaderboards/classic/players/{name}").status_code == 404


def test_no_token_or_a_wrong_one_is_401_even_before_the_body_is_read(stack):
    assert stack.post("/v1/runs", json=a_game()).status_code == 401
    assert stack.submit("sr_not-a-token", a_game()).status_code == 401
    response = stack.post("/v1/runs", json={"seed": "bad seed!"}, headers={"Authorization": "Basic abc"})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("body, field", [
    ({"seed": "bad seed!", "moves": ["flee"]}, "seed"),
    ({"seed": "x" * 65, "moves": ["flee"]}, "seed"),
    ({"seed": "abc", "moves": ["flee"], "variant": "nightmare"}, "variant"),
    ({"seed": "abc", "moves": ["flee", "S3"]}, "moves"),  # R2: the fight mode is explicit
    ({"seed": "abc", "moves": ["H5w"]}, "moves"),
    ({"seed": "abc", "moves": ["flee"] * 201}, "moves"),
    ({"seed": "abc", "moves": "flee"}, "moves"),
    ({"seed": "abc", "moves": []}, "moves"),  # no move: a client's mistake, not a run to store
    ({"seed": "abc"}, "moves"),
    ({"moves": []}, "seed"),
    ({"seed": "abc", "moves": [], "score": 30}, "score"),
])
def test_a_malformed_submission_is_422_with_field_errors_and_nothing_is_stored(stack, body, field):
    name, token = stack.register()
    response = stack.submit(token, body)
    assert response.status_code == 422
    assert field in response.json()["errors"]
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 0


def test_a_bad_move_is_reported_at_its_index(stack):
    _, token = stack.register()
    errors = stack.submit(token, {"seed": "abc", "moves": ["flee", "S3x", "H4"]}).json()["errors"]
    assert list(errors["moves"]) == ["1"]


def test_unparsable_json_is_400_and_a_non_json_body_is_415(stack):
    name, token = stack.register()
    headers = {"Authorization": f"Bearer {token}"}
    broken = stack.post("/v1/runs", data="{not json", headers={**headers, "Content-Type": "application/json"})
    assert broken.status_code == 400
    plain = stack.post("/v1/runs", data="seed=abc", headers={**headers, "Content-Type": "text/plain"})
    assert plain.status_code == 415
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 0


def test_the_same_game_again_is_the_same_run(stack):
    name, token = stack.register()
    game = a_game(rng_seed=5)
    first = stack.submit(token, game)
    again = stack.submit(token, game)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 1


def test_another_player_with_the_same_game_gets_a_run_of_their_own(stack):
    _, ada = stack.register()
    _, bob = stack.register()
    game = a_game(rng_seed=6)
    assert stack.submit(ada, game).json()["id"] != stack.submit(bob, game).json()["id"]


def test_an_idempotency_key_returns_the_run_it_named_and_refuses_another_body(stack):
    name, token = stack.register()
    key = {"Idempotency-Key": "retry-123"}
    first = stack.submit(token, a_game(rng_seed=7), key)
    again = stack.submit(token, a_game(rng_seed=7), key)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]
    other = stack.submit(token, a_game(rng_seed=8), key)
    assert other.status_code == 422
    assert "Idempotency-Key" in other.json()["errors"]
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 1


def test_an_unknown_run_is_404(stack):
    assert stack.get("/v1/runs/0000000000000000").status_code == 404


def test_a_players_runs_come_newest_first_in_pages(stack):
    name, token = stack.register()
    ids = [stack.submit(token, a_game(seed=f"page-{i}")).json()["id"] for i in range(5)]
    page = stack.get(f"/v1/players/{name}/runs?limit=2&offset=1").json()
    assert page["total"] == 5
    assert [run["id"] for run in page["runs"]] == ids[::-1][1:3]
    assert stack.get("/v1/players/nobody_here/runs").status_code == 404
    assert stack.get(f"/v1/players/{name}/runs?limit=101").status_code == 422


def test_openapi_and_docs_are_served(stack):
    spec = stack.get("/v1/openapi.json").json()
    assert "/v1/runs" in spec["paths"] and "/v1/leaderboards/{variant}" in spec["paths"]
    assert "SubmissionSchema" in str(spec["components"]["schemas"]) or "Submission" in str(spec)
    docs = stack.get("/v1/docs")
    assert docs.status_code == 200 and "swagger-ui" in docs.text
    with_slash = stack.get("/v1/docs/")  # as people type it: redirected to the page
    assert with_slash.history[0].status_code == 308 and with_slash.url == stack.url("/v1/docs")
    assert with_slash.status_code == 200 and "swagger-ui" in with_slash.text
    assert stack.get("/v1/docs-assets/swagger-ui-bundle.js").status_code == 200


def test_a_name_is_one_name_in_every_case_and_keeps_its_spelling(stack):
    registered = stack.post("/v1/players", json={"name": "Case_Ada"})
    assert registered.status_code == 201 and registered.json()["name"] == "Case_Ada"
    for other in ("case_ada", "CASE_ADA", "Case_Ada"):
        taken = stack.post("/v1/players", json={"name": other})
        assert taken.status_code == 409, taken.text
        assert "taken" in taken.json()["message"]
    token = registered.json()["token"]
    run = stack.submit(token, a_game(rng_seed=7)).json()
    assert run["player"] == "Case_Ada"
    stack.wait_final(run["id"])
    for spelling in ("case_ada", "CASE_ADA", "Case_Ada"):
        runs = stack.get(f"/v1/players/{spelling}/runs").json()
        assert (runs["player"], runs["total"]) == ("Case_Ada", 1)
        place = stack.get(f"/v1/leaderboards/classic/players/{spelling}").json()
        assert place["run_id"] == run["id"]
        assert [entry["player"] for entry in place["around"] if entry["run_id"] == run["id"]] == ["Case_Ada"]
    revoked = stack.post("/v1/players/CASE_ADA/revoke-token",
                         headers={"Authorization": f"Bearer {moderator_token(stack, 'case-mod')}"})
    assert revoked.json()["name"] == "Case_Ada"
    assert stack.submit(revoked.json()["token"], a_game(rng_seed=9)).json()["player"] == "Case_Ada"


def test_players_an_older_release_let_differ_only_in_case_keep_working_once_migrated(stack):
    """Data an older release wrote: two players differing only in case, no spelling naming either."""
    raw = stack.database().redis
    tokens = {}
    for created_ms, name in ((1_000, "old_Bea"), (2_000, "OLD_BEA")):
        tokens[name] = f"sr_older-{name}"
        raw.hset(keys.player(name), mapping={"name": name, "token_hash": hash_token(tokens[name]),
                                             "created_ms": created_ms})
        raw.set(keys.token(hash_token(tokens[name])), name)
    dry = cli(stack, "migrate")
    assert "2 player or moderator names without their lower-case spelling" in dry.stdout, dry.stdout
    assert not raw.exists(keys.player_name("old_bea"))
    applied = cli(stack, "migrate", "--apply")
    assert applied.returncode == 0 and "rewrote" in applied.stdout, applied.stderr
    assert raw.get(keys.player_name("old_bea")) == "old_Bea"  # the earlier registration holds the spelling
    assert "nothing to change" in cli(stack, "migrate").stdout

    for name, token in tokens.items():  # each keeps its token, and is found by its own spelling
        assert stack.submit(token, a_game(rng_seed=8)).json()["player"] == name
        assert stack.get(f"/v1/players/{name}/runs").json()["player"] == name
    assert stack.get("/v1/players/Old_Bea/runs").json()["player"] == "old_Bea"  # another: the earlier one
    assert stack.post("/v1/players", json={"name": "Old_BEA"}).status_code == 409
    assert stack.post("/v1/players", json={"name": "old_bea"}).status_code == 409
    assert stack.post("/v1/players", json={"name": "newer_bea"}).status_code == 201
