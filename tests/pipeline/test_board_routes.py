"""A new kind of board is its registry entry: registered in ``domain.boards.BOARDS`` before the app is
built, it answers every board route (a page, ``?among=``, ``?around=``, ``/players/<name>``) at the
URLs its entry gives, documented in the OpenAPI document, with no other edit (``service.boards``).

Flask's test client on a throwaway Redis; the runs are accepted and judged in this process, so the
verdicts place them on the throwaway boards as a worker's would.
"""

import pytest

from domain.boards import BOARDS, Board, Order
from store import accept_runs, load_runs, record_verdicts
from store.accounts.following import follow
from store.runs.accepting import Submission
from tests.support.games import games_by_score
from tests.support.stores import app_client
from verification import judge

SEED = "throwaway-board"
# Each player's first verified open run of a variant: a kind keyed by a path part.
FIRSTS = Board("firsts", lambda run: not run.dealt, ("variant",), Order.FIRST,
               api="/v1/firsts/{variant}", page="/boards/firsts-{variant}", title="{Variant}: first runs",
               proves="Each player's first verified open run.")
# The same on one deal: a kind keyed by a path part and a query parameter, as a seed board is.
DEAL_FIRSTS = Board("deal-firsts", lambda run: not run.dealt and run.seed is not None, ("variant", "seed"),
                    Order.FIRST, api="/v1/firsts/deals/{seed}?variant={variant}",
                    page="/boards/seed/{seed}?variant={variant}", title="Seed {seed}: {variant}, first runs",
                    proves="Each player's first verified open run on this deal.")
PLAYERS = ("ada", "bob", "cyd")


@pytest.fixture(scope="module")
def api(redis_url, tmp_path_factory):
    BOARDS.extend([FIRSTS, DEAL_FIRSTS])  # before the app is built: its views are the registry's as it stands
    try:
        with app_client(redis_url, tmp_path_factory.mktemp("b")) as (client, db):
            yield _filled(client, db)
    finally:
        BOARDS.remove(FIRSTS)
        BOARDS.remove(DEAL_FIRSTS)


def _filled(client, db):
    """The client, once the players are registered and their runs judged."""
    for name in PLAYERS:
        assert client.post("/v1/players", json={"name": name}).status_code == 201
    # ada scores lowest, cyd highest: one run each on one deal, judged as a worker judges it
    for name, game in zip(PLAYERS, games_by_score(SEED, len(PLAYERS)), strict=True):
        [(run, _)] = accept_runs(db, name, [Submission(game["seed"], game["variant"], game["moves"])])
        [pending] = load_runs(db, [run.id])
        assert record_verdicts(db, [(pending, judge(pending))]) == [True]
    follow(db, "ada", "cyd")
    return client


PAGES = [("/v1/firsts/classic", {"variant": "classic"}),
         (f"/v1/firsts/deals/{SEED}?variant=classic", {"seed": SEED, "variant": "classic"})]


def _with(path: str, query: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}{query}"


@pytest.mark.parametrize(("path", "head"), PAGES)
def test_a_registered_board_answers_a_page_headed_by_its_parts(api, path, head):
    page = api.get(path).get_json()
    assert {key: page[key] for key in head} == head
    assert page["total"] == 3 and [entry["player"] for entry in page["entries"]] == ["cyd", "bob", "ada"]
    assert [entry["rank"] for entry in page["entries"]] == [1, 2, 3]
    assert page["entries"][0]["score"] > page["entries"][1]["score"] > page["entries"][2]["score"]


@pytest.mark.parametrize(("path", "head"), PAGES)
def test_a_registered_board_answers_among_and_around(api, path, head):
    among = api.get(_with(path, "among=ADA")).get_json()
    assert among["among"] == "ada" and among["total"] == 2
    assert [(entry["player"], entry["rank"], entry["global_rank"]) for entry in among["entries"]] == [
        ("cyd", 1, 1), ("ada", 2, 3)]
    around = api.get(_with(path, "around=Bob&places=1")).get_json()
    assert (around["around"], around["rank"], around["total"]) == ("bob", 2, 3)
    assert [entry["player"] for entry in around["entries"]] == ["cyd", "bob", "ada"]
    assert {key: around[key] for key in head} == head


@pytest.mark.parametrize(("path", "head"), PAGES)
def test_a_registered_board_answers_a_players_place(api, path, head):
    base, _, query = path.partition("?")
    place = api.get(f"{base}/players/CYD?{query}&around=1").get_json()
    assert place["rank"] == 1 and place["total"] == 3
    assert [entry["player"] for entry in place["around"]] == ["cyd", "bob"]
    missing = api.get(f"{base}/players/nobody-here?{query}")
    assert missing.status_code == 404 and "nobody-here" in missing.get_json()["message"]


def test_a_registered_board_checks_its_parts_as_every_board_does(api):
    assert api.get("/v1/firsts/nightmare").status_code == 404  # no such variant
    assert api.get("/v1/firsts/deals/no%20seed?variant=classic").status_code == 404  # not a seed
    refused = api.get(f"/v1/firsts/deals/{SEED}?variant=nightmare")
    assert refused.status_code == 422 and "variant" in str(refused.get_json()["errors"])
    assert api.get("/v1/firsts/easy").get_json() == {"variant": "easy", "total": 0, "entries": []}


def test_a_registered_boards_routes_are_in_the_openapi_document(api):
    paths = api.get("/v1/openapi.json").get_json()["paths"]
    assert {"/v1/firsts/{variant}", "/v1/firsts/{variant}/players/{name}", "/v1/firsts/deals/{seed}",
            "/v1/firsts/deals/{seed}/players/{name}"} <= set(paths)
    assert "first verified open run" in paths["/v1/firsts/{variant}"]["get"]["description"]
