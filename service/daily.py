"""``/v1/daily``: today's seed; each day's boards, open and sealed, are registry boards (``service.boards``)."""

from datetime import date

from werkzeug.routing import BaseConverter

from domain.daily_seed import DAY_PATTERN, DayNotBegun, daily_seed, parse_day, today
from schemas.runs import DailySchema

from .api import Blueprint
from .context import referee
from .errors import abort

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
