"""``/v1/seasons``: the seasons; each season's dealt boards and ladders are registry boards (``service.boards``).

A past season's boards are its frozen standings. Every read closes the
seasons that have ended first (``store.boards.seasons``), so an ended season
is never read while it can still change.
"""

import re

from werkzeug.routing import BaseConverter

from domain.seasons import SEASON_PATTERN, Season
from schemas.paging import PageArgs
from schemas.seasons import SeasonsSchema
from store.boards import UnknownSeason, close_ended_seasons, current_season, known_season, past_seasons

from .api import Blueprint
from .context import db
from .errors import abort

blp = Blueprint("seasons", __name__, url_prefix="/v1/seasons", description="Seasons")


class SeasonConverter(BaseConverter):
    """``<season:season>``: any path segment (``_season`` answers what is not a season id), documented
    with the shape of one."""


def season_parameter(converter: SeasonConverter) -> dict:
    """The OpenAPI schema of a ``<season:…>`` path parameter."""
    return {"type": "string", "pattern": f"^{SEASON_PATTERN}$",
            "description": "a season: YYYY-MM (monthly) or YYYY-Www (weekly, ISO weeks); 422 for anything else, "
                           "404 for a season the service does not have (to come, from before it kept seasons, "
                           "or a week the year does not have)"}


def season_named(season_id: str) -> Season:
    """The season a path names: 422 naming ``season`` for what is not shaped as a season id, 404 for
    a season the service does not have (one to come, before it kept seasons, or none at all)."""
    if not re.fullmatch(SEASON_PATTERN, season_id):
        abort(422, message=f"{season_id!r} is not a season.",
              errors={"season": ["Not a season: YYYY-MM (monthly) or YYYY-Www (weekly, ISO weeks)."]})
    try:
        return known_season(db(), season_id)[0]
    except (UnknownSeason, ValueError):
        abort(404, message=f"No season {season_id!r}: the seasons are the current one and those past "
                           "(GET /v1/seasons).")


@blp.route("")
@blp.arguments(PageArgs(), location="query")
@blp.response(200, SeasonsSchema)
def seasons(page_args):
    """The current season and the past ones, newest first (paged)."""
    close_ended_seasons(db())
    total, past = past_seasons(db(), page_args["offset"], page_args["limit"])
    return {"current": current_season(db()), "total": total, "past": past}
