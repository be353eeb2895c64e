"""The weekly leagues' cohorts: who joined which, in which tier (``membership``), their standings, and each
week's end told and rewarded (``week_end``)."""

from store.leagues.membership import Cohort, cohort, history, join_week, league_rules, tier_for
from store.leagues.membership import membership as league_membership
from store.leagues.week_end import end_ended_weeks, end_week
from store.leagues.zones import tell_zones

__all__ = [
    "Cohort", "cohort", "history", "join_week", "league_rules", "league_membership", "tier_for",
    "end_ended_weeks", "end_week", "tell_zones",
]
