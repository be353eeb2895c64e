"""``/v1/daily/sealed``: the sealed daily's commitment, and its seed and par once the day is over."""

from datetime import date

import scoundrel
from domain.daily_seed import sealed_seed, today
from domain.dealer import commitment
from domain.run import daily_seal
from schemas.games import SealedDailySchema

from .api import Blueprint, error_response
from .context import referee, revealed
from .daily import begun_day
from .par import kept_par, par_of

blp = Blueprint("sealed", __name__, url_prefix="/v1/daily",
                description="The sealed daily: dealt by the server, committed before play, revealed after its day")


def sealed_daily(day: date, *, search: bool = True) -> dict:
    """The day's sealed daily as anyone may see it: its commitment; its seed and par (``domain.par``: the sealed
    daily is classic) once the day is over, nothing of the par computed before; without ``search`` (a page),
    only the par kept."""
    seed = sealed_seed(referee().sealed_secret(), day)
    shown = revealed(daily_seal(day.isoformat()))
    if not shown:
        return {"date": day.isoformat(), "commitment": commitment(seed), "seed": None, "par": None}
    found = par_of(seed, scoundrel.CLASSIC) if search else kept_par(seed, scoundrel.CLASSIC, line=True)
    return {"date": day.isoformat(), "commitment": commitment(seed), "seed": seed, "par": found}


@blp.route("/sealed")
@blp.response(200, SealedDailySchema)
def current():
    """Today's (UTC) sealed daily: its commitment; the seed stays null all day."""
    return sealed_daily(today())


@blp.route("/<day:day>/sealed")
@blp.response(200, SealedDailySchema)
@error_response(blp, 404, "A day not begun yet")
@error_response(blp, 422, "Not a calendar date (errors under day)")
def of_day(day):
    """A day's sealed daily: its commitment, and its seed and par once that UTC day is over."""
    return sealed_daily(begun_day(day))
