"""Issue 10: the seed board, everyone's best open run on one deal (a seed as one variant).

Runs go in through the real HTTP API, one by one and in batches (a batch's
runs share their submission time: the board names the run behind each
place in a hash of its own, so a tie in time is no matter).
"""

import time

import pytest
import redis

import scoundrel
from store.base import keys
from tests.audit.conftest import cli
from tests.support.games import games_by_score, scoundrel_check
from tests.support.in_process import stack_of
from tests.support.service_http import SEARCHED_PAR


@pytest.fixture(scope="module")
def stack(request):
    """Par searches long enough that the par kept is the worker's search's (``SEARCHED_PAR``), not a request's
    quick line: issue 35's test checks it."""
    yield from stack_of(request, env=SEARCHED_PAR)


@pytest.fixture(scope="module")
def deal(stack):
    """On seed-b1: ada submits low then high, bob mid, cyd high then (in a batch with
    other seeds' games) low again; dee plays the seed as easy."""
    low, mid, high = games_by_score("seed-b1", 3)
    tokens = {name: stack.register(name)[1] for name in ("ada", "bob", "cyd", "dee")}
    runs = {}

    def submit(name, game):
        run = stack.wait_final(stack.submit(tokens[name], game).json()["id"])
        time.sleep(0.003)
        return run

    runs["ada-low"] = submit("ada", low)
    runs["ada-high"] = submit("ada", high)
    runs["bob"] = submit("bob", mid)
    others = games_by_score("seed-b2", 2)
    batch = stack.post("/v1/runs/batch", json={"runs": [others[0], high, others[1], {**low, "variant": "classic"}]},
                       headers={"Authorization": f"Bearer {tokens['cyd']}"}).json()["results"]
    runs["cyd-b2-low"], runs["cyd"], runs["cyd-b2-high"], runs["cyd-low"] = (
        stack.wait_final(result["run"]["id"]) for result in batch)
    runs["dee"] = submit("dee", games_by_score("seed-b1", 1, "easy")[0])
    return runs


def places(page: dict) -> list[tuple[int, str, str]]:
    return [(e["rank"], e["player"], e["run_id"]) for e in page["entries"]]


def test_each_players_best_open_run_on_the_seed_ranks_on_its_board(stack, deal):
    page = stack.get("/v1/seeds/seed-b1/leaderboard").json()
    assert (page["seed"], page["variant"], page["total"]) == ("seed-b1", "classic", 3)
    # ada and cyd tie on high: ada submitted first
    assert places(page) == [(1, "ada", deal["ada-high"]["id"]), (2, "cyd", deal["cyd"]["id"]),
                            (3, "bob", deal["bob"]["id"])]
    first = page["entries"][0]
    assert (first["score"], first["submitted_at"]) == (deal["ada-high"]["score"], deal["ada-high"]["submitted_at"])


def test_a_batchs_runs_are_told_apart_by_seed_and_score(stack, deal):
    # cyd's four batch runs share one submission time: each board still names the right one
    assert deal["cyd"]["submitted_at"] == deal["cyd-low"]["submitted_at"] == deal["cyd-b2-low"]["submitted_at"]
    other = stack.get("/v1/seeds/seed-b2/leaderboard").json()
    assert places(other) == [(1, "cyd", deal["cyd-b2-high"]["id"])]
    assert stack.get("/v1/seeds/seed-b1/leaderboard/players/cyd").json()["run_id"] == deal["cyd"]["id"]


def test_each_variant_of_a_seed_is_a_board_of_its_own(stack, deal):
    easy = stack.get("/v1/seeds/seed-b1/leaderboard?variant=easy").json()
    assert (easy["variant"], places(easy)) == ("easy", [(1, "dee", deal["dee"]["id"])])
    assert stack.get("/v1/seeds/seed-b1/leaderboard?variant=hard").json()["total"] == 0
    assert stack.get("/v1/seeds/never-played/leaderboard").json() == {
        "seed": "never-played", "variant": "classic", "total": 0, "entries": []}


def test_a_players_place_on_a_seed_board(stack, deal):
    place = stack.get("/v1/seeds/seed-b1/leaderboard/players/bob?around=1").json()
    assert (place["rank"], place["score"], place["run_id"]) == (3, deal["bob"]["score"], deal["bob"]["id"])
    assert [e["player"] for e in place["around"]] == ["cyd", "bob"]
    assert stack.get("/v1/seeds/seed-b1/leaderboard/players/dee").status_code == 404
    assert stack.get("/v1/seeds/seed-b1/leaderboard/players/dee?variant=easy").json()["rank"] == 1
    page = stack.get("/v1/seeds/seed-b1/leaderboard?limit=1&offset=2").json()
    assert (page["total"], places(page)) == (3, [(3, "bob", deal["bob"]["id"])])


