"""A league week's end: each cohort's final standings told (``league.week_ended``), with its promotions and
demotions, and each tier's rewards granted (``SCOUNDREL_LEAGUE_REWARDS``, ``store.rewards``).

The tiers themselves still move lazily (``domain.leagues``: a player's next
tier is read from their frozen cohort when they next play); this pass only
tells and rewards. It reads the week's cohorts ``BATCH`` at a time, each
cohort's players and their places on the week's board in two pipelines, so a
week of a million players is 33,000 cohorts read in about 500 round trips
(``bench/leagues.py`` measures it beside the cohort reads the lazy close
makes). The places are read in Redis: the pass runs within a sweep of the
week's end, long before its board cools to the archive. Each cohort is told once (``lua/mark_once.lua`` on
``keys.league_week_told``), its rewards granted once (``grant_reward.lua``)
in the same pipeline, scripts by SHA: a pass cut short and run again tells and grants the
rest. The week is then listed as settled.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from domain.boards import LEAGUE_BOARD, BoardId
from domain.events import LEAGUE_WEEK_ENDED
from domain.leagues import LeagueRules
from domain.rewards import LEAGUE_SOURCE, Band, earned, source_id
from domain.seasons import Schedule as Calendar
from domain.seasons import Season, parse_season, season_at
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.replicas import written
from store.boards.pages import ranking
from store.leagues.membership import WEEK_KEPT, membership
from store.rewards.settling import (
    CHANGED,
    GRANTED,
    grant_calls,
    is_settled,
    mark_settled,
    notify_granted,
    settle,
)
from store.webhooks.hooks import wake_if_waiting
from store.webhooks.scripts import mark_once

BATCH = 200  # cohorts read and told per round of pipelines
WEEKS_LOOKED_BACK = 2  # ended weeks a pass settles when not yet settled: the workers away a week at most


@dataclass(frozen=True)
class CohortEnd:
    """A cohort's final standings: its players best first (those with no place left last, unranked)."""

    cohort: int
    tier: int
    placed: list[str]
    unplaced: list[str]

    @property
    def entrants(self) -> int:
        return len(self.placed) + len(self.unplaced)

    def told(self, rules: LeagueRules, week: str) -> dict:
        """The cohort's ``league.week_ended`` fields."""
        standings = [{"rank": rank, "player": player, "zone": rules.zone(self.tier, rank, self.entrants)}
                     for rank, player in enumerate(self.placed, start=1)]
        standings += [{"rank": None, "player": player, "zone": rules.zone(self.tier, None, self.entrants)}
                      for player in self.unplaced]
        return {"week": week, "cohort": self.cohort, "tier": rules.name(self.tier), "entrants": self.entrants,
                "standings": standings,
                "promoted": [entry["player"] for entry in standings if entry["zone"] == "up"],
                "demoted": [entry["player"] for entry in standings if entry["zone"] == "down"]}


def _cohort_ends(db: Database, week: str, cohorts: list[int]) -> list[CohortEnd]:
    """The final standings of ``cohorts`` of ``week``, in two round trips."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hmget(keys.league_tiers(week), [str(cohort) for cohort in cohorts])
        for cohort in cohorts:
            pipe.lrange(keys.league_cohort(week, str(cohort)), 0, -1)
        tiers, *players = pipe.execute()
    places = ranking(BoardId(LEAGUE_BOARD, (week,))).places
    with db.redis.pipeline(transaction=False) as pipe:
        for members in players:
            if members:  # an erasure may have emptied a cohort
                pipe.zmscore(places, members)
        scores = iter(pipe.execute())
    ends = []
    for cohort, tier, members in zip(cohorts, tiers, players, strict=True):
        held = next(scores) if members else []
        if tier is None:
            continue
        placed = [player for _, player in sorted(((key, player) for player, key in zip(members, held, strict=True)
                                                  if key is not None), reverse=True)]
        ends.append(CohortEnd(cohort, int(tier), placed, [player for player in members if player not in placed]))
    return ends


def end_cohorts(db: Database, rules: LeagueRules, rewards: dict[str, tuple[Band, ...]], week: str,
                cohorts: list[int], at_ms: int) -> int:
    """Tell each of ``cohorts`` of ``week`` its end and grant its tier's rewards, once, in two reads and one
    pipeline: the cohorts this call told."""
    told_key, source = keys.league_week_told(week), source_id(LEAGUE_SOURCE, week)
    kept = max(0, parse_season(week).ends_ms - at_ms) // 1000 + WEEK_KEPT
    calls: list[Callable[[Any], Any]] = []
    marks, grants = [], []  # where each cohort's mark is among the calls, and each reward's grant
    for end in _cohort_ends(db, week, cohorts):
        marks.append(len(calls))
        calls.append(partial(mark_once, marks=told_key, member=str(end.cohort), score=end.tier,
                             event=LEAGUE_WEEK_ENDED, at_ms=at_ms, fields=end.told(rules, week)))
        rewarded = earned(rewards.get(rules.name(end.tier), ()), end.placed, end.entrants)
        grants += [(len(calls) + index, reward) for index, reward in enumerate(rewarded)]
        calls += grant_calls(source, rewarded, at_ms)
    calls.append(lambda client: client.expire(told_key, kept))
    replies = written(db, db.redis, calls)
    notify_granted(db, source, [reward for at, reward in grants if replies[at] in (GRANTED, CHANGED)])
    return sum(replies[mark] for mark in marks)


def end_week(db: Database, rules: LeagueRules, rewards: dict[str, tuple[Band, ...]], week: str) -> int:
    """Tell each cohort of ``week`` (ended) its end and grant its tier's rewards, once (``end_cohorts``,
    ``BATCH`` cohorts at a time); list the week as settled. The cohorts this call told."""
    source = source_id(LEAGUE_SOURCE, week)
    if is_settled(db, source):
        return 0
    at = now_ms()
    count = int(db.redis.get(keys.league_cohorts(week)) or 0)
    told = sum(end_cohorts(db, rules, rewards, week, list(range(first, min(first + BATCH, count + 1))), at)
               for first in range(1, count + 1, BATCH))
    mark_settled(db, source)
    wake_if_waiting(db)
    return told


def settle_cohort_again(db: Database, rules: LeagueRules, rewards: dict[str, tuple[Band, ...]], week: str,
                        player: str) -> bool:
    """Settle again the rewards of ``player``'s cohort of ``week`` (settled), which a void, restore or
    re-verification re-ranked: an unclaimed reward follows the new ranks, a claimed one is flagged
    (``store.rewards.settle``). The week's end, told already, is not told again. Whether it had a cohort."""
    if (held := membership(db, week, player)) is None:
        return False
    for end in _cohort_ends(db, week, [held.cohort]):
        settle(db, source_id(LEAGUE_SOURCE, week), earned(rewards.get(rules.name(end.tier), ()), end.placed,
                                                          end.entrants), among=[*end.placed, *end.unplaced])
    return True


def end_ended_weeks(db: Database, rules: LeagueRules, rewards: dict[str, tuple[Band, ...]]) -> list[Season]:
    """End each league week that has ended and is not settled, of the last ``WEEKS_LOOKED_BACK``: the workers'
    periodic step. The weeks whose cohorts this call told."""
    week, ended = season_at(Calendar.WEEKLY, now_ms()), []
    for _ in range(WEEKS_LOOKED_BACK):
        week = season_at(Calendar.WEEKLY, week.starts_ms - 1)
        if end_week(db, rules, rewards, week.id):
            ended.append(week)
    return ended
