"""League zones told as they change (``league.zone_changed``): after a verified run counts in a cohort,
each of its players whose zone (up, down or stays: ``domain.leagues.LeagueRules.zone``) is no longer the
one they were last told of is told the new one, with the one it was.

A player's first zone in a week is noted, not told: it is where they start. Two jobs placing runs of one
cohort at once may note their zones in either order; the cohort's next counted run sets them right.
"""

from domain.leagues import LeagueRules
from domain.seasons import parse_season
from store.base.clock import now_ms
from store.base.database import Database
from store.leagues.membership import Membership, cohort_order
from store.live.scripts import note_zones

KEPT_AFTER_WEEK = 24 * 3600  # seconds the zones told are noted after their week ends


def tell_zones(db: Database, rules: LeagueRules, joined: Membership) -> int:
    """Tell the players of ``joined``'s cohort whose zone changed: how many were told."""
    ranked = cohort_order(db, joined.week, joined.cohort)
    if ranked is None:
        return 0
    order, entrants = ranked
    tier = rules.tiers.index(rules.name(joined.tier))  # within the tiers configured now
    zones = {player: rules.zone(tier, rank, entrants) for rank, player in enumerate(order, start=1)}
    kept = max(0, parse_season(joined.week).ends_ms - now_ms()) // 1000 + KEPT_AFTER_WEEK
    return note_zones(db.redis, week=joined.week, kept=kept, zones=zones,
                      fields={"week": joined.week, "cohort": joined.cohort, "tier": rules.name(joined.tier)})
