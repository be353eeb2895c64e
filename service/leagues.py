"""``/v1/leagues``: the weekly leagues, a player's cohort this week and any week's, and their history."""

import re

from flask import g
from werkzeug.routing import BaseConverter

from domain.leagues import LeagueRules
from domain.numerals import is_ascii_number
from domain.seasons import Schedule, Season, parse_season, season_at
from schemas.leagues import CohortSchema, CurrentLeagueSchema, LeagueHistorySchema
from store.base import iso_time, now_ms
from store.leagues import Cohort, cohort, history, league_membership, league_rules, tier_for

from .api import Blueprint, error_response
from .auth import BEARER, player_required
from .context import db, referee
from .errors import abort
from .players import registered

blp = Blueprint("leagues", __name__, url_prefix="/v1/leagues",
                description="Weekly leagues: cohorts of about 30, the top going up a tier and the bottom down")
player_blp = Blueprint("player_leagues", __name__, url_prefix="/v1/players", description="A player's league weeks")

WEEK_PATTERN = r"\d{4}-W\d{2}"
HISTORY_WEEKS = 20  # a player's league history lists their latest weeks, this many at most


class WeekConverter(BaseConverter):
    """``<week:week>``: any path segment (``_week`` answers what is not a week), documented with the shape of one."""


def week_parameter(converter: WeekConverter) -> dict:
    """The OpenAPI schema of a ``<week:…>`` path parameter."""
    return {"type": "string", "pattern": f"^{WEEK_PATTERN}$",
            "description": "a UTC ISO week, YYYY-Www; 422 for anything else, 404 for a week the year does not have "
                           "or one to come"}


def rules() -> LeagueRules:
    return league_rules(referee().settings)


def known_week(text: str) -> Season:
    """The week a path names: 422 naming ``week`` for anything but an ISO week, 404 for one to come."""
    if not re.fullmatch(WEEK_PATTERN, text):
        abort(422, message=f"{text!r} is not a week.", errors={"week": ["Not an ISO week: YYYY-Www."]})
    try:
        week = parse_season(text)
    except ValueError:
        abort(404, message=f"No week {text}: the year does not have it.")
    if week.starts_ms > now_ms():
        abort(404, message=f"The week {text} has not begun.")
    return week


def cohort_json(found: Cohort, week: Season) -> dict:
    """A cohort as the API shows it: each place with the zone it leads to."""
    entrants, over = found.entrants, week.ends_ms <= now_ms()
    entries = [{**entry, "zone": rules().zone(found.tier, entry["rank"], entrants)} for entry in found.entries]
    return {"week": found.week, "cohort": found.cohort, "tier": rules().name(found.tier),
            "entries": entries, "unplaced": found.unplaced, "ends_at": iso_time(week.ends_ms), "over": over}


@blp.route("/current")
@blp.doc(security=BEARER)
@player_required
@blp.response(200, CurrentLeagueSchema)
@error_response(blp, 401, "No or wrong player token")
def current():
    """The caller's league this week: their tier, cohort, rank and the cohort's standings, and when the week
    ends. Before their first counted game of the week (a classic dealt game), the tier they will join."""
    week = season_at(Schedule.WEEKLY, now_ms())
    held = league_membership(db(), week.id, g.player)
    found = cohort(db(), week.id, held.cohort) if held else None
    if found is None:
        tier = rules().name(tier_for(db(), rules(), g.player, week.id))
        return {"week": week.id, "cohort": None, "tier": tier, "rank": None, "entries": [], "unplaced": [],
                "ends_at": iso_time(week.ends_ms), "over": False}
    return {**cohort_json(found, week), "rank": found.rank_of(g.player)}


@blp.route("/<week:week>/cohorts/<cohort_id>")
@blp.response(200, CohortSchema)
@error_response(blp, 404, "No such cohort that week")
@error_response(blp, 422, "Not an ISO week (errors under week)")
def cohort_of(week, cohort_id):
    """A cohort's standings: its places ranked among themselves, each with the zone it leads to."""
    season = known_week(week)
    found = cohort(db(), season.id, int(cohort_id)) if is_ascii_number(cohort_id) and len(cohort_id) < 10 else None
    if found is None:
        abort(404, message=f"No cohort {cohort_id} in the week {season.id}.")
    return cohort_json(found, season)


@player_blp.route("/<name>/leagues")
@player_blp.response(200, LeagueHistorySchema)
@error_response(player_blp, 404, "No such player")
def history_of(name):
    """The player's latest league weeks: tier, cohort, rank among its entrants, and where it led."""
    player = registered(name)
    return {"player": player, "weeks": league_weeks(player, HISTORY_WEEKS)}


def league_weeks(player: str, most: int | None = None) -> list[dict]:
    """The player's league weeks still kept (``most`` of them at most), latest first, as ``LeagueWeekSchema``
    shows them."""
    weeks = []
    for held in history(db(), player)[:most]:
        found = cohort(db(), held.week, held.cohort)
        if found is None:  # a week no longer kept
            continue
        rank = found.rank_of(player)
        weeks.append({"week": held.week, "cohort": held.cohort, "tier": rules().name(found.tier),
                      "rank": rank, "entrants": found.entrants,
                      "zone": rules().zone(found.tier, rank, found.entrants)})
    return weeks