@pytest.mark.parametrize("path", ["/v1/seeds/seed-b1/leaderboard?variant=nightmare",
                                  "/v1/seeds/seed-b1/leaderboard?limit=101",
                                  "/v1/seeds/seed-b1/leaderboard/players/ada?around=-1"])
def test_bad_arguments_are_422_with_the_field(stack, path):
    response = stack.get(path)
    assert response.status_code == 422 and response.json()["errors"]


def test_a_seed_outside_the_seed_pattern_has_no_board(stack):
    assert stack.get(f"/v1/seeds/{'x' * 65}/leaderboard").status_code == 404
    assert stack.get("/v1/seeds/not%20a%20seed/leaderboard/players/ada").status_code == 404


def test_runs_verified_before_seed_boards_existed_are_placed_by_scoundrel_check(stack, db, deal):
    before = stack.get("/v1/seeds/seed-b1/leaderboard").json()
    # as an older release left them: no seed boards at all
    db.redis.delete(keys.board_places("seed", ("classic", "seed-b1")), keys.board_places("seed", ("easy", "seed-b1")))
    missing = scoundrel_check(stack)
    assert missing.returncode == 1 and "seed-board:classic:seed-b1: ada is missing" in missing.stderr
    placed = scoundrel_check(stack, "--place-seed-boards")
    assert placed.returncode == 0, placed.stderr
    assert "seed board place(s) recomputed" in placed.stdout
    assert stack.get("/v1/seeds/seed-b1/leaderboard").json() == before
    assert stack.get("/v1/seeds/seed-b1/leaderboard?variant=easy").json()["total"] == 1


def test_seed_boards_of_the_older_layout_without_run_ids_are_reported_and_migrated(stack, deal):
    """An older release kept no hash of run ids beside a seed board: ``check`` reports its places as of
    an older layout and ``migrate --apply`` names their runs again."""
    before = stack.get("/v1/seeds/seed-b1/leaderboard").json()
    raw = redis.Redis.from_url(stack.redis.url, decode_responses=True)
    try:
        raw.delete(keys.board_holders("seed", ("classic", "seed-b1")))
        checked = scoundrel_check(stack)
        assert checked.returncode == 1 and "3 seed board places not naming their run" in checked.stderr
        migrated = cli(stack, "migrate", "--apply")
        assert migrated.returncode == 0, migrated.stderr
        assert "3 seed board places not naming their run" in migrated.stdout
        assert raw.hlen(keys.board_holders("seed", ("classic", "seed-b1"))) == 3
    finally:
        raw.close()
    assert stack.get("/v1/seeds/seed-b1/leaderboard").json() == before
    assert scoundrel_check(stack).returncode == 0


def searched(stack, path: str) -> dict:
    """A deal's par once the worker's search of it is kept (``searching`` false)."""
    def kept() -> dict | None:
        found = stack.get(path).json()
        return None if found["searching"] else found

    return stack.until(kept, "the worker's par search")


def test_a_deals_board_its_runs_and_their_pages_say_how_far_each_is_from_par(stack, deal):
    """Issue 35: par from the worker's search, its line replaying to it; each run's distance from it."""
    par = searched(stack, "/v1/seeds/seed-b1/par?variant=classic")
    assert scoundrel.replay("seed-b1", par["line"], variant="classic").score == par["par"] <= par["upper"]
    page = stack.get("/v1/seeds/seed-b1/leaderboard").json()
    assert page["par"] == {**{field: par[field] for field in ("par", "exact", "upper", "searching")}, "line": None}
    assert [entry["from_par"] for entry in page["entries"]] == [entry["score"] - par["par"]
                                                                 for entry in page["entries"]]
    run = stack.get(f"/v1/runs/{deal['bob']['id']}").json()
    assert (run["par"]["par"], run["from_par"]) == (par["par"], run["score"] - par["par"])
    viewer = stack.get(f"/runs/{deal['bob']['id']}").text
    assert f"{run['from_par']} from par {par['par']}".replace("-", "\u2212") in viewer
