"""Issue 34: tournaments over HTTP (Flask's test client on a throwaway Redis; the verdicts recorded here as
a worker records them): a moderator creates them, players join and play, every refusal answers its
reason, a sealed deck stays hidden while the tournament runs, and the standings read as every board does."""

from datetime import UTC, datetime, timedelta

import pytest

import scoundrel
from scoundrel.strategies import play_game
from store import create_moderator, load_runs, record_verdicts
from store.base import keys
from tests.support.stores import app_client
from verification import judge

PLAYERS = ("ada", "bob", "cyd", "dee")


def at(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def api(redis_url, tmp_path_factory):
    with app_client(redis_url, tmp_path_factory.mktemp("t")) as (client, db):
        tokens = {name: client.post("/v1/players", json={"name": name}).get_json()["token"] for name in PLAYERS}
        tokens["mia"] = create_moderator(db, "mia")
        yield client, tokens, db


def created(client, tokens, **fields) -> dict:
    body = {"title": "Weekend gauntlet", "starts_at": at(-60), "ends_at": at(3600), **fields}
    answer = client.post("/v1/tournaments", json=body, headers=auth(tokens["mia"]))
    assert answer.status_code == 201, answer.get_json()
    assert answer.headers["Location"].endswith(f"/v1/tournaments/{answer.get_json()['id']}")
    return answer.get_json()


def start(client, token: str, **fields):
    return client.post("/v1/games", json=fields, headers=auth(token))


def played_out(client, db, token: str, game: dict) -> dict:
    """Play ``game`` to its end with the engine's own player (the test reads the deck from the store, as
    only the service may), and record its verdict as a worker would: the run as the API shows it."""
    seed = db.redis.hget(keys.game(game["id"]), "seed")
    moves = play_game(seed, game["variant"])
    played = 0
    state = scoundrel.start(scoundrel.deal(seed))
    while played < len(moves):
        batch = []
        for move in moves[played:]:
            batch.append(move)
            if scoundrel.apply(state, scoundrel.MOVES[move], game["variant"]).dealt:
                break
        answer = client.post(f"/v1/games/{game['id']}/moves", json={"moves": batch}, headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
        played += len(batch)
    run_id = answer.get_json()["run_id"]
    [run] = load_runs(db, [run_id])
    record_verdicts(db, [(run, judge(run))])
    return client.get(f"/v1/runs/{run_id}", headers=auth(token)).get_json()


def test_only_a_moderator_creates_and_bad_fields_are_named(api):
    client, tokens, _ = api
    body = {"title": "T", "starts_at": at(10), "ends_at": at(100)}
    assert client.post("/v1/tournaments", json=body).status_code == 401
    assert client.post("/v1/tournaments", json=body, headers=auth(tokens["ada"])).status_code == 403
    for wrong, field in [({"ends_at": at(5)}, "ends_at"), ({"starts_at": at(-100), "ends_at": at(-10)}, "ends_at"),
                         ({"scoring": "sum", "deals": 0}, "scoring"), ({"scoring": "most"}, "scoring"),
                         ({"deals": 11}, "deals"),
                         ({"max_attempts": 0}, "max_attempts"),
                         ({"variant": "chess"}, "variant"), ({"starts_at": "tomorrow"}, "starts_at"),
                         ({"prize": 1}, "prize"), ({"starts_at": "2027-01-01T00:00:00"}, "starts_at")]:
        answer = client.post("/v1/tournaments", json={**body, **wrong}, headers=auth(tokens["mia"]))
        assert answer.status_code == 422, wrong
        assert field in answer.get_json()["errors"], (wrong, answer.get_json())


def test_a_tournament_shows_its_rules_and_the_callers_entry(api):
    client, tokens, _ = api
    made = created(client, tokens, variant="easy", deals=3, max_attempts=2, join_required=True, max_entrants=50)
    shown = client.get(f"/v1/tournaments/{made['id']}", headers=auth(tokens["ada"])).get_json()
    assert {key: shown[key] for key in ("title", "variant", "state", "deals", "max_attempts", "join_required",
                                        "max_entrants", "scoring", "entrants", "final", "sealed_deals",
                                        "created_by")} == {
        "title": "Weekend gauntlet", "variant": "easy", "state": "running", "deals": 3, "max_attempts": 2,
        "join_required": True, "max_entrants": 50, "scoring": "best", "entrants": 0, "final": False,
        "sealed_deals": None, "created_by": "mia"}
    assert shown["you"] == {"joined": False, "attempts_used": [0, 0, 0], "attempts_left": 6}
    assert client.get(f"/v1/tournaments/{made['id']}").get_json()["you"] is None
    assert client.get("/v1/tournaments/999999").status_code == 404
    assert client.get("/v1/tournaments/nope").status_code == 404


def test_tournaments_are_listed_upcoming_running_and_ended(api):
    client, tokens, db = api
    soon = created(client, tokens, starts_at=at(3600), ends_at=at(7200))
    now = created(client, tokens)
    listed = {state: [t["id"] for t in client.get(f"/v1/tournaments?state={state}&limit=100").get_json()[
        "tournaments"]] for state in ("upcoming", "running")}
    assert soon["id"] in listed["upcoming"] and now["id"] in listed["running"]
    assert soon["id"] not in listed["running"] and now["id"] not in listed["upcoming"]
    assert client.get("/v1/tournaments?state=later").status_code == 422


def test_every_refusal_answers_its_reason(api):
    client, tokens, _ = api
    soon = created(client, tokens, starts_at=at(3600), ends_at=at(7200))
    assert start(client, tokens["ada"], tournament=soon["id"]).get_json()["reason"] == "not_started"
    members = created(client, tokens, join_required=True, max_entrants=1, deals=1, max_attempts=1)
    refused = start(client, tokens["ada"], tournament=members["id"])
    assert (refused.status_code, refused.get_json()["reason"]) == (409, "not_joined")
    assert client.post(f"/v1/tournaments/{members['id']}/join", headers=auth(tokens["ada"])).get_json()["joined"]
    assert not client.post(f"/v1/tournaments/{members['id']}/join", headers=auth(tokens["ada"])).get_json()["joined"]
    full = client.post(f"/v1/tournaments/{members['id']}/join", headers=auth(tokens["bob"]))
    assert (full.status_code, full.get_json()["reason"]) == (409, "full")
    game = start(client, tokens["ada"], tournament=members["id"])
    assert game.status_code == 201 and game.get_json()["tournament"] == members["id"]
    again = start(client, tokens["ada"], tournament=members["id"]).get_json()
    assert (again["reason"], again.get("game_id")) == ("game_in_play", game.get_json()["id"]), again
    client.post(f"/v1/games/{game.get_json()['id']}/forfeit", json={}, headers=auth(tokens["ada"]))
    assert start(client, tokens["ada"], tournament=members["id"]).get_json()["reason"] == "attempts_used"
    assert start(client, tokens["ada"], tournament="424242").status_code == 404
    wrong = start(client, tokens["ada"], tournament=members["id"], variant="easy")
    assert (wrong.status_code, wrong.get_json()["reason"]) == (409, "wrong_variant")
    for body, field in [({"deal": 1}, "deal"), ({"tournament": members["id"], "challenge": "daily"}, "tournament"),
                        ({"tournament": members["id"], "client_seed": "abcdefgh"}, "tournament")]:
        answer = start(client, tokens["ada"], **body)
        assert answer.status_code == 422 and field in answer.get_json()["errors"], body


def test_a_sealed_deck_is_hidden_while_the_tournament_runs(api):
    client, tokens, db = api
    sealed = created(client, tokens, deals=1, max_attempts=2)
    game = start(client, tokens["ada"], tournament=sealed["id"]).get_json()
    assert game["seed"] is None and game["closes_at"] == sealed["ends_at"] and game["deal"] == 1
    run = played_out(client, db, tokens["ada"], game)
    assert run["status"] == "verified"
    assert (run["seed"], run["moves"]) == (None, None)  # even to its player, until the end (R19)
    assert client.get(f"/v1/games/{game['id']}", headers=auth(tokens["ada"])).get_json()["seed"] is None
    assert client.get(f"/v1/games/{game['id']}").status_code == 404  # nobody else sees it yet
    assert client.get(f"/v1/runs/{run['id']}/replay").status_code in (403, 404, 409)
    seed = db.redis.hget(keys.game(game["id"]), "seed")
    for path in (f"/v1/tournaments/{sealed['id']}", f"/v1/tournaments/{sealed['id']}/standings",
                 "/v1/players/ada/runs", "/v1/leaderboards/dealt/classic", f"/tournaments/{sealed['id']}"):
        assert seed not in client.get(path).get_data(as_text=True), path


def test_standings_page_among_and_around(api):
    client, tokens, db = api
    tournament = created(client, tokens, deals=1, max_attempts=1)
    scores = {}
    for name in ("ada", "bob", "cyd"):
        game = start(client, tokens[name], tournament=tournament["id"]).get_json()
        scores[name] = played_out(client, db, tokens[name], game)["score"]
    page = client.get(f"/v1/tournaments/{tournament['id']}/standings").get_json()
    ranked = sorted(scores, key=lambda name: -scores[name])
    assert page["total"] == 3 and page["final"] is False and page["revised_at"] is None
    assert [e["score"] for e in page["entries"]] == sorted(scores.values(), reverse=True)
    assert {e["player"] for e in page["entries"]} == set(scores)
    client.post("/v1/players/ada/following", json={"player": "bob"}, headers=auth(tokens["ada"]))
    among = client.get(f"/v1/tournaments/{tournament['id']}/standings?among=ada").get_json()
    assert among["among"] == "ada" and {e["player"] for e in among["entries"]} <= {"ada", "bob"}
    around = client.get(f"/v1/tournaments/{tournament['id']}/standings?around=CYD&places=1").get_json()
    assert around["around"] == "cyd" and around["rank"] == ranked.index("cyd") + 1
    assert "cyd" in [e["player"] for e in around["entries"]] and len(around["entries"]) <= 3
    assert client.get(f"/v1/tournaments/{tournament['id']}/standings?around=dee").status_code == 404
    assert client.get(f"/v1/tournaments/{tournament['id']}/standings?around=nobody").status_code == 404
    place = client.get(f"/v1/tournaments/{tournament['id']}/standings/players/CYD?around=0").get_json()
    assert (place["rank"], place["score"], place["total"]) == (around["rank"], scores["cyd"], 3)
    assert client.get(f"/v1/tournaments/{tournament['id']}/standings/players/dee").status_code == 404


def test_a_sum_tournament_ranks_the_sum_of_each_entrants_best_game_on_each_deal(api):
    client, tokens, db = api
    made = created(client, tokens, deals=2, max_attempts=2, scoring="sum")
    scores: dict[str, dict[int, list[int]]] = {}
    for name, deals in (("ada", [1, 1, 2]), ("bob", [2]), ("cyd", [1, 2, 2])):
        for deal in deals:
            game = start(client, tokens[name], tournament=made["id"], deal=deal).get_json()
            run = played_out(client, db, tokens[name], game)
            scores.setdefault(name, {}).setdefault(deal, []).append(run["score"])
    sums = {name: sum(max(played) for played in by_deal.values()) for name, by_deal in scores.items()}
    page = client.get(f"/v1/tournaments/{made['id']}/standings").get_json()
    assert {(e["player"], e["score"]) for e in page["entries"]} == set(sums.items())
    assert [e["score"] for e in page["entries"]] == sorted(sums.values(), reverse=True)
    second = client.get(f"/v1/tournaments/{made['id']}/standings?deal=2").get_json()
    assert second["deal"] == 2 and {(e["player"], e["score"]) for e in second["entries"]} == {
        (name, max(by_deal[2])) for name, by_deal in scores.items() if 2 in by_deal}
    assert client.get(f"/v1/tournaments/{made['id']}/standings?deal=3").status_code == 404
    around = client.get(f"/v1/tournaments/{made['id']}/standings?around=bob&places=0").get_json()
    assert around["entries"][0]["score"] == sums["bob"] and around["total"] == 3
    on_deal = client.get(f"/v1/tournaments/{made['id']}/standings/players/bob?deal=2&around=0").get_json()
    assert on_deal["score"] == max(scores["bob"][2])
    assert client.get(f"/v1/tournaments/{made['id']}/standings/players/ada?deal=3").status_code == 404
    html = client.get(f"/tournaments/{made['id']}?player=cyd").get_data(as_text=True)
    assert "the sum of each entrant's best game on each deal ranks them" in html
