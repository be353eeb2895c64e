"""``/v1/players/<name>/streak`` and ``/v1/daily/<date>/sealed/share/<name>``: the sealed daily's
streaks and share cards.

Public, no token: a streak is read from the days a player finished the
sealed daily, which the day's public board shows anyway, and a share card
is made to be shown (never a card of the deck: ``domain.share_card``).
"""

from dataclasses import asdict

from domain.daily_seed import today
from schemas.streaks import ShareCardSchema, StreakSchema
from store.games import load_streak, share_card

from .api import Blueprint, error_response
from .context import db
from .daily import begun_day
from .errors import abort
from .players import player_named
from .share_page import links

blp = Blueprint("streaks", __name__, url_prefix="/v1",
                description="Streaks of the sealed daily, and the card a player shares of a day")


@blp.route("/players/<name>/streak")
@blp.response(200, StreakSchema)
@error_response(blp, 404, "No such player")
def streak_of(name):
    """UTC days in a row on which the player finished the sealed daily (played to its end or given up
    in its day; not forfeited by its close, R18)."""
    player = player_named(name)
    if player is None:
        abort(404, message=f"No player named {name!r}.")
    return streak_json(player)


def streak_json(player: str) -> dict:
    """The player's streak as ``StreakSchema`` shows it."""
    streak = load_streak(db(), player)
    return {"player": player, "current": streak.current(today()), "best": streak.best, "last_date": streak.last_date}


@blp.route("/daily/<day:day>/sealed/share/<name>")
@blp.response(200, ShareCardSchema)
@error_response(blp, 404, "A day not begun yet, or the player has no verified game on its sealed board")
@error_response(blp, 422, "Not a calendar date (errors under day)")
def share_of(day, name):
    """The player's share card of the day's sealed daily: score, standing, streak, and the text and
    links to share them (the page with Open Graph tags, its PNG)."""
    player = player_named(name)
    card = None if player is None else share_card(db(), begun_day(day), player)
    if card is None:
        abort(404, message=f"{name!r} has no verified sealed daily game on {day}.")
    url, image = links(card)
    return {**asdict(card), "text": card.share_text(url), "url": url, "image": image}
