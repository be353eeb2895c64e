"""``/v1/seasons``: the seasons, and each season's dealt boards and ladders.

A season's boards answer in the shape of the all-time ones
(``service.leaderboards``), from the same store reads; a past season's are
its frozen standings. Every read closes the seasons that have ended first
(``store.boards.seasons``), so an ended season is never read while it can still change.
"""

import re

from flask import jsonify
from werkzeug.routing import BaseConverter

from domain.boards import SEASON_BOARD, SEASON_LADDER, BoardId
from domain.seasons import SEASON_PATTERN, Season
from schemas.paging import AroundArgs, BoardArgs, PageArgs
from schemas.runs import BoardPositionSchema, LadderPositionSchema
from schemas.seasons import SeasonBoardPageSchema, SeasonLadderPageSchema, SeasonsSchema
from store import LADDER_GAMES, ladder_position, season_board, season_ladder
from store.boards.seasons import UnknownSeason, close_ended_seasons, current_season, known_season, past_seasons

from .api import Blueprint, error_response
from .board_listing import board_listing
from .context import db
from .errors import abort
from .leaderboards import known_variant
from .places import place_or_404
from .players import player_named

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


def _season(season_id: str) -> Season:
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


@blp.route("/<season:season>/leaderboards/dealt/<variant>")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, SeasonBoardPageSchema)
@error_response(blp, 404, "No such season or board, or no such player to list among")
@error_response(blp, 422, "Not a season id")
def dealt_page(page_args, season, variant):
    """A page of the season's dealt board: each player's best game that ended in the season."""
    found = _season(season)
    listing = board_listing(BoardId(SEASON_BOARD, (known_variant(variant), found.id)), page_args)
    return jsonify(variant=variant, season=found.id, **listing)


@blp.route("/<season:season>/leaderboards/dealt/<variant>/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, BoardPositionSchema)
@error_response(blp, 404, "No such season or board, or the player is not on it")
@error_response(blp, 422, "Not a season id")
def dealt_position(args, season, variant, name):
    """A player's rank on the season's dealt board and the places around it."""
    found = _season(season)
    return place_or_404(season_board(known_variant(variant), found.id), name, args["around"],
                        f"{name!r} has no verified dealt {variant} game of season {found.id}.")


@blp.route("/<season:season>/leaderboards/dealt/<variant>/ladder")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, SeasonLadderPageSchema)
@error_response(blp, 404, "No such season or board, or no such player to list among")
@error_response(blp, 422, "Not a season id")
def ladder(page_args, season, variant):
    """The season's ladder: each player's mean over their last 20 dealt games that ended in the
    season (forfeits included), for players with at least 20 there."""
    found = _season(season)
    listing = board_listing(BoardId(SEASON_LADDER, (known_variant(variant), found.id)), page_args)
    return jsonify(variant=variant, season=found.id, **listing)


@blp.route("/<season:season>/leaderboards/dealt/<variant>/ladder/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, LadderPositionSchema)
@error_response(blp, 404, "No such season or board, or the player is not on it")
@error_response(blp, 422, "Not a season id")
def ladder_place(args, season, variant, name):
    """A player's rank on the season's ladder and the places around it."""
    found = _season(season)
    player = player_named(name)
    ladder_of = season_ladder(known_variant(variant), found.id)
    place = ladder_position(db(), ladder_of, player, args["around"]) if player else None
    if place is None:
        abort(404, message=f"{name!r} has fewer than {LADDER_GAMES} dealt {variant} games in season {found.id}.")
    return jsonify(place)
