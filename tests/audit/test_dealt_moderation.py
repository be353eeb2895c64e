"""Issue 10: void, restore, re-verification and ``scoundrel check`` cover the new boards.

A void run counts on no board, so the player's next best (dealt, seed
board) or next earliest (sealed daily) run takes its place; on the ladder
a void game leaves the player's last 20, the game before them comes back,
and a player left with fewer than 20 leaves the ladder. Restoring undoes it.
"""

import time

import pytest

from store.base import keys
from store.base.packing import LADDER_GAMES
from tests.support.games import accept_dealt, accept_dealt_games, games_by_score, legal_games, scoundrel_check

from .conftest import bearer, submit_final


def void(stack, moderator: str, token: str, run_id: str) -> None:
    dispute = stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": "bot"}, headers=bearer(token)).json()
    resolved = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void"},
                          headers=bearer(moderator))
    assert resolved.status_code == 200, resolved.text


def restore(stack, moderator: str, run_id: str) -> None:
    assert stack.post(f"/v1/runs/{run_id}/restore", headers=bearer(moderator)).status_code == 200


def ladder_place(stack, player: str) -> tuple | None:
    response = stack.get(f"/v1/leaderboards/dealt/classic/ladder/players/{player}")
    if response.status_code == 404:
        return None
    place = response.json()
    return place["mean"], place["games"], place["run_id"]


def mean(runs: list[dict]) -> float:
    assert len(runs) == LADDER_GAMES
    return round(sum(run["score"] for run in runs) / LADDER_GAMES, 2)


def place(stack, path: str) -> tuple | None:
    response = stack.get(path)
    return (response.json()["run_id"], response.json()["score"]) if response.status_code == 200 else None


@pytest.fixture(scope="module")
def scene(stack):
    """ada: 21 dealt games; bob: one sealed daily game; cyd: two open runs on one seed."""
    tokens = {name: stack.register(name)[1] for name in ("ada", "bob", "cyd")}
    games = accept_dealt_games(stack, "ada", list(legal_games(LADDER_GAMES + 1)))
    time.sleep(0.003)
    today = stack.get("/v1/daily").json()["date"]
    sealed = accept_dealt(stack, "bob", games_by_score("sealed-m", 1)[0], challenge="daily", date=today)
    low, high = games_by_score("seed-m", 2)
    seed_runs = [submit_final(stack, tokens["cyd"], low)]
    time.sleep(0.003)
    seed_runs.append(submit_final(stack, tokens["cyd"], high))
    return {"tokens": tokens, "games": games, "sealed": sealed, "today": today, "seed_runs": seed_runs}


def best(runs: list[dict]) -> dict:
    return max(runs, key=lambda run: (run["score"], -runs.index(run)))


def test_voiding_a_ladder_game_brings_the_one_before_back_and_restoring_undoes_it(stack, scene, moderator):
    games, bob = scene["games"], scene["tokens"]["bob"]
    assert ladder_place(stack, "ada") == (mean(games[1:]), LADDER_GAMES + 1, games[-1]["id"])

    void(stack, moderator, bob, games[-1]["id"])
    assert ladder_place(stack, "ada") == (mean(games[:-1]), LADDER_GAMES, games[-2]["id"])
    assert place(stack, "/v1/leaderboards/dealt/classic/players/ada")[0] == best(games[:-1])["id"]

    void(stack, moderator, bob, games[5]["id"])  # 19 games left: off the ladder
    assert ladder_place(stack, "ada") is None
    assert stack.get("/v1/leaderboards/dealt/classic/ladder").json()["total"] == 0

    restore(stack, moderator, games[5]["id"])
    assert ladder_place(stack, "ada") == (mean(games[:-1]), LADDER_GAMES, games[-2]["id"])
    restore(stack, moderator, games[-1]["id"])
    assert ladder_place(stack, "ada") == (mean(games[1:]), LADDER_GAMES + 1, games[-1]["id"])
    assert place(stack, "/v1/leaderboards/dealt/classic/players/ada")[0] == best(games)["id"]


def test_voiding_the_best_dealt_game_gives_the_place_to_the_next_best(stack, scene, moderator):
    games = scene["games"]
    top = best(games)
    void(stack, moderator, scene["tokens"]["bob"], top["id"])
    rest = [run for run in games if run is not top]
    assert place(stack, "/v1/leaderboards/dealt/classic/players/ada") == (best(rest)["id"], best(rest)["score"])
    restore(stack, moderator, top["id"])
    assert place(stack, "/v1/leaderboards/dealt/classic/players/ada") == (top["id"], top["score"])


