"""Who plays in which cohort of which week, their standings, and the tier each player joins a week in.

A cohort's standings are its players' places on the week's league board
(``domain.boards.LEAGUE_BOARD``: each player's best classic dealt game of
the week) ranked among themselves: one ``board_among`` read, O(F log N)
for a cohort of F on a board of N, so a void re-ranks them as it re-ranks
the board. Players of the cohort with no place left (a void took their
only game) follow, unranked.
"""

from dataclasses import dataclass

from domain.boards import LEAGUE_BOARD, BoardId
from domain.leagues import LeagueRules
from domain.run import Run
from domain.seasons import parse_season
from settings import Settings
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.boards.cooling import board_name
from store.boards.pages import board_among, ranking
from store.leagues import scripts

WEEK_KEPT = 366 * 24 * 3600  # seconds a week's cohorts are kept after the week ends


def league_rules(settings: Settings) -> LeagueRules:
    """The leagues' rules as configured (``SCOUNDREL_LEAGUE_*``)."""
    return LeagueRules(settings.league_tiers, settings.league_cohort, settings.league_moves)


@dataclass(frozen=True)
class Membership:
    """A player's cohort in one week, and its tier (an index into the rules' tiers)."""

    week: str
    cohort: int
    tier: int


def _membership(week: str, held: str | None) -> Membership | None:
    if held is None:
        return None
    cohort, tier = held.split()
    return Membership(week, int(cohort), int(tier))


def membership(db: Database, week: str, player: str) -> Membership | None:
    """The player's cohort in ``week``, or None if they did not play a counted game that week."""
    return _membership(week, db.redis.hget(keys.league_members(week), player))


def history(db: Database, player: str) -> list[Membership]:
    """Every week the player joined the leagues, the latest first."""
    weeks = db.redis.hgetall(keys.league_history(player))
    return [m for week in sorted(weeks, reverse=True) if (m := _membership(week, weeks[week])) is not None]


@dataclass(frozen=True)
class Cohort:
    """A cohort's tier and its standings: its ranked entries (the board's, with ``rank`` among the cohort and
    ``global_rank`` on the week's board), then its players with no place (``unplaced``); ``entrants`` counts both."""

    week: str
    cohort: int
    tier: int
    entries: list[dict]
    unplaced: list[str]

    @property
    def entrants(self) -> int:
        return len(self.entries) + len(self.unplaced)

    def rank_of(self, player: str) -> int | None:
        return next((entry["rank"] for entry in self.entries if entry["player"] == player), None)


def cohort(db: Database, week: str, cohort_id: int) -> Cohort | None:
    """A cohort of ``week`` with its standings now; None for a cohort the week does not have (or no longer
    keeps)."""
    if (held := _cohort_players(db, week, cohort_id)) is None:
        return None
    tier, players = held
    _, entries = board_among(db, BoardId(LEAGUE_BOARD, (week,)), players, 0, len(players))
    placed = {entry["player"] for entry in entries}
    return Cohort(week, cohort_id, tier, entries, [player for player in players if player not in placed])


def _cohort_players(db: Database, week: str, cohort_id: int) -> tuple[int, list[str]] | None:
    """A cohort's tier and its players in the order they joined; None for a cohort the week does not have
    (or no longer keeps)."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hget(keys.league_tiers(week), str(cohort_id))
        pipe.lrange(keys.league_cohort(week, str(cohort_id)), 0, -1)
        tier, players = pipe.execute()
    return None if tier is None else (int(tier), players)


def tier_for(db: Database, rules: LeagueRules, player: str, week: str) -> int:
    """The tier ``player`` joins ``week`` in: where the last week they played before it left them
    (``LeagueRules.next_tier``), the lowest tier for a first week. A tier past the configured ones (a
    shorter list since) is the highest."""
    last = next((held for held in history(db, player) if held.week < week), None)
    if last is None:
        return 0
    ranked = cohort_order(db, last.week, last.cohort)
    tier = rules.tiers.index(rules.name(last.tier))  # within the tiers configured now
    if ranked is None:  # kept no longer: where they stood is not known, so where they were
        return tier
    order, entrants = ranked
    return rules.next_tier(tier, order.index(player) + 1 if player in order else None, entrants)


def cohort_order(db: Database, week: str, cohort_id: int) -> tuple[list[str], int] | None:
    """A cohort's placed players best first, as ``cohort`` ranks them, and its entrants; None for a cohort
    the week does not have (or no longer keeps). Only the cohort's own places are read, in Redis or, once
    the week's board has moved there, the archive (``store.boards.cooling``): never the whole board."""
    if (cohort_held := _cohort_players(db, week, cohort_id)) is None:
        return None
    _, players = cohort_held
    board = BoardId(LEAGUE_BOARD, (week,))
    held = dict(zip(players, (int(key) if key is not None else None
                              for key in db.redis.zmscore(ranking(board).places, players)), strict=True))
    for place in db.archive.board_places_of(LEAGUE_BOARD.kind, board_name(board), players):
        if (mine := held.get(place.player)) is None or place.rank_key > mine:
            held[place.player] = place.rank_key
    placed = sorted(((key, player) for player, key in held.items() if key is not None), reverse=True)
    return [player for _, player in placed], len(players)


def join_week(db: Database, rules: LeagueRules, run: Run) -> Membership:
    """Put the player of a counted, verified run in a cohort of its week, unless they are in one already
    (safe to repeat: a job verifying the run again changes nothing)."""
    week = run.week
    if (held := membership(db, week, run.player)) is not None:
        return held
    tier = tier_for(db, rules, run.player, week)
    kept = max(0, parse_season(week).ends_ms - now_ms()) // 1000 + WEEK_KEPT
    joined = scripts.join_league(db.redis, week=week, player=run.player, tier=tier, size=rules.size, kept=kept)
    membership_now = _membership(week, joined)
    assert membership_now is not None
    return membership_now
