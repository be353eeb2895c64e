"""Issue 10: dealt games played over HTTP to the end (and one forfeited) land on the
dealt board, the ladder and the sealed daily's board, and on no open board."""

import random

import pytest

from store.base.packing import LADDER_GAMES
from tests.games.table import Table
from tests.support.games import scoundrel_check


def played(stack, token: str, seed: int, **body) -> dict:
    """A dealt game played to the end with only what the API shows; its verified run."""
    table = Table(stack, token, random.Random(seed))
    table.start(**body)
    return stack.wait_final(table.play_to_the_end()["run_id"])


def forfeited(stack, token: str, seed: int) -> dict:
    table = Table(stack, token, random.Random(seed))
    table.start()
    table.step()
    game = stack.post(f"/v1/games/{table.game['id']}/forfeit", json={}, headers=table.auth).json()
    return stack.wait_final(game["run_id"])


@pytest.fixture(scope="module")
def games(stack):
    """ada: 19 games played to the end and one forfeited; bob: today's sealed daily."""
    name, token = stack.register()
    runs = [played(stack, token, seed) for seed in range(LADDER_GAMES - 1)] + [forfeited(stack, token, 99)]
    bob, bob_token = stack.register()
    sealed = played(stack, bob_token, 7, challenge="daily")
    return {"ada": name, "runs": runs, "bob": bob, "sealed": sealed}


def test_played_games_rank_on_the_dealt_board_and_never_on_an_open_one(stack, games):
    runs, name = games["runs"], games["ada"]
    best = max(runs, key=lambda run: run["score"])
    place = stack.get(f"/v1/leaderboards/dealt/classic/players/{name}").json()
    assert place["score"] == best["score"]
    assert stack.get(f"/v1/leaderboards/classic/players/{name}").status_code == 404


def test_the_ladder_counts_the_forfeit_with_the_games_played(stack, games):
    runs, name = games["runs"], games["ada"]
    assert runs[-1]["outcome"] == "forfeit" and {run["status"] for run in runs} == {"verified"}
    place = stack.get(f"/v1/leaderboards/dealt/classic/ladder/players/{name}").json()
    assert place["mean"] == round(sum(run["score"] for run in runs) / LADDER_GAMES, 2)
    assert (place["games"], place["run_id"]) == (LADDER_GAMES, runs[-1]["id"])


def test_the_sealed_daily_game_is_on_its_days_board(stack, games):
    sealed = games["sealed"]
    day = stack.get("/v1/daily/sealed").json()["date"]
    place = stack.get(f"/v1/daily/{day}/sealed/leaderboard/players/{games['bob']}").json()
    assert (place["rank"], place["score"], place["run_id"]) == (1, sealed["score"], sealed["id"])
    assert stack.get(f"/v1/daily/{day}/leaderboard").json()["total"] == 0  # not the open daily


def test_scoundrel_check_agrees(stack, games):
    checked = scoundrel_check(stack)
    assert checked.returncode == 0, checked.stderr
