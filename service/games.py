"""``/v1/games``: dealt games, played move by move against the server's deck."""

from flask import g, url_for

import scoundrel
from domain.daily_seed import sealed_seed, today
from domain.dealer import GameView, commitment, dealt_seed, fresh_seed, is_revealed, judge, may_see, position
from domain.errors import DealTaken, GameMoved, GameOver, NoSuchGame
from domain.game import FORFEIT, PLAYING, Game
from domain.tournaments import WRONG_VARIANT, TournamentRefusal
from schemas.games import (
    ForfeitSchema,
    GameConflictSchema,
    GameListArgs,
    GameListSchema,
    GameMovedSchema,
    GameSchema,
    GameStartSchema,
    MovesSchema,
    NextDealSchema,
    RefusedMovesSchema,
)
from store.base import now_ms
from store.games import games_in_play, load_game, load_game_as, next_deal, play_moves, start_game
from store.tournaments import load_tournament, start_tournament_game

from .api import Blueprint, error_response
from .auth import (
    BEARER,
    OPTIONAL_BEARER,
    bearer_token,
    optional_player,
    own,
    player_required,
    reject_token,
    require_player,
    token_required,
    verified_here,
)
from .context import db, referee, revealed
from .player_moderation import refuse_banned
from .request_log import elapsed, request_id
from .start_flags import note_game_start

blp = Blueprint("games", __name__, url_prefix="/v1/games",
                description="Dealt games: the server deals, the player sees only the cards face up")
player_blp = Blueprint("player_games", __name__, url_prefix="/v1/players",
                       description="A player's dealt games: the next deal's commitment, the games in play")

DEAL_ATTEMPTS = 3  # starts tried when a racing start of another variant takes the next deal first


def _game(game_id: str, player: str | None) -> Game:
    game = load_game(db(), game_id)
    if game is None or not may_see(game, player, revealed):
        raise NoSuchGame(game_id)  # the one answer for a game that is not there and one not the caller's
    return game


def game_view(game: Game, state: scoundrel.State) -> GameView:
    """The game as every response shows it (``GameSchema`` dumps it): ``state`` is its position."""
    return GameView(game, state, is_revealed(game, revealed), now_ms())


def _own_game(game_id: str) -> Game:
    """The caller's game, checking the token in the same round trip (a studio's token is verified first):
    401, or 404 if not theirs."""
    token = bearer_token()
    assert token is not None  # token_required let the request in with one
    if verified_here(token):
        g.player, game = require_player(), load_game(db(), game_id)
    else:
        g.player, game = load_game_as(db(), game_id, token)
    if g.player is None:
        reject_token()
    if game is None or game.player != g.player:
        raise NoSuchGame(game_id)
    return game


@blp.route("", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.arguments(GameStartSchema(), required=False)  # no body: a classic game, as clients send it
@blp.response(201, GameSchema, description="Dealt: the first room is face up")
@blp.alt_response(409, schema=GameConflictSchema, description="A game of that variant is in play, or today's "
                                                               "sealed daily game was already started "
                                                               "(game_id); a tournament's refusal (reason)")
@error_response(blp, 404, "No such tournament")
@error_response(blp, 401, "No or wrong player token")
@error_response(blp, 403, "A banned player (reason banned)")
def start(body):
    """Deal a game: from the server seed ``next-deal`` committed to (with the player's ``client_seed``, if
    given), today's sealed daily seed (one game a day), or a tournament's deck (``tournament``; its
    sealed ``deal``, else the first with an attempt left). One game in play per variant, per tournament. A
    banned player is refused (403, reason banned)."""
    refuse_banned(g.player)
    if body["tournament"] is not None:
        game = _start_tournament(body)
    elif body["challenge"]:
        day = today()
        game = start_game(db(), g.player, scoundrel.CLASSIC, sealed_seed(referee().sealed_secret(), day),
                          challenge=body["challenge"], date=day.isoformat())
    else:
        game = _start_free(body["variant"] or scoundrel.CLASSIC, body["client_seed"])
    note_game_start(game)
    return game_view(game, position(game)), 201, {"Location": url_for("games.show", game_id=game.id)}


def _start_tournament(body: dict) -> Game:
    """A game of the tournament the body names, played as its variant."""
    tournament = load_tournament(db(), body["tournament"])
    if body["variant"] not in (None, tournament.variant):
        raise TournamentRefusal(WRONG_VARIANT)
    return start_tournament_game(db(), tournament, g.player, fresh_seed(), body["deal"])


def _start_free(variant: str, client_seed: str | None) -> Game:
    """A free game dealt from the player's next deal; tried again if a racing start took that deal."""
    for _ in range(DEAL_ATTEMPTS - 1):
        try:
            return _deal_free(variant, client_seed)
        except DealTaken:
            continue
    return _deal_free(variant, client_seed)


def _deal_free(variant: str, client_seed: str | None) -> Game:
    server_seed = next_deal(db(), g.player, fresh_seed())
    return start_game(db(), g.player, variant, dealt_seed(server_seed, client_seed),
                      server_seed=server_seed, client_seed=client_seed or "")


@blp.route("/<game_id>")
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, GameSchema)
@error_response(blp, 404, "No such game, or not yours while it is played")
@error_response(blp, 401, "A token that is neither a player's nor a moderator's")
def show(game_id):
    """A game: its player sees it while it is played; anyone once its seed is revealed.

    A moderator's token reads it as anyone does: the game is its player's.
    """
    game = _game(game_id, optional_player())
    return game_view(game, position(game))


