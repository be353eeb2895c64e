"""How dealt games look in requests and responses (``/v1/games``, ``/v1/daily/sealed``)."""

from flask_smorest.error_handler import ErrorSchema as MessageSchema
from marshmallow import (
    RAISE,
    ValidationError,
    fields,
    validate,
    validates_schema,
)

import scoundrel
from domain.game import DAILY, PLAYING
from domain.tournaments import MAX_DEALS

from .base import Schema
from .par import ParSchema
from .runs import RuleErrorSchema, Time
from .submission import MoveList


def _check_client_seed(seed: str) -> None:
    if not scoundrel.is_valid_seed(seed):
        raise ValidationError(f"A client seed is {scoundrel.SEED_RULE}.")

MOVES_PER_REQUEST = 50  # moves one request may carry (a room takes at most 4; more are refused past a deal anyway)


class GameStartSchema(Schema):
    class Meta:
        unknown = RAISE
        # ``_daily_is_classic`` and ``_daily_is_one_deal`` in the OpenAPI document: the challenge is not the
        # daily, or the variant is classic (as it is when left out) and no client seed is given
        # ``_one_kind_of_game`` too: a tournament's game has no challenge and no client seed, and a deal
        # only with a tournament
        openapi = {"allOf": [
            {"anyOf": [{"properties": {"challenge": {"not": {"enum": [DAILY]}}}},
                       {"properties": {"variant": {"enum": [scoundrel.CLASSIC]}}}]},
            {"anyOf": [{"not": {"required": ["tournament"]}}, {"properties": {"tournament": {"enum": [None]}}},
                       {"allOf": [{"anyOf": [{"not": {"required": ["challenge"]}},
                                             {"properties": {"challenge": {"enum": [None]}}}]},
                                  {"anyOf": [{"not": {"required": ["client_seed"]}},
                                             {"properties": {"client_seed": {"enum": [None]}}}]}]}]},
            {"anyOf": [{"not": {"required": ["deal"]}}, {"properties": {"deal": {"enum": [None]}}},
                       {"required": ["tournament"], "properties": {"tournament": {"not": {"enum": [None]}}}}]},
            {"anyOf": [{"properties": {"challenge": {"not": {"enum": [DAILY]}}}},
                       {"not": {"required": ["client_seed"]}},
                       {"properties": {"client_seed": {"enum": [None]}}}]},
        ]}

    variant = fields.String(load_default=None, validate=validate.OneOf(scoundrel.VARIANTS),
                            metadata={"description": "classic when left out; a tournament's game: its variant"})
    challenge = fields.String(load_default=None, allow_none=True, validate=validate.OneOf((DAILY,)),
                              metadata={"description": '"daily" for the sealed daily (classic only), else null'})
    tournament = fields.String(load_default=None, allow_none=True, validate=validate.Length(1, 20),
                               metadata={"description": "a tournament's id: a game of it (GET /v1/tournaments)"})
    deal = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(0, MAX_DEALS), metadata={
        "description": "a tournament game's sealed deck (1 for the first); left out: the first with an attempt left"})
    client_seed = fields.String(
        load_default=None, allow_none=True,
        validate=_check_client_seed,
        metadata={"pattern": f"^{scoundrel.SEED_PATTERN.pattern}$",
                  "description": f"the player's own seed ({scoundrel.SEED_RULE}): the deck is dealt from "
                                 "base64url(HMAC-SHA256(key = the server seed next-deal committed to, "
                                 "message = this)) without padding; without it, from the server seed itself"})

    @validates_schema
    def _one_kind_of_game(self, data, **kwargs):
        if data.get("tournament") is not None and (data.get("challenge") or data.get("client_seed")):
            raise ValidationError("A tournament's game takes no challenge and no client seed: the tournament "
                                  "deals it.", "tournament")
        if data.get("deal") is not None and data.get("tournament") is None:
            raise ValidationError("A deal is a tournament's: give the tournament too.", "deal")

    @validates_schema
    def _daily_is_classic(self, data, **kwargs):
        if data.get("challenge") == DAILY and data["variant"] not in (None, scoundrel.CLASSIC):
            raise ValidationError("The sealed daily is played in the classic variant.", "variant")

    @validates_schema
    def _daily_is_one_deal(self, data, **kwargs):
        if data.get("challenge") == DAILY and data.get("client_seed"):
            raise ValidationError("The sealed daily is one deal for everyone: it takes no client seed.",
                                  "client_seed")


class MovesSchema(Schema):
    class Meta:
        unknown = RAISE

    moves = MoveList(required=True, most=MOVES_PER_REQUEST,
                     too_long=f"At most {MOVES_PER_REQUEST} moves are allowed in one request.",
                     metadata={"description": f"1-{MOVES_PER_REQUEST} moves in RULES.md notation, applied in order, "
                                              "all or none; a move after one that deals new cards is refused "
                                              "(room_not_dealt)"})
    expected_moves = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0),
                                    metadata={"description": "409 unless the game has this many moves played"})


class ForfeitSchema(Schema):
    class Meta:
        unknown = RAISE

    expected_moves = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0))


