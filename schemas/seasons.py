"""How the seasons look in API responses (``domain.seasons.Season``)."""

from marshmallow import fields

from .base import Schema
from .runs import Time


class SeasonSchema(Schema):
    id = fields.String(metadata={"description": "YYYY-MM (monthly seasons) or YYYY-Www (weekly, ISO weeks)"})
    starts_at = Time(attribute="starts_ms", metadata={"description": "when the season starts (UTC)"})
    ends_at = Time(attribute="ends_ms", metadata={"description": "when it ends, exclusive: the next one's start"})


class SeasonsSchema(Schema):
    current = fields.Nested(SeasonSchema)
    total = fields.Integer(metadata={"description": "how many seasons have ended"})
    past = fields.List(fields.Nested(SeasonSchema), metadata={"description": "ended seasons, newest first"})
