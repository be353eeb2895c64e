"""``/v1/tournaments``: moderators' tournaments, joined and played by players, with standings of their own.

A tournament's games start at ``POST /v1/games`` with ``"tournament"``
(``service.games``); its board is a registry board (``domain.boards``), read
here as every board is (``board_listing``). Reading a tournament that has
ended closes it first (``store.tournaments.closing``), so its sealed decks
are shown only once no game of them can move (R19).
"""

from flask import g, url_for

from domain.boards import deal_boards, tournament_board
from domain.tournaments import ENDED, SUM, Tournament, attempts_left, deal_seed
from schemas.tournaments import (
    JoinedSchema,
    StandingsArgs,
    StandingsSchema,
    TournamentCreateSchema,
    TournamentListArgs,
    TournamentListSchema,
    TournamentSchema,
)
from store import board_position
from store.base.clock import now_ms
from store.base.packing import iso_time
from store.boards.pages import ranking
from store.tournaments.closing import tournament_revealed
from store.tournaments.tournaments import (
    create_tournament,
    entry_of,
    join_tournament,
    load_tournament,
    progress_of,
    tournament_secret,
    tournaments_in,
)

from .api import Blueprint, error_response
from .auth import BEARER, OPTIONAL_BEARER, moderator_endpoint, optional_player, player_required
from .board_listing import board_listing
from .context import db
from .errors import abort
from .players import registered

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
            "standings": url_for("tournaments.standings", tournament_id=tournament.id),
            "page": f"/tournaments/{tournament.id}"}


@blp.route("", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(TournamentCreateSchema())
@blp.response(201, TournamentSchema)
def create(body):
    """Create a tournament (a moderator): its window, its caps, its deals and how it scores."""
    starts_ms, ends_ms = (int(body[field].timestamp() * 1000) for field in ("starts_at", "ends_at"))
    tournament = create_tournament(
        db(), title=body["title"], variant=body["variant"], starts_ms=starts_ms, ends_ms=ends_ms,
        join_required=body["join_required"], max_entrants=body["max_entrants"], max_attempts=body["max_attempts"],
        deals=body["deals"], scoring=body["scoring"], created_by=g.moderator)
    return tournament_view(tournament), 201, {"Location": url_for("tournaments.show", tournament_id=tournament.id)}


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


@blp.route("/<tournament_id>/standings")
@blp.arguments(StandingsArgs(), location="query")
@blp.response(200, StandingsSchema)
@error_response(blp, 404, "No such tournament, or no such player to list among or around, or not ranked")
def standings(args, tournament_id):
    """The tournament's standings: a page of its board; with ``among``, a player and those they follow;
    with ``around``, the places around a player's."""
    tournament = load_tournament(db(), tournament_id)
    progress = progress_of(db(), tournament)
    head = {"tournament": tournament.id, "final": progress.final, "revised_at": iso_time(progress.revised_ms)}
    board = tournament_board(tournament.id, tournament.scoring)
    if args["deal"] is not None:
        if tournament.scoring != SUM or args["deal"] > tournament.deals:
            abort(404, message=f"Tournament {tournament.id} has no standings of deal {args['deal']}: only a sum "
                               "tournament ranks each of its deals.")
        board, head = deal_boards(board)[args["deal"] - 1], {**head, "deal": args["deal"]}
    if args["around"] is not None:
        player = registered(args["around"])
        found = board_position(db(), ranking(board), player, args["places"])
        if found is None:
            abort(404, message=f"{player!r} has no verified game in tournament {tournament.id}.")
        return {**head, "around": player, "rank": found["rank"], "total": found["total"], "entries": found["around"]}
    return {**head, **board_listing(board, args)}
