"""``/v1/daily``: today's seed and each day's board."""

from datetime import date

from flask import jsonify
from flask_smorest import abort

from schemas.paging import PageArgs
from schemas.runs import DailyBoardSchema, DailySchema
from store import board_page, daily_board

from .api import Blueprint, error_response
from .context import db, referee
from .daily_seed import daily_seed, today

blp = Blueprint("daily", __name__, url_prefix="/v1/daily", description="The daily challenge")


def _secret() -> str:
    return referee().daily_secret()


@blp.route("")
@blp.response(200, DailySchema)
def current():
    """Today's (UTC) seed; it cannot be known before its day."""
    day = today()
    return {"date": day.isoformat(), "seed": daily_seed(_secret(), day)}


@blp.route("/<day>/leaderboard")
@blp.arguments(PageArgs(), location="query")
@blp.response(200, DailyBoardSchema)
@error_response(blp, 404, "A day not begun yet")
def leaderboard(page_args, day):
    """Classic runs on the day's seed submitted that day; each player's first verified run counts.

    ``day`` that is not a calendar date (``2026-02-30``, ``tomorrow``) is a 422 naming it.
    """
    try:
        moment = date.fromisoformat(day)
    except ValueError:
        abort(422, message=f"{day!r} is not a date.", errors={"day": ["Not a date: YYYY-MM-DD, a day that exists."]})
    if moment > today():
        abort(404, message="That day has not begun yet.")
    total, entries = board_page(db(), daily_board(moment.isoformat()), page_args["offset"], page_args["limit"])
    return jsonify(date=moment.isoformat(), seed=daily_seed(_secret(), moment), total=total, entries=entries)