def test_a_void_sealed_daily_game_leaves_the_sealed_and_dealt_boards(stack, scene, moderator):
    sealed, path = scene["sealed"], f"/v1/daily/{scene['today']}/sealed/leaderboard/players/bob"
    assert place(stack, path) == (sealed["id"], sealed["score"])
    void(stack, moderator, scene["tokens"]["ada"], sealed["id"])
    assert place(stack, path) is None
    assert place(stack, "/v1/leaderboards/dealt/classic/players/bob") is None
    restore(stack, moderator, sealed["id"])
    assert place(stack, path) == (sealed["id"], sealed["score"])
    assert place(stack, "/v1/leaderboards/dealt/classic/players/bob") == (sealed["id"], sealed["score"])


def test_voiding_the_best_run_on_a_seed_gives_its_seed_board_place_to_the_next(stack, scene, moderator):
    low, high = scene["seed_runs"]
    path = "/v1/seeds/seed-m/leaderboard/players/cyd"
    assert place(stack, path) == (high["id"], high["score"])
    void(stack, moderator, scene["tokens"]["ada"], high["id"])
    assert place(stack, path) == (low["id"], low["score"])
    void(stack, moderator, scene["tokens"]["ada"], low["id"])
    assert place(stack, path) is None
    restore(stack, moderator, high["id"])
    restore(stack, moderator, low["id"])
    assert place(stack, path) == (high["id"], high["score"])


def test_reverify_puts_a_wrongly_scored_dealt_game_right_on_every_board(stack, scene, moderator, redis_client):
    games = scene["games"]
    last = games[-1]
    # a wrong engine's verdict: the game scored 30, on the dealt board and in the ladder window
    redis_client.hset(keys.run(last["id"]), mapping={"score": 30, "outcome": "won"})
    window = keys.board_window("ladder", ("classic",), "ada")
    redis_client.zrem(window, f"{last['id']}:{last['score']}")
    redis_client.zadd(window, {f"{last['id']}:30": int(redis_client.hget(keys.run(last["id"]), "submitted_ms"))})
    assert "ada" in scoundrel_check(stack).stderr  # the ladder key no longer matches its window

    result = stack.post(f"/v1/runs/{last['id']}/reverify", headers=bearer(moderator)).json()
    assert result["changed"] is True and result["after"]["score"] == last["score"]
    assert ladder_place(stack, "ada") == (mean(games[1:]), LADDER_GAMES + 1, last["id"])
    assert place(stack, "/v1/leaderboards/dealt/classic/players/ada") == (best(games)["id"], best(games)["score"])
    checked = scoundrel_check(stack)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("damage, named", [
    (lambda r, day: r.zincrby(keys.board_places("ladder", ("classic",)), 1, "ada"), "ladder:classic: ada"),
    (lambda r, day: r.hincrby(keys.board_games("ladder", ("classic",)), "ada", 1), "ladder-games:classic: ada"),
    (lambda r, day: r.zpopmin(keys.board_window("ladder", ("classic",), "ada")), "ladder-window:classic:ada"),
    (lambda r, day: r.hset(keys.sole_places("seed:classic:seed-m"), "seed:classic:seed-m", "1 ghost "),
     "seed-board:classic:seed-m: ghost"),  # cyd's one place on it (``Board.sole``) taken by a ghost
    (lambda r, day: r.hset(keys.board_holders("dealt", ("classic",)), "ada", "0000000000000000"),
     "dealt-board:classic: ada"),
    (lambda r, day: r.zrem(keys.board_places("sealed", (day,)), "bob"), "sealed-board:"),
])
def test_scoundrel_check_names_each_damaged_board(stack, scene, damage, named):
    db = stack.database()
    raw = db.raw
    saved = {key: raw.dump(key) for key in raw.scan_iter() if raw.type(key) in (b"zset", b"hash")}
    try:
        damage(raw, scene["today"])
        checked = scoundrel_check(stack)
        assert checked.returncode == 1
        assert named in checked.stderr
    finally:
        for key, value in saved.items():
            raw.restore(key, 0, value, replace=True)
        db.close()
    assert scoundrel_check(stack).returncode == 0
