"""Issue 48, a league week's end: each cohort's final standings, promotions and demotions told once
(``league.week_ended``, signed), each tier's reward table granted into the inboxes once, and the table read
from ``SCOUNDREL_LEAGUE_REWARDS``. The week is filled in the store as players' first games fill it."""

import hashlib
import hmac
import json

import pytest

from domain.boards import LEAGUE_BOARD, BoardId
from domain.leagues import LeagueRules
from domain.rewards import table_from
from domain.run import DEALT, Run
from domain.seasons import Schedule as Calendar
from domain.seasons import parse_season, season_at
from settings import Settings, SettingsError
from store.base import keys
from store.base.clock import now_ms
from store.base.packing import pack
from store.boards.pages import ranking
from store.competitions import settle_revised
from store.leagues import end_ended_weeks, end_week
from store.leagues import scripts as league_scripts
from store.tournaments.tournaments import note_revision
from tests.support.games import moderator_token
from tests.support.in_process import stack_of

WEEK = "2026-W40"  # ended
RULES = LeagueRules(("Bronze", "Silver"), 4, 1)
REWARDS = {"Bronze": table_from([{"from_rank": 1, "payload": {"coins": 10}}]),
           "Silver": table_from([{"top_percent": 50, "payload": {"coins": 30}}])}
# cohort 1, Bronze: four players by score; cohort 2, Silver: two placed, the third's only game voided
BRONZE = {"ann": 12, "ben": 30, "cat": -5, "dan": 7}
SILVER = {"eve": 3, "fay": 25, "gus": None}


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def week(stack, receiver):
    moderator = bearer(moderator_token(stack, "mia"))
    hook = stack.post("/v1/webhooks", json={"url": receiver.url("/leagues"),
                                            "events": ["league.week_ended", "reward.granted"]}, headers=moderator)
    assert hook.status_code == 201, hook.text
    tokens = {name: stack.register(name)[1] for name in [*BRONZE, *SILVER]}
    db = stack.database()
    board = ranking(BoardId(LEAGUE_BOARD, (WEEK,)))
    try:
        for tier, scores in enumerate((BRONZE, SILVER)):
            for order, (player, score) in enumerate(scores.items()):
                league_scripts.join_league(db.redis, week=WEEK, player=player, tier=tier, size=RULES.size, kept=3600)
                if score is not None:
                    db.redis.zadd(board.places, {player: pack(score, 1_790_000_000_000 + order)})
        told = end_week(db, RULES, REWARDS, WEEK)
        again = end_week(db, RULES, REWARDS, WEEK)
    finally:
        db.close()
    return {"told": told, "again": again, "tokens": tokens, "secret": hook.json()["secret"], "moderator": moderator}


def test_each_cohort_is_told_once_with_its_standings_promotions_and_demotions_signed(stack, receiver, week):
    assert (week["told"], week["again"]) == (2, 0)
    deliveries = receiver.wait("/leagues", 2 + 3, stack)
    ended = {}
    for headers, body in deliveries:
        assert headers["X-Scoundrel-Signature"] == "sha256=" + hmac.new(
            week["secret"].encode(), body, hashlib.sha256).hexdigest()
        event = json.loads(body)
        if event["event"] == "league.week_ended":
            ended[event["tier"]] = event
    bronze, silver = ended["Bronze"], ended["Silver"]
    assert (bronze["week"], bronze["cohort"], bronze["entrants"]) == (WEEK, 1, 4)
    assert [(entry["rank"], entry["player"], entry["zone"]) for entry in bronze["standings"]] == [
        (1, "ben", "up"), (2, "ann", "stays"), (3, "dan", "stays"), (4, "cat", "stays")]  # the lowest keeps its last
    assert (bronze["promoted"], bronze["demoted"]) == (["ben"], [])
    assert [(entry["rank"], entry["player"], entry["zone"]) for entry in silver["standings"]] == [
        (1, "fay", "stays"), (2, "eve", "stays"), (None, "gus", "down")]  # the highest tier keeps its first
    assert (silver["promoted"], silver["demoted"]) == ([], ["gus"])


def test_each_tier_grants_its_table_once(stack, week):
    expected = {"ben": (1, {"coins": 10}), "fay": (1, {"coins": 30}), "eve": (2, {"coins": 30})}
    for player, token in week["tokens"].items():
        items = stack.get(f"/v1/players/{player}/inbox", headers=bearer(token)).json()["items"]
        assert [(item["rank"], item["payload"]) for item in items] == ([expected[player]] if player in expected
                                                                       else []), player
        assert all(item["source"] == f"league:{WEEK}" and item["id"] == f"league-{WEEK}" for item in items)


