"""``GET /v1/players/<name>``: a player's public profile, what their page shows, as JSON.

When they registered, their place (with its score and percentile) on each
board they hold one on, their ladders, their latest league week, their
streak, and the counts of their runs. Moderators' sanctions shape it
(docs/moderation.md): a banned player's profile says so, with the ban's end,
and shows no places, league week or streak (the reason and the moderator to
the player and to moderators only); a hidden player's looks to anyone else
like any player's (their places are withheld from the boards, so it shows
none), and says ``hidden`` to the player and to moderators only, with the
places their runs would hold on the best and first boards, read against the
boards as they are (``store.sanctions.withheld_places``): the player still
sees their own places.
"""

from collections import Counter

from domain.boards import with_share
from schemas.players import name_key
from schemas.profile import ProfileSchema
from store import privacy
from store.base import iso_time
from store.sanctions import WithheldPlace, ban_of, hiding_of, withheld_places

from .api import Blueprint, error_response
from .auth import OPTIONAL_BEARER, is_moderator, optional_player
from .context import db
from .leagues import league_weeks
from .player_data import place_held
from .player_moderation import sanction_view
from .players import registered
from .streaks import streak_json

blp = Blueprint("profile", __name__, url_prefix="/v1/players", description="Players' public profiles")

ACTIVE, BANNED, HIDDEN = "active", "banned", "hidden"
COUNTED = ("verified", "rejected", "pending", "void", "error")  # the run statuses a profile counts


def _withheld(place: WithheldPlace) -> dict:
    """A place withheld from a board, as a place on it is shown."""
    return with_share({"board": place.board.api, "page": place.board.page, "rank": place.rank,
                       "score": place.run.score, "run_id": place.run.id}, place.above, place.total)


@blp.route("/<player:name>")
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, ProfileSchema)
@error_response(blp, 401, "A token that is no one's")
@error_response(blp, 404, "No such player")
def profile(name):
    """A player's profile: registration, places, ladders, league week, streak, run counts; the name in any
    case. A banned player's shows the ban's end and no places, league week or streak; a hidden player's says
    so to the player (with their token) and to moderators only."""
    player = registered(name)
    viewer = optional_player()
    privileged = is_moderator() or (viewer is not None and name_key(viewer) == name_key(player))
    ban, hiding = ban_of(db(), player), hiding_of(db(), player)
    counts: Counter[str] = Counter()
    places: list[dict] = []
    for batch in privacy.run_batches(db(), player):
        counts.update(run.status for run in batch)
        counts["won"] += sum(run.status == "verified" and run.outcome == "won" for run in batch)
        counts["total"] += len(batch)
        if ban is None:
            places += [place for board in privacy.boards_held(batch) if (place := place_held(board, player))]
    places = list({place["board"]: place for place in places}.values())
    if hiding is not None and ban is None and privileged:
        places += [_withheld(place) for place in withheld_places(db(), player)]
    shown = sanction_view(ban)
    if shown is not None and not privileged:
        shown = {"since": shown["since"], "until": shown["until"]}
    weeks = league_weeks(player, most=1) if ban is None else []
    return {
        "name": player,
        "registered_at": iso_time(privacy.account(db(), player)["created_ms"]),
        "status": BANNED if ban else HIDDEN if hiding and privileged else ACTIVE,
        "ban": shown,
        "places": places,
        "ladders": [place for place in places if place.get("mean") is not None],
        "league": weeks[0] if weeks else None,
        "streak": streak_json(player) if ban is None else None,
        "runs": {status: counts[status] for status in (*COUNTED, "total", "won")},
    }
