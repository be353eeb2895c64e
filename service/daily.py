"""``/v1/daily``: today's seed and each day's boards, open and sealed."""

from datetime import date

from flask import jsonify
from werkzeug.routing import BaseConverter

from domain.boards import DAILY_BOARD, SEALED_BOARD, BoardId
from domain.daily_seed import DAY_PATTERN, DayNotBegun, daily_seed, parse_day, today
from schemas.paging import AroundArgs, BoardArgs
from schemas.runs import BoardPositionSchema, DailyBoardSchema, DailySchema, SealedBoardSchema
from store import sealed_board

from .api import Blueprint, error_response
from .board_listing import board_listing
from .context import referee
from .errors import abort
from .places import place_or_404

blp = Blueprint("daily", __name__, url_prefix="/v1/daily", description="The daily challenge")


class DayConverter(BaseConverter):
    """``<day:day>``: any path segment (``begun_day`` answers what is not a day), documented as a date."""


def day_parameter(converter: DayConverter) -> dict:
    """The OpenAPI schema of a ``<day:…>`` path parameter."""
    return {"type": "string", "format": "date", "pattern": f"^{DAY_PATTERN}$",
            "description": "a UTC day, YYYY-MM-DD: 404 for one to come, 422 for one that does not exist "
                           "(2026-02-30, year 0000)"}


def begun_day(day: str) -> date:
    """The UTC day a path names, once it has begun: 422 naming ``day`` for what is not a
    calendar date, 404 for a day to come."""
    try:
        return parse_day(day)
    except DayNotBegun:
        abort(404, message="That day has not begun yet.")
    except ValueError:
        abort(422, message=f"{day!r} is not a date.", errors={"day": ["Not a date: YYYY-MM-DD, a day that exists."]})


def _secret() -> str:
    return referee().daily_secret()


@blp.route("")
@blp.response(200, DailySchema)
def current():
    """Today's (UTC) seed; it cannot be known before its day."""
    day = today()
    return {"date": day.isoformat(), "seed": daily_seed(_secret(), day)}


@blp.route("/<day:day>/leaderboard")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, DailyBoardSchema)
@error_response(blp, 404, "A day not begun yet, or no such player to list among")
def leaderboard(page_args, day):
    """Classic runs on the day's seed submitted that day; each player's first verified run counts.

    ``day`` that is not a calendar date (``2026-02-30``, ``tomorrow``) is a 422 naming it.
    """
    moment = begun_day(day)
    listing = board_listing(BoardId(DAILY_BOARD, (moment.isoformat(),)), page_args)
    return jsonify(date=moment.isoformat(), seed=daily_seed(_secret(), moment), **listing)


@blp.route("/<day:day>/sealed/leaderboard")
@blp.arguments(BoardArgs(), location="query")
@blp.response(200, SealedBoardSchema)
@error_response(blp, 404, "A day not begun yet, or no such player to list among")
def sealed_leaderboard(page_args, day):
    """The day's sealed daily: games the server dealt from that day's sealed seed, one per player."""
    moment = begun_day(day).isoformat()
    return jsonify(date=moment, **board_listing(BoardId(SEALED_BOARD, (moment,)), page_args))


@blp.route("/<day:day>/sealed/leaderboard/players/<name>")
@blp.arguments(AroundArgs(), location="query")
@blp.response(200, BoardPositionSchema)
@error_response(blp, 404, "A day not begun yet, or the player is not on its board")
def sealed_position(args, day, name):
    """A player's rank on the day's sealed board and the places around it."""
    return place_or_404(sealed_board(begun_day(day).isoformat()), name, args["around"],
                        f"{name!r} has no verified sealed daily game on {day}.")
