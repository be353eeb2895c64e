"""Tournaments as the API takes and shows them (``domain.tournaments``)."""

from datetime import UTC, datetime

from marshmallow import EXCLUDE, RAISE, ValidationError, fields, validate, validates_schema

import scoundrel
from domain.tournaments import BEST, MAX_ATTEMPTS, MAX_DEALS, SCORINGS, STATES, SUM

from .base import Schema
from .paging import PageArgs
from .rewards import RewardBandSchema, reward_table
from .runs import Time
from .sanctions import HideSchema

MAX_TITLE = 100
MAX_ENTRANTS = 10_000_000


class TournamentCreateSchema(Schema):
    class Meta:
        unknown = RAISE
        # ``_sum_over_sealed_deals`` in the OpenAPI document: a sum is over sealed decks
        openapi = {"anyOf": [{"properties": {"scoring": {"not": {"enum": [SUM]}}}},
                             {"not": {"required": ["deals"]}}, {"properties": {"deals": {"minimum": 1}}}]}

    title = fields.String(required=True, validate=validate.Length(1, MAX_TITLE))
    variant = fields.String(load_default=scoundrel.CLASSIC, validate=validate.OneOf(scoundrel.VARIANTS))
    starts_at = fields.AwareDateTime(required=True, metadata={"description": "when games may start (ISO 8601 with "
                                                                             "its offset)"})
    ends_at = fields.AwareDateTime(required=True, metadata={"description": "when it ends: after starts_at and "
                                                                           "still ahead; a game in play then is "
                                                                           "forfeited (R19)"})
    join_required = fields.Boolean(load_default=False, metadata={
        "description": "true: only players who joined (POST …/join) may play; false: a first game joins"})
    max_entrants = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(1, MAX_ENTRANTS),
                                  metadata={"description": "the most players who may join; null for no cap"})
    max_attempts = fields.Integer(load_default=1, validate=validate.Range(1, MAX_ATTEMPTS), metadata={
        "description": "games each entrant may play on each sealed deal (with fresh decks: in all)"})
    deals = fields.Integer(load_default=1, validate=validate.Range(0, MAX_DEALS), metadata={
        "description": f"sealed decks (0-{MAX_DEALS}), dealt to every entrant and shown only after the end; 0 for "
                       "a fresh deck every game"})
    scoring = fields.String(load_default=BEST, validate=validate.OneOf(SCORINGS), metadata={
        "description": f'"{BEST}": each entrant\'s best game ranks them; "{SUM}": the sum of their best game on each '
                       "sealed deal (deals 1 or more)"})

    rewards = reward_table("granted into each entrant's inbox once its standings are final (docs/tournaments.md)")

    @validates_schema
    def _sum_over_sealed_deals(self, data, **kwargs):
        if data.get("scoring") == SUM and data.get("deals") == 0:
            raise ValidationError(f'"{SUM}" adds up the best game on each sealed deal: give deals 1 or more.',
                                  "scoring")

    @validates_schema
    def _ends_ahead_after_start(self, data, **kwargs):
        if "ends_at" in data and data["ends_at"] <= datetime.now(UTC):
            raise ValidationError("A tournament ends in the future: this is past.", "ends_at")
        if "starts_at" in data and "ends_at" in data and data["ends_at"] <= data["starts_at"]:
            raise ValidationError("A tournament ends after it starts.", "ends_at")


class TournamentEndSchema(HideSchema):
    """Why a moderator ends a running tournament now (``reason``, in the moderators' log)."""


class TournamentListArgs(PageArgs):
    state = fields.String(load_default="running", validate=validate.OneOf(STATES), metadata={
        "description": "upcoming (soonest first), running (ending soonest first) or ended (latest first)"})


class EntrySchema(Schema):
    joined = fields.Boolean()
    attempts_used = fields.List(fields.Integer(), metadata={
        "description": "games started on each sealed deal in order (one number in all, with fresh decks)"})
    attempts_left = fields.Integer()


class SealedDealSchema(Schema):
    deal = fields.Integer()
    seed = fields.String()


class TournamentSchema(Schema):
    id = fields.String()
    title = fields.String()
    variant = fields.String()
    state = fields.String(metadata={"description": "upcoming, running or ended"})
    starts_at = Time(attribute="starts_ms")
    ends_at = Time(attribute="ends_ms")
    join_required = fields.Boolean()
    max_entrants = fields.Integer(allow_none=True)
    max_attempts = fields.Integer()
    deals = fields.Integer()
    scoring = fields.String()
    entrants = fields.Integer()
    created_by = fields.String()
    created_at = Time(attribute="created_ms")
    standings = fields.String(metadata={"description": "the standings' path"})
    page = fields.String(metadata={"description": "the tournament's page"})
    final = fields.Boolean(metadata={"description": "ended, closed and every game judged: the standings are final "
                                                    "(a void may still change them: revised_at)"})
    revised_at = Time(attribute="revised_ms", allow_none=True, metadata={
        "description": "when a void, restore or re-verification last changed the standings after the end"})
    rewards = fields.List(fields.Nested(RewardBandSchema), metadata={"description": "its reward table"})
    schedule = fields.String(allow_none=True, metadata={"description": "the schedule that made it; null: by hand"})
    sealed_deals = fields.List(fields.Nested(SealedDealSchema), allow_none=True, metadata={
        "description": "each sealed deck's seed, once the tournament has ended and closed; null before"})
    you = fields.Nested(EntrySchema, allow_none=True, metadata={"description": "the caller's entry (with a "
                                                                               "player's token)"})


class TournamentListSchema(Schema):
    state = fields.String()
    total = fields.Integer()
    tournaments = fields.List(fields.Nested(TournamentSchema))


class JoinedSchema(Schema):
    tournament = fields.String()
    player = fields.String()
    joined = fields.Boolean(metadata={"description": "true: joined now; false: had joined already"})


class StandingsDealArgs(Schema):
    """``?deal=``: a sum tournament's standings of one of its deals."""

    class Meta:
        unknown = EXCLUDE

    deal = fields.Integer(load_default=None, validate=validate.Range(1, MAX_DEALS), metadata={
        "description": "a sum tournament's sealed deal: its own standings (each entrant's best game on it)"})