class GameSchema(Schema):
    """The game's JSON in every answer about a dealt game, dumped from a ``domain.dealer.GameView``.

    The one definition of that JSON: the API's answers, the OpenAPI
    document, and through it the JS client's fake server and the fields
    the client reads (``tests/clients/test_game_schema.py``) follow it.
    Stored fields are read from the view's ``game``, the rest from the
    view, which decides what is shown.
    """

    id = fields.String(attribute="game.id")
    player = fields.String(attribute="game.player")
    variant = fields.String(attribute="game.variant")
    challenge = fields.String(allow_none=True, metadata={"description": '"daily" for the sealed daily, '
                                                                        '"tournament" for a tournament\'s game, '
                                                                        "else null"})
    date = fields.String(allow_none=True, metadata={"description": "the sealed daily's UTC date"})
    tournament = fields.String(allow_none=True, metadata={"description": "a tournament game's tournament"})
    deal = fields.Integer(allow_none=True, metadata={"description": "a tournament game's sealed deck (1 for the "
                                                                    "first), 0 for a fresh deck"})
    status = fields.String(attribute="game.status", metadata={"description": "playing, won, lost or forfeit"})
    commitment = fields.String(metadata={"description": "hex SHA-256 of the server seed's ASCII characters (the "
                                                        "seed itself unless a client seed was given)"})
    seed = fields.String(allow_none=True, metadata={"description": "the seed the deck was dealt from; null until "
                                                                   "revealed: when a free game ends, when a sealed "
                                                                   "daily game's UTC day is over and closed (R18)"})
    server_seed = fields.String(allow_none=True, metadata={"description": "with a client seed: the server seed, "
                                                                          "revealed with seed; else null"})
    client_seed = fields.String(allow_none=True, metadata={"description": "the player's client seed, else null"})
    room = fields.List(fields.String(), metadata={"description": "the cards face up, in R4 order"})
    health = fields.Integer()
    weapon = fields.Integer(allow_none=True, metadata={"description": "the equipped weapon's value"})
    last_kill = fields.Integer(allow_none=True, metadata={"description": "the value of its last kill (R10)"})
    cards_left = fields.Integer(metadata={"description": "cards still face down in the dungeon"})
    moves = fields.List(fields.String(), attribute="game.moves")
    legal_moves = fields.List(fields.String())
    run_id = fields.String(attribute="game.run_id", allow_none=True,
                           metadata={"description": "the game's run, once it has ended"})
    score = fields.Integer(allow_none=True, metadata={"description": "the run's verified score"})
    created_at = Time(attribute="game.created_ms")
    ended_at = Time(attribute="game.ended_ms", allow_none=True)
    closes_at = Time(attribute="closes_ms", allow_none=True,
                        metadata={"description": "a sealed daily game in play: when its UTC day ends and it is "
                                                 "forfeited (R18)"})
    closes_in = fields.Float(allow_none=True, metadata={"description": "seconds from this response to closes_at"})


class GameListArgs(Schema):
    class Meta:
        unknown = RAISE

    status = fields.String(load_default=PLAYING, validate=validate.OneOf((PLAYING,)),
                           metadata={"description": "playing: the games in play (the only list kept)"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSchema), metadata={"description": "oldest first"})


class NextDealSchema(Schema):
    commitment = fields.String(metadata={"description": "hex SHA-256 of the server seed the player's next free "
                                                        "game will be dealt from (with their client seed, if any)"})


class RefusedMovesSchema(Schema, MessageSchema):
    error = fields.Nested(RuleErrorSchema, metadata={"description": "the first refused move: its index, the "
                                                                    "engine's code, message and ruling"})


class GameConflictSchema(Schema, MessageSchema):
    game_id = fields.String(allow_none=True, metadata={"description": "the player's game in play of that variant, "
                                                                      "sealed daily game of the day, or game of the "
                                                                      "tournament"})
    reason = fields.String(allow_none=True, metadata={"description": "a tournament's refusal: not_started, ended, "
                                                                     "full, not_joined, attempts_used, game_in_play, "
                                                                     "no_such_deal, wrong_variant"})


class GameMovedSchema(Schema, MessageSchema):
    moves = fields.Integer(allow_none=True, metadata={"description": "moves the game has played (when "
                                                                     "expected_moves differs, or another request "
                                                                     "moved first)"})
    reason = fields.String(allow_none=True, metadata={"description": "sealed_day_over: the sealed daily's day "
                                                                     "closed; the game is forfeited (R18)"})
    ruling = fields.String(allow_none=True, metadata={"description": "R18 with sealed_day_over"})


class SealedDailySchema(Schema):
    date = fields.String()
    commitment = fields.String(metadata={"description": "hex SHA-256 of the day's sealed seed"})
    seed = fields.String(allow_none=True, metadata={"description": "null until the UTC day is over"})
    par = fields.Nested(ParSchema, allow_none=True,
                        metadata={"description": "the deal's par (what perfect play scores): null until the UTC "
                                                 "day is over"})