def test_a_void_after_the_weeks_end_regrants_the_cohorts_unclaimed_and_flags_the_claimed(stack, week):
    """ben (Bronze's first) claimed, then his week's only game is voided: his claim stands, flagged; ann, first
    now, is granted the band. Silver's cohort is not touched."""
    claimed = stack.post(f"/v1/players/ben/inbox/league-{WEEK}/claim", headers=bearer(week["tokens"]["ben"]))
    assert claimed.status_code == 200, claimed.text
    db = stack.database()
    try:
        db.redis.zrem(ranking(BoardId(LEAGUE_BOARD, (WEEK,))).places, "ben")  # as a void takes his place
        note_revision(db, Run("r-ben", "ben", "classic", "s", "void", 30, parse_season(WEEK).starts_ms + 1000,
                              origin=DEALT))
        assert settle_revised(db, RULES, REWARDS) == [f"league:{WEEK}:ben"]
        assert settle_revised(db, RULES, REWARDS) == []
    finally:
        db.close()
    def held(player: str) -> list[tuple]:
        items = stack.get(f"/v1/players/{player}/inbox", headers=bearer(week["tokens"][player])).json()["items"]
        return [(item["rank"], item["payload"], item["claimed_at"] is not None) for item in items]

    assert held("ben") == [(1, {"coins": 10}, True)]  # never taken back
    assert held("ann") == [(1, {"coins": 10}, False)]
    assert held("fay") == [(1, {"coins": 30}, False)] and held("eve") == [(2, {"coins": 30}, False)]
    flags = stack.get("/v1/rewards/flagged", headers=week["moderator"]).json()["flags"]
    assert [(flag["player"], flag["reward"], flag["now_earned"]) for flag in flags] == [("ben", f"league-{WEEK}",
                                                                                          None)]


def test_the_leagues_tables_are_a_setting_checked_at_start(monkeypatch):
    monkeypatch.setenv("SCOUNDREL_LEAGUE_TIERS", "Bronze,Silver")
    monkeypatch.setenv("SCOUNDREL_LEAGUE_REWARDS", json.dumps(
        {"Silver": [{"from_rank": 1, "to_rank": 3, "payload": {"gems": 1}}]}))
    assert dict(Settings.from_env().league_rewards) == {"Silver": table_from(
        [{"from_rank": 1, "to_rank": 3, "payload": {"gems": 1}}])}
    for wrong, said in ((json.dumps({"Gold": []}), "tiers the leagues do not have: Gold"),
                        ("{", "not JSON"),
                        (json.dumps({"Bronze": [{"from_rank": 0, "payload": 1}]}), "whole numbers from 1"),
                        (json.dumps({"Bronze": [{"top_percent": 5, "from_rank": 1, "payload": 1}]}), "not both"),
                        (json.dumps({"Bronze": [{"from_rank": 1}]}), "each with its payload")):
        monkeypatch.setenv("SCOUNDREL_LEAGUE_REWARDS", wrong)
        with pytest.raises(SettingsError, match=said):
            Settings.from_env()


def test_the_workers_pass_ends_the_week_just_ended_once(stack):
    last_week = season_at(Calendar.WEEKLY, season_at(Calendar.WEEKLY, now_ms()).starts_ms - 1).id
    db = stack.database()
    try:
        # a pass run before (the in-process stack runs one at each wait on its worker) ended last week with no
        # cohort: this test's week is joined after its end, which no player can do, so it is ended again
        db.redis.zrem(keys.settled(), f"league:{last_week}")
        league_scripts.join_league(db.redis, week=last_week, player="hal", tier=0, size=RULES.size, kept=3600)
        db.redis.zadd(ranking(BoardId(LEAGUE_BOARD, (last_week,))).places, {"hal": pack(9, 1_790_000_000_000)})
        assert [week.id for week in end_ended_weeks(db, RULES, REWARDS)] == [last_week]
        assert end_ended_weeks(db, RULES, REWARDS) == []
        assert db.redis.zscore(keys.league_week_told(last_week), "1") == 0  # its one cohort told, of tier 0
        assert db.redis.hget(keys.rewards_granted(f"league:{last_week}"), "hal") == f"league-{last_week}"
    finally:
        db.close()
