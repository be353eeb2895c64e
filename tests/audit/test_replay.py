"""Issue 4: ``GET /v1/runs/<id>/replay``, the run move by move."""

import scoundrel
from store.base import keys
from tests.support.games import games_by_score

from .conftest import submit_final


def test_a_verified_run_replays_one_step_per_move_with_its_final_verdict(stack):
    _, token = stack.register()
    game = games_by_score("replay-1", 1)[0]
    run = submit_final(stack, token, game)
    replay = stack.get(f"/v1/runs/{run['id']}/replay").json()
    assert (replay["run_id"], replay["status"], replay["verdict"]) == (run["id"], "verified", "verified")
    assert replay["error"] is None
    assert replay["final"] == {"outcome": run["outcome"], "score": run["score"], "health": run["health"],
                               "moves": len(game["moves"])}
    assert [step["move"] for step in replay["steps"]] == game["moves"]
    assert [step["index"] for step in replay["steps"]] == list(range(len(game["moves"])))
    engine = scoundrel.replay(game["seed"], game["moves"], trace=True).steps
    for step, expected in zip(replay["steps"], engine, strict=True):
        assert step["room"] == list(expected.room)
        assert (step["health"], step["weapon"], step["last_kill"], step["dungeon"]) == \
            (expected.health, expected.weapon, expected.last_kill, expected.dungeon)
        assert set(step["effect"]) >= {"damage", "healed", "equipped", "killed", "avoided", "dealt"}
    dealt = scoundrel.deal(game["seed"])
    assert replay["start"] == {"room": dealt[:4], "health": 20, "weapon": None, "kills": [], "last_kill": None,
                               "dungeon": 40}
    assert replay["steps"][0]["room"] == dealt[:4]


def test_a_rejected_run_replays_the_steps_before_the_offending_move_and_the_error(stack):
    _, token = stack.register()
    game = games_by_score("replay-2", 1)[0]
    moves = game["moves"][:6] + ["flee"] + game["moves"][6:]
    expected = scoundrel.replay(game["seed"], moves)
    assert expected.status == "rejected"
    run = submit_final(stack, token, {**game, "moves": moves})
    replay = stack.get(f"/v1/runs/{run['id']}/replay").json()
    index = expected.error.move_index
    assert (replay["status"], replay["verdict"], replay["final"]) == ("rejected", "rejected", None)
    assert len(replay["steps"]) == index
    assert replay["error"] == {**expected.error.to_dict(), "move": moves[index]}


def test_an_incomplete_run_replays_every_move_and_names_no_offending_move(stack):
    _, token = stack.register()
    run = submit_final(stack, token, {"seed": "replay-3", "moves": ["flee"]})
    replay = stack.get(f"/v1/runs/{run['id']}/replay").json()
    assert len(replay["steps"]) == 1
    assert (replay["error"]["code"], replay["error"]["move_index"], replay["error"]["move"]) == ("incomplete", 1, None)


def test_a_pending_run_replays_with_the_current_engine(stack, redis_client):
    _, token = stack.register()
    game = games_by_score("replay-4", 1)[0]
    run = submit_final(stack, token, game)
    redis_client.hset(keys.run(run["id"]), "status", "pending")  # as if its worker had not got to it yet
    try:
        replay = stack.get(f"/v1/runs/{run['id']}/replay").json()
    finally:
        redis_client.hset(keys.run(run["id"]), "status", "verified")
    assert (replay["status"], replay["verdict"]) == ("pending", "verified")
    assert replay["final"]["score"] == run["score"]
    assert len(replay["steps"]) == len(game["moves"])


def test_the_replay_of_an_unknown_run_is_404(stack):
    response = stack.get("/v1/runs/0000000000000000/replay")
    assert response.status_code == 404
    assert response.json()["message"] == "No run '0000000000000000'."
