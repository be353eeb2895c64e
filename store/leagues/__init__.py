"""The weekly leagues' cohorts: who joined which, in which tier (``membership``), and their standings."""

from store.leagues.membership import Cohort, cohort, history, join_week, league_rules, membership, tier_for

__all__ = [
    "Cohort", "cohort", "history", "join_week", "league_rules", "membership", "tier_for",
]
