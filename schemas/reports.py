"""Players' reports of runs and players, and the moderators' queue of them, in API requests and responses."""

from marshmallow import EXCLUDE, RAISE, fields, validate

from store.sanctions import (
    REPORT_DECISIONS,
    REPORT_OPEN,
    REPORT_REASONS,
    REPORT_STATUSES,
    REPORTED_PLAYER,
    REPORTED_RUN,
)

from .base import Schema
from .moderation import MAX_REASON
from .paging import PageArgs


class ReportCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    reason = fields.String(required=True, validate=validate.OneOf(REPORT_REASONS),
                           metadata={"description": f"one of {', '.join(REPORT_REASONS)}"})
    text = fields.String(load_default="", validate=validate.Length(max=MAX_REASON),
                         metadata={"example": "Four hundred games a day, every one at the same pace."})


class ReportSchema(Schema):
    id = fields.String()
    kind = fields.String(metadata={"description": "what is reported: run or player"})
    target = fields.String(metadata={"description": "the run's id, or the player's name"})
    reporter = fields.String()
    reason = fields.String()
    text = fields.String()
    status = fields.String(metadata={"description": "open or closed"})
    filed_at = fields.String()
    decision = fields.String(allow_none=True,
                             metadata={"description": f"once closed: {' or '.join(REPORT_DECISIONS)}"})
    note = fields.String(allow_none=True)
    moderator = fields.String(allow_none=True)
    closed_at = fields.String(allow_none=True)


class ReportListArgs(PageArgs):
    class Meta:
        unknown = EXCLUDE

    status = fields.String(load_default=REPORT_OPEN, validate=validate.OneOf(REPORT_STATUSES))
    kind = fields.String(load_default=None, validate=validate.OneOf((REPORTED_RUN, REPORTED_PLAYER)))
    reason = fields.String(load_default=None, validate=validate.OneOf(REPORT_REASONS))
    target = fields.String(load_default=None, validate=validate.Length(1, 64),
                           metadata={"description": "a run's id or a player's name, as reports name them"})


class ReportPageSchema(Schema):
    total = fields.Integer()
    reports = fields.List(fields.Nested(ReportSchema))


class ReportClosingSchema(Schema):
    class Meta:
        unknown = RAISE

    decision = fields.String(required=True, validate=validate.OneOf(REPORT_DECISIONS))
    note = fields.String(load_default="", validate=validate.Length(max=MAX_REASON))