@blp.route("/<game_id>/moves", methods=["POST"])
@blp.doc(security=BEARER)
@token_required
@blp.arguments(MovesSchema())
@blp.response(200, GameSchema, description="Every move applied")
@blp.alt_response(422, schema=RefusedMovesSchema, description="A move was refused and none was applied: error "
                                                              "names the first (index, code, message, ruling); "
                                                              "or the body is malformed: errors lists each field")
@blp.alt_response(409, schema=GameMovedSchema, description="expected_moves differs from the moves played "
                                                            "(moves), another request moved first, the game is "
                                                            "over, or its sealed day has closed (reason "
                                                            "sealed_day_over, R18: the game is forfeited)")
@error_response(blp, 404, "No such game, or not yours")
@error_response(blp, 401, "No or wrong player token")
def play(body, game_id):
    """Play moves, in order, all or none: one is the usual case; a batch ends at the move that deals new cards.

    The game is read once (with the token), replayed once (``state``: judged, then shown), and
    written once; the answer is the game as written, run and all if it ended.
    """
    game = _playable(game_id, body["expected_moves"])
    state = position(game)
    status = judge(state, game.variant, len(game.moves), body["moves"])  # MovesRefused: a 422 (service.errors)
    written = play_moves(db(), game, body["moves"], status, request_id=request_id(), latency=elapsed(),
                         server_key=g.get("server_key") or "")
    return game_view(written, state)


def _playable(game_id: str, expected_moves: int | None) -> Game:
    """The caller's game, still played, with ``expected_moves`` moves if the request names a count."""
    game = _own_game(game_id)
    if expected_moves is not None and expected_moves != len(game.moves):
        raise GameMoved(len(game.moves))
    if game.status != PLAYING:
        raise GameOver(game.status)
    return game


@blp.route("/<game_id>/forfeit", methods=["POST"])
@blp.doc(security=BEARER)
@token_required
@blp.arguments(ForfeitSchema(), required=False)
@blp.response(200, GameSchema, description="Forfeited: the game's run is queued for verification (R18)")
@blp.alt_response(409, schema=GameMovedSchema, description="expected_moves differs from the moves played "
                                                            "(moves), or the game is over")
@error_response(blp, 404, "No such game, or not yours")
@error_response(blp, 401, "No or wrong player token")
def forfeit(body, game_id):
    """Give the game up (R18): it scores as dying at once; a free game's seed is revealed."""
    game = play_moves(db(), _playable(game_id, body["expected_moves"]), [], FORFEIT, request_id=request_id(),
                      server_key=g.get("server_key") or "")  # R18
    return game_view(game, position(game))


@player_blp.route("/<name>/next-deal")
@player_blp.doc(security=BEARER)
@player_required
@player_blp.response(200, NextDealSchema)
@error_response(player_blp, 403, "Another player's token")
@error_response(player_blp, 401, "No or wrong player token")
def next_deal_of(name):
    """The commitment to the server seed of the player's next free game, fixed until that game starts.

    Choose a ``client_seed`` after reading it: the deck then comes from both.
    """
    own(name)
    return {"commitment": commitment(next_deal(db(), g.player, fresh_seed()))}


@player_blp.route("/<name>/games")
@player_blp.doc(security=BEARER)
@player_required
@player_blp.arguments(GameListArgs(), location="query")
@player_blp.response(200, GameListSchema)
@error_response(player_blp, 403, "Another player's token")
@error_response(player_blp, 401, "No or wrong player token")
def games_of(args, name):
    """The player's games in play (``status=playing``), so a client that lost a game's id can resume it."""
    own(name)
    return {"games": [game_view(game, position(game)) for game in games_in_play(db(), g.player)]}
