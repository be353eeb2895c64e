"""The worker's part in the weekly leagues: a player's first counted game of a week puts them in a cohort.

Run after a job's verdicts are recorded, for every run the job verified,
written by it or by an earlier attempt cut short: joining is safe to
repeat (``store.leagues.membership.join_week``).
"""

from domain.leagues import counts
from domain.run import Run
from scoundrel.verdict import VERIFIED
from store import Database
from store.leagues import join_week, league_rules, tell_zones

from .process import settings


def join_leagues(db: Database, verdicts: list[tuple[Run, dict]]) -> None:
    """Put the players of the counted games among ``verdicts`` that were verified in their week's cohort, and
    tell the players of that cohort whose zone changed (``store.leagues.zones``)."""
    rules = league_rules(settings())
    for run, verdict in verdicts:
        if verdict["status"] == VERIFIED and counts(run):
            tell_zones(db, rules, join_week(db, rules, run))
