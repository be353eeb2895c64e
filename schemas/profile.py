"""A player's public profile (``GET /v1/players/<name>``) in API responses."""

from marshmallow import fields

from .base import Schema
from .export import PlaceSchema
from .leagues import LeagueWeekSchema
from .sanctions import SanctionSchema
from .streaks import StreakSchema


class RunCountsSchema(Schema):
    total = fields.Integer(metadata={"description": "every run, the archive's too"})
    verified = fields.Integer()
    rejected = fields.Integer()
    pending = fields.Integer()
    void = fields.Integer()
    error = fields.Integer()
    won = fields.Integer(metadata={"description": "verified runs won"})


class ProfileSchema(Schema):
    name = fields.String(metadata={"description": "as registered"})
    registered_at = fields.String()
    status = fields.String(metadata={"description": "active, or banned; hidden to the player themselves and to "
                                                    "moderators only (to anyone else a hidden player is active)"})
    ban = fields.Nested(SanctionSchema, allow_none=True, metadata={
        "description": "a banned player's ban: its end to anyone, its reason and moderator to the player and to "
                       "moderators"})
    places = fields.List(fields.Nested(PlaceSchema), metadata={
        "description": "the player's place on each board they hold one on, ladders included (none for a banned "
                       "or hidden player: their places are withheld)"})
    ladders = fields.List(fields.Nested(PlaceSchema), metadata={"description": "of `places`, the ladders'"})
    league = fields.Nested(LeagueWeekSchema, allow_none=True, metadata={
        "description": "the player's latest league week: tier, rank in the cohort, zone; null for none (and for a "
                       "banned player)"})
    streak = fields.Nested(StreakSchema, allow_none=True, metadata={"description": "null for a banned player"})
    runs = fields.Nested(RunCountsSchema)
