"""``/v1/tournaments``: moderators' tournaments, joined and played by players, with standings of their own.

A tournament's games start at ``POST /v1/games`` with ``"tournament"``
(``service.games``); its standings are a registry board's, served as every
board's (``service.boards``). Reading a tournament that has
ended closes it first (``store.tournaments.closing``), so its sealed decks
are shown only once no game of them can move (R19).
"""

from flask import g, url_for

from domain.boards import tournament_board
from domain.rewards import bands_of
from domain.tournaments import ENDED, Tournament, attempts_left, deal_seed
from schemas.tournaments import (
    JoinedSchema,
    TournamentCreateSchema,
    TournamentEndSchema,
    TournamentListArgs,
    TournamentListSchema,
    TournamentSchema,
)
from store.base import now_ms
from store.tournaments import (
    create_tournament,
    end_tournament,
    entry_of,
    join_tournament,
    load_tournament,
    progress_of,
    tournament_revealed,
    tournament_secret,
    tournaments_in,
)

from .api import Blueprint, error_response
from .auth import BEARER, OPTIONAL_BEARER, moderator_endpoint, optional_player, player_required
from .context import db

blp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments",
                description="Tournaments: an entry window, caps on entrants and attempts, sealed decks, standings")


def tournament_view(tournament: Tournament, player: str | None = None) -> dict:
    """The tournament as ``TournamentSchema`` shows it: with its state and progress, its sealed decks'
    seeds once it has ended and closed, and ``player``'s entry."""
    progress = progress_of(db(), tournament)
    state = tournament.state(now_ms())
    sealed = None
    if state == ENDED and tournament.sealed and tournament_revealed(db(), tournament.id):
        secret = tournament_secret(db(), tournament)
        sealed = [{"deal": deal, "seed": deal_seed(secret, tournament.id, deal)}
                  for deal in range(1, tournament.deals + 1)]
    you = None
    if player is not None:
        entry = entry_of(db(), tournament, player)
        you = {"joined": entry.joined, "attempts_used": entry.used,
               "attempts_left": attempts_left(tournament, entry.used)}
    return {**vars(tournament), "state": state, "entrants": progress.entrants, "final": progress.final,
            "revised_ms": progress.revised_ms, "sealed_deals": sealed, "you": you,
            "standings": tournament_board(tournament.id, tournament.scoring).api,
            "page": f"/tournaments/{tournament.id}"}


@blp.route("", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(TournamentCreateSchema())
@blp.response(201, TournamentSchema)
def create(body):
    """Create a tournament (a moderator): its window, its caps, its deals and how it scores."""
    tournament = new_tournament(body, g.moderator)
    return tournament_view(tournament), 201, {"Location": url_for("tournaments.show", tournament_id=tournament.id)}


def new_tournament(body: dict, moderator: str) -> Tournament:
    """A tournament made by ``moderator`` from a ``TournamentCreateSchema``'s fields (the API's, the desk's)."""
    starts_ms, ends_ms = (int(body[field].timestamp() * 1000) for field in ("starts_at", "ends_at"))
    return create_tournament(
        db(), title=body["title"], variant=body["variant"], starts_ms=starts_ms, ends_ms=ends_ms,
        join_required=body["join_required"], max_entrants=body["max_entrants"], max_attempts=body["max_attempts"],
        deals=body["deals"], scoring=body["scoring"], created_by=moderator, rewards=bands_of(body["rewards"]))


@blp.route("")
@blp.arguments(TournamentListArgs(), location="query")
@blp.response(200, TournamentListSchema)
def listing(args):
    """The tournaments upcoming, running or ended (paged)."""
    total, found = tournaments_in(db(), args["state"], args["offset"], args["limit"])
    return {"state": args["state"], "total": total, "tournaments": [tournament_view(one) for one in found]}


@blp.route("/<tournament_id>")
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentSchema)
@error_response(blp, 404, "No such tournament")
def show(tournament_id):
    """A tournament; with a player's token, their entry (``you``)."""
    return tournament_view(load_tournament(db(), tournament_id), optional_player())


@blp.route("/<tournament_id>/end", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(TournamentEndSchema())
@blp.response(200, TournamentSchema)
@error_response(blp, 404, "No such tournament")
@error_response(blp, 409, "Refused: the tournament has ended already (reason ended) or not started (reason "
                          "not_started)")
def end(body, tournament_id):
    """End a running tournament now (a moderator): its games in play are forfeited (R19), and it settles and
    is told (``tournament.ended``) as one that ended on time; in the moderators' log."""
    return tournament_view(end_tournament(db(), tournament_id, g.moderator, body["reason"]))


@blp.route("/<tournament_id>/join", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.response(200, JoinedSchema)
@error_response(blp, 401, "No or wrong player token")
@error_response(blp, 404, "No such tournament")
@error_response(blp, 409, "Refused: the tournament has ended (reason ended) or is full (reason full)")
def join(tournament_id):
    """Join a tournament (from its creation until its end): ``joined`` false if the caller had joined."""
    tournament = load_tournament(db(), tournament_id)
    return {"tournament": tournament.id, "player": g.player, "joined": join_tournament(db(), tournament, g.player)}
