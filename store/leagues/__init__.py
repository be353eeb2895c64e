"""The weekly leagues' cohorts: who joined which, in which tier (``membership``), their standings, and each
week's end told and rewarded (``week_end``)."""

from store.leagues.membership import league_rules
from store.leagues.week_end import end_ended_weeks, end_week

__all__ = ["end_ended_weeks", "end_week", "league_rules"]
