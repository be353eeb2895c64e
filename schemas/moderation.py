"""Disputes, replays, re-verification and the audit log in API requests and responses."""

from marshmallow import EXCLUDE, RAISE, fields, validate

from store.moderation import DECISIONS, DISPUTE_STATUSES, OPEN

from .base import Schema
from .paging import PageArgs
from .runs import RuleErrorSchema, RunSchema

MAX_REASON = 1000


class DisputeCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    reason = fields.String(required=True, validate=validate.Length(1, MAX_REASON),
                           metadata={"example": "The weapon fights a monster it may not fight (R10)."})


class DisputeSchema(Schema):
    id = fields.String()
    run_id = fields.String()
    player = fields.String(metadata={"description": "who filed it"})
    reason = fields.String()
    status = fields.String(metadata={"description": "open or resolved"})
    filed_at = fields.String()
    decision = fields.String(allow_none=True, metadata={"description": "uphold or void, once resolved"})
    note = fields.String(allow_none=True)
    moderator = fields.String(allow_none=True)
    resolved_at = fields.String(allow_none=True)


class DisputeListArgs(PageArgs):
    class Meta:
        unknown = EXCLUDE

    status = fields.String(load_default=OPEN, validate=validate.OneOf(DISPUTE_STATUSES))


class DisputePageSchema(Schema):
    status = fields.String()
    total = fields.Integer()
    disputes = fields.List(fields.Nested(DisputeSchema))


class ResolutionSchema(Schema):
    class Meta:
        unknown = RAISE

    decision = fields.String(required=True, validate=validate.OneOf(DECISIONS))
    note = fields.String(load_default="", validate=validate.Length(max=MAX_REASON))


class PositionSchema(Schema):
    """The table before the first move: the first room, full health, no weapon."""

    room = fields.List(fields.String())
    health = fields.Integer()
    weapon = fields.String(allow_none=True)
    kills = fields.List(fields.String())
    last_kill = fields.String(allow_none=True)
    dungeon = fields.Integer(metadata={"description": "cards left face down"})


class StepSchema(PositionSchema):
    index = fields.Integer()
    move = fields.String()
    room = fields.List(fields.String(), metadata={"description": "the room before the move"})
    room_after = fields.List(fields.String())
    effect = fields.Dict(
        metadata={"description": "damage, healed, wasted, equipped, discarded, killed, avoided, dealt"})


class ReplayErrorSchema(RuleErrorSchema):
    move = fields.String(allow_none=True, metadata={"description": "the offending move; null for incomplete"})


class FinalSchema(Schema):
    outcome = fields.String()
    score = fields.Integer()
    health = fields.Integer()
    moves = fields.Integer()


class ReplaySchema(Schema):
    run_id = fields.String()
    status = fields.String(metadata={"description": "the run's stored status"})
    player = fields.String()
    seed = fields.String()
    variant = fields.String()
    verdict = fields.String(metadata={"description": "this replay's verdict with the current engine"})
    start = fields.Nested(PositionSchema)
    steps = fields.List(fields.Nested(StepSchema), metadata={"description": "one per applied move"})
    error = fields.Nested(ReplayErrorSchema, allow_none=True)
    final = fields.Nested(FinalSchema, allow_none=True)
    move_times = fields.List(fields.String(), allow_none=True,
                             metadata={"description": "a dealt game's server time of each move, for moderators; "
                                                      "else null"})


class VerdictSummarySchema(Schema):
    status = fields.String()
    outcome = fields.String(allow_none=True)
    score = fields.Integer(allow_none=True)
    health = fields.Integer(allow_none=True)
    error = fields.String(allow_none=True, metadata={"description": "the rejection code"})


class ReverificationSchema(Schema):
    run_id = fields.String()
    changed = fields.Boolean()
    before = fields.Nested(VerdictSummarySchema)
    after = fields.Nested(VerdictSummarySchema)
    run = fields.Nested(RunSchema)


class AuditActorSchema(Schema):
    kind = fields.String(metadata={"description": "player, moderator, worker or cli"})
    name = fields.String()


class AuditEntrySchema(Schema):
    id = fields.String(metadata={"description": "the stream entry id; increases with every entry"})
    event = fields.String(metadata={
        "description": "submitted, verified, rejected, errored, requeued, disputed, upheld, voided, restored, "
                       "reverified or flag_dismissed (detail: the flag's id and reason; moderators only)"})
    actor = fields.Nested(AuditActorSchema)
    at = fields.String()
    before = fields.Dict(allow_none=True)
    after = fields.Dict(allow_none=True)
    detail = fields.Dict()


class AuditLogSchema(Schema):
    run_id = fields.String()
    entries = fields.List(fields.Nested(AuditEntrySchema))
