"""The weekly leagues' cohorts: who joined which, in which tier (``membership``), and their standings."""

from store.leagues.membership import Cohort, cohort, history, join_week, league_rules, tier_for
from store.leagues.membership import membership as league_membership

__all__ = [
    "Cohort", "cohort", "history", "join_week", "league_rules", "league_membership", "tier_for",
]
