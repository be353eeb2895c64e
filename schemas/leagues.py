"""The weekly leagues as the API shows them (``domain.leagues``)."""

from marshmallow import fields

from .base import Schema
from .runs import BoardEntrySchema

_ZONE = ('where the place leads at the week\'s end: "up" a tier, "down" a tier, or "stays" '
         "(while the week runs: where it stands now)")


class CohortEntrySchema(BoardEntrySchema):
    zone = fields.String(metadata={"description": _ZONE})


class CohortSchema(Schema):
    week = fields.String(metadata={"description": "the UTC ISO week, YYYY-Www"})
    cohort = fields.Integer()
    tier = fields.String()
    entries = fields.List(fields.Nested(CohortEntrySchema), metadata={
        "description": "the cohort's places: rank among the cohort, global_rank on the week's board"})
    unplaced = fields.List(fields.String(), metadata={
        "description": "players of the cohort with no counted game left (voided): last, and down"})
    ends_at = fields.String(metadata={"description": "when the week ends (UTC)"})
    over = fields.Boolean(metadata={"description": "the week has ended: zones are final"})


class CurrentLeagueSchema(CohortSchema):
    cohort = fields.Integer(allow_none=True, metadata={"description": "null until the caller's first counted game "
                                                                     "of the week (a classic dealt game)"})
    tier = fields.String(metadata={"description": "the caller's tier this week (before their first game: the one "
                                                  "they will join)"})
    rank = fields.Integer(allow_none=True, metadata={"description": "the caller's rank in the cohort"})


class LeagueWeekSchema(Schema):
    week = fields.String()
    cohort = fields.Integer()
    tier = fields.String()
    rank = fields.Integer(allow_none=True)
    entrants = fields.Integer()
    zone = fields.String(metadata={"description": _ZONE})


class LeagueHistorySchema(Schema):
    player = fields.String()
    weeks = fields.List(fields.Nested(LeagueWeekSchema), metadata={"description": "latest first"})


