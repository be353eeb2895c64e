"""Issue 34: weekly leagues. Cohorts form as players join (O(1) each), and each week's promotions and
relegations, applied as players next play, are checked against a brute-force computation from the runs:
three weeks of players with random scores, joining in random order, some skipping a week."""

import random

import pytest

from domain.boards import LEAGUE_BOARD, BoardId
from domain.leagues import LeagueRules
from store.base import keys
from store.boards.cooling import cool_boards
from store.boards.pages import ranking
from store.leagues.membership import cohort, history, join_week, membership, tier_for
from tests.support.leagues import game, placed


@pytest.fixture
def db(archived_store_db):
    return archived_store_db


RULES = LeagueRules(("Bronze", "Silver", "Gold"), 7, 2)
WEEKS = ["2026-W48", "2026-W49", "2026-W50"]


def brute_force_week(joins: list[tuple[str, int]], best: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """Cohorts of a week from the joins (player, tier) in order: each tier fills a cohort of RULES.size
    before the next; then each player's next tier from their rank (score, then the earlier game)."""
    cohorts: dict[int, list[list[str]]] = {}
    for player, tier in joins:
        tier_cohorts = cohorts.setdefault(tier, [])
        if not tier_cohorts or len(tier_cohorts[-1]) == RULES.size:
            tier_cohorts.append([])
        tier_cohorts[-1].append(player)
    outcome = {}
    for tier, groups in cohorts.items():
        for group in groups:
            ranked = sorted(group, key=lambda player: (-best[player][0], best[player][1]))
            moving = min(RULES.moves, len(group) // 3)
            for rank, player in enumerate(ranked, start=1):
                up = rank <= moving and tier < len(RULES.tiers) - 1
                down = not up and rank > len(group) - moving and tier > 0
                outcome[player] = (tier, tier + (1 if up else -1 if down else 0))
    return outcome


def test_three_weeks_of_promotion_and_relegation_match_a_brute_force_computation(db):
    rng = random.Random(34)
    players = [f"p{index:02d}" for index in range(40)]
    next_tier = {player: 0 for player in players}
    for week in WEEKS:
        playing = [player for player in players if rng.random() < 0.85]  # some skip the week
        rng.shuffle(playing)
        joins, best = [], {}
        for at, player in enumerate(playing):
            for extra in range(rng.randint(1, 3)):  # one to three games; the first joins
                run = game(player, week, rng.randint(-60, 30), 1000 * at + extra)
                placed(db, run)
                join_week(db, RULES, run)
                score, ms = run.score, run.submitted_ms
                if player not in best or score > best[player][0]:
                    best[player] = (score, ms)
            joins.append((player, next_tier[player]))
        expected = brute_force_week(joins, best)
        for player in playing:
            held = membership(db, week, player)
            assert held is not None and held.tier == expected[player][0], (week, player)
            standings = cohort(db, week, held.cohort)
            assert standings is not None and player in [entry["player"] for entry in standings.entries]
            assert standings.entrants <= RULES.size
            next_tier[player] = expected[player][1]
    weeks = [held.week for held in history(db, "p00")]
    assert weeks == sorted(weeks, reverse=True) and set(weeks) <= set(WEEKS)


def test_joining_twice_changes_nothing_and_a_full_cohort_opens_the_next(db):
    runs = [game(f"q{index}", "2026-W40", -10, index) for index in range(RULES.size + 1)]
    held = [join_week(db, RULES, run) for run in runs]
    assert [membership(db, "2026-W40", run.player) for run in runs] == held
    assert {h.cohort for h in held[:RULES.size]} == {held[0].cohort} and held[-1].cohort != held[0].cohort
    assert join_week(db, RULES, game("q0", "2026-W40", 30, 99)) == held[0]
    assert db.redis.llen(keys.league_cohort("2026-W40", str(held[0].cohort))) == RULES.size
    assert db.redis.ttl(keys.league_members("2026-W40")) > 0  # a week's cohorts are not kept for ever


def test_a_player_whose_only_game_was_voided_ranks_last_and_goes_down(db):
    week, following = "2026-W30", "2026-W31"
    silver = LeagueRules(RULES.tiers, 6, 2)
    runs = [game(f"v{index}", week, 10 - index, index) for index in range(6)]
    for run in runs:  # all six played in Silver before, in a week no longer kept: in Silver again
        db.redis.hset(keys.league_history(run.player), "2026-W29", "1 1")
    for run in runs:
        placed(db, run)
        join_week(db, silver, run)
    board = ranking(BoardId(LEAGUE_BOARD, (week,)))
    db.redis.zrem(board.places, "v0")  # the void of v0's only game takes its place
    standings = cohort(db, week, membership(db, week, "v0").cohort)
    assert (standings.tier, standings.entrants) == (1, 6)
    assert standings.unplaced == ["v0"] and standings.rank_of("v0") is None
    again = join_week(db, silver, game("v0", following, 0, 0))
    assert again.tier == 0  # last of six in Silver: down to Bronze


def test_a_player_back_after_the_week_left_redis_gets_the_tier_from_their_cohorts_places_alone(db, monkeypatch):
    """The week's board moved to the archive (``store.boards.cooling``): the tier of a player who comes back
    follows from the archived places of their cohort only, never from a read of the whole board."""
    week, later = "2026-W20", "2026-W26"
    runs = [game(f"c{index}", week, 30 - 10 * index, index) for index in range(6)]
    six = LeagueRules(RULES.tiers, 6, 2)
    for run in runs:
        placed(db, run)
        join_week(db, six, run)
    expected = {run.player: tier_for(db, six, run.player, later) for run in runs}
    assert expected == {"c0": 1, "c1": 1, "c2": 0, "c3": 0, "c4": 0, "c5": 0}  # the top two up from Bronze
    assert cool_boards(db, 10**13).cooled >= 1
    assert not db.redis.exists(ranking(BoardId(LEAGUE_BOARD, (week,))).places)

    def whole_board(*args):
        raise AssertionError("the whole archived board was read")

    monkeypatch.setattr(type(db.archive), "board_places", whole_board)
    assert {run.player: tier_for(db, six, run.player, later) for run in runs} == expected
