"""Issue 34: the weekly leagues over HTTP (Flask's test client on a throwaway Redis): the caller's league
this week, a cohort's standings with their zones, a player's history, the week's board, and the refusals."""

import pytest

from domain.leagues import LeagueRules
from domain.seasons import Schedule, season_at
from service.app import create_app
from settings import Settings
from store import Database
from store.base.clock import now_ms
from store.base.packing import iso_time
from store.leagues.membership import join_week
from tests.support.leagues import game, placed
from tests.support.stores import empty
from worker.registry import JOBS

RULES = LeagueRules(("Bronze", "Silver", "Gold"), 6, 2)


@pytest.fixture(scope="module")
def league(redis_url, tmp_path_factory):
    """Last week ada and five others played one Bronze cohort, ada first; this week ada, bob and cyd play."""
    settings = Settings(redis_url=redis_url, archive_url=f"sqlite:///{tmp_path_factory.mktemp('l')}/a.sqlite3",
                        league_tiers=RULES.tiers, league_cohort=RULES.size, league_moves=RULES.moves)
    db = empty(Database.from_settings(settings, JOBS))
    app = create_app(settings)
    db.archive.upgrade()
    client = app.test_client()
    tokens = {name: client.post("/v1/players", json={"name": name}).get_json()["token"]
              for name in ("ada", "bob", "cyd", "dee", "eve", "fay", "gus")}
    this = season_at(Schedule.WEEKLY, now_ms())
    last = season_at(Schedule.WEEKLY, this.starts_ms - 1)
    for at, (name, score) in enumerate([("ada", 20), ("bob", 15), ("cyd", 10), ("dee", 5), ("eve", 0), ("fay", -5)]):
        run = game(name, last.id, score, at)
        placed(db, run)
        join_week(db, RULES, run)
    for at, (name, score) in enumerate([("ada", -3), ("fay", 4)]):
        run = game(name, this.id, score, at)
        placed(db, run)
        join_week(db, RULES, run)
    yield client, tokens, this, last
    db.close()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_callers_league_this_week_with_its_cohort_and_when_it_ends(league):
    client, tokens, this, _ = league
    ada = client.get("/v1/leagues/current", headers=auth(tokens["ada"])).get_json()
    assert (ada["week"], ada["tier"], ada["rank"], ada["over"]) == (this.id, "Silver", 1, False)
    assert [(e["player"], e["rank"], e["zone"]) for e in ada["entries"]] == [("ada", 1, "stays")]  # one: none move
    assert ada["ends_at"] == iso_time(this.ends_ms)
    fay = client.get("/v1/leagues/current", headers=auth(tokens["fay"])).get_json()
    assert (fay["tier"], fay["rank"]) == ("Bronze", 1) and fay["cohort"] != ada["cohort"]  # last: stays in Bronze
    bob = client.get("/v1/leagues/current", headers=auth(tokens["bob"])).get_json()
    assert (bob["tier"], bob["cohort"], bob["entries"]) == ("Silver", None, [])  # not played yet: will join Silver
    gus = client.get("/v1/leagues/current", headers=auth(tokens["gus"])).get_json()
    assert (gus["tier"], gus["cohort"]) == ("Bronze", None)  # never played


def test_a_past_cohort_says_who_went_up_and_down_and_the_history_agrees(league):
    client, _, _, last = league
    cohort = client.get(f"/v1/leagues/{last.id}/cohorts/1").get_json()
    assert (cohort["tier"], cohort["over"]) == ("Bronze", True)
    assert [(e["player"], e["zone"]) for e in cohort["entries"]] == [
        ("ada", "up"), ("bob", "up"), ("cyd", "stays"), ("dee", "stays"), ("eve", "stays"), ("fay", "stays")]
    assert all(e["total"] == 6 and "global_rank" in e for e in cohort["entries"])
    weeks = client.get("/v1/players/ADA/leagues").get_json()
    assert weeks["player"] == "ada"
    assert [(w["week"], w["tier"], w["rank"], w["zone"]) for w in weeks["weeks"]][1:] == [
        (last.id, "Bronze", 1, "up")]
    board = client.get(f"/v1/leagues/{last.id}?limit=2").get_json()
    assert (board["total"], [e["player"] for e in board["entries"]]) == (6, ["ada", "bob"])
    place = client.get(f"/v1/leagues/{last.id}/players/BOB?around=1").get_json()
    assert place["rank"] == 2 and [e["player"] for e in place["around"]] == ["ada", "bob", "cyd"]


@pytest.mark.parametrize(("path", "status"), [
    ("/v1/leagues/2026-49/cohorts/1", 422), ("/v1/leagues/9999-W01/cohorts/1", 404),
    ("/v1/leagues/2020-W01/cohorts/1", 404), ("/v1/players/nobody/leagues", 404), ("/v1/leagues/current", 401),
    ("/v1/leagues/2026-W60", 404), ("/v1/leagues/2026-W6", 422), ("/v1/leagues/2020-W01/cohorts/x", 404)])
def test_refusals_name_what_is_wrong(league, path, status):
    client = league[0]
    answer = client.get(path)
    assert answer.status_code == status
    assert answer.get_json()["message"]


@pytest.mark.parametrize("cohort", ["%C2%B9", "%D9%A1", "+1", "1.0"])  # ¹, the Arabic-Indic 1
def test_a_cohort_spelled_other_than_0_to_9_is_not_found(league, cohort):
    client, _, _, last = league
    answer = client.get(f"/v1/leagues/{last.id}/cohorts/{cohort}")
    assert answer.status_code == 404 and answer.get_json()["message"]
