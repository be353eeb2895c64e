"""Reward tables and inboxes as the API takes and shows them (``domain.rewards``)."""

from marshmallow import RAISE, ValidationError, fields, post_dump, validate, validates_schema

from domain.rewards import band_problem

from .base import Schema
from .runs import Time

MAX_BANDS = 100
MAX_RANK = 10_000_000


class RewardBandSchema(Schema):
    """One band: ``from_rank``–``to_rank`` (``to_rank`` left out: the one rank), or ``top_percent``."""

    class Meta:
        unknown = RAISE

    from_rank = fields.Integer(validate=validate.Range(1, MAX_RANK),
                               metadata={"description": "the band's first rank (1: the first place)"})
    to_rank = fields.Integer(validate=validate.Range(1, MAX_RANK), metadata={"description": "its last rank"})
    top_percent = fields.Float(validate=validate.Range(0, 100, min_inclusive=False), metadata={
        "description": "instead of ranks: the top percent of the entrants (rounded up: the first place at least)"})
    payload = fields.Raw(required=True, allow_none=False, metadata={
        "description": "what the band grants: JSON of the studio's, kept and shown, never read (say "
                       '{"coins": 100})'})

    @validates_schema
    def _ranks_or_percent(self, data, **kwargs):
        if problem := band_problem(data):
            raise ValidationError(problem, "to_rank" if "to_rank" in problem[:8] else "from_rank")

    @post_dump
    def _given_only(self, data, **kwargs):
        return {name: value for name, value in data.items() if value is not None or name == "payload"}


def reward_table(description: str) -> fields.List:
    """A reward table field: a list of bands, the first covering a rank granting its payload."""
    return fields.List(fields.Nested(RewardBandSchema), load_default=list, validate=validate.Length(max=MAX_BANDS),
                       metadata={"description": description})


class RewardSchema(Schema):
    id = fields.String()
    source = fields.String(metadata={"description": "the competition: tournament:<id>, league:<week> or "
                                                    "season:<id>"})
    rank = fields.Integer(metadata={"description": "the final rank that earned it"})
    payload = fields.Raw()
    granted_at = Time(attribute="granted_ms")
    claimed_at = Time(attribute="claimed_ms", allow_none=True)


class InboxSchema(Schema):
    player = fields.String()
    items = fields.List(fields.Nested(RewardSchema), metadata={"description": "newest first"})


class FlaggedSchema(Schema):
    player = fields.String()
    reward = fields.String(metadata={"description": "the reward's id in the player's inbox"})
    claimed = fields.Dict(metadata={"description": "the reward as it was claimed"})
    now_earned = fields.Dict(allow_none=True, metadata={"description": "what the new ranks earn instead; null: "
                                                                       "nothing"})
    flagged_at = Time(attribute="at_ms")


class FlaggedPageSchema(Schema):
    total = fields.Integer()
    flags = fields.List(fields.Nested(FlaggedSchema))
