"""Flags for moderators in API requests and responses (``/v1/flags``)."""

from marshmallow import EXCLUDE, RAISE, fields, validate

from store.moderation import FLAG_STATUSES, REASONS

from .base import Schema
from .paging import PageArgs

MAX_NOTE = 1000


class FlagListArgs(PageArgs):
    class Meta:
        unknown = EXCLUDE

    reason = fields.String(validate=validate.OneOf(REASONS),
                           metadata={"description": f"only flags of this reason: {', '.join(REASONS)}; "
                                                    "absent: every reason"})
    status = fields.String(validate=validate.OneOf(FLAG_STATUSES),
                           metadata={"description": "only open or only dismissed flags; absent: both"})
    run_id = fields.String(validate=validate.Length(1, 64),
                           metadata={"description": "only the flags naming this run (reason and status "
                                                    "still apply)"})


class DismissalSchema(Schema):
    class Meta:
        unknown = RAISE

    note = fields.String(load_default="", validate=validate.Length(max=MAX_NOTE),
                         metadata={"example": "A fast reader: the moves are good and varied."})


class DismissedSchema(Schema):
    moderator = fields.String()
    at = fields.String()
    note = fields.String()


class FlagSchema(Schema):
    id = fields.String(metadata={"description": "what POST /v1/flags/<id>/dismiss takes"})
    reason = fields.String(metadata={"description": f"one of {', '.join(REASONS)}"})
    status = fields.String(metadata={"description": "open, or dismissed by a moderator"})
    run_id = fields.String(metadata={"description": "the run a fast_moves or steady_rhythm flag is about; "
                                                    "absent for shared_address and clairvoyant"})
    replay = fields.String(metadata={"description": "the run's replay viewer (a path on this service); "
                                                    "with run_id"})
    players = fields.List(fields.String(), metadata={"description": "the players it is about: the run's, "
                                                                    "every player who shared the address, or "
                                                                    "the clairvoyant player"})
    detail = fields.Dict(metadata={"description": "what was seen: the timing figures and limits, or the date "
                                                  "and each player's sealed daily run (run_id, replay), or a "
                                                  "clairvoyant flag's games (runs: run_id, replay), telling "
                                                  "decisions, perfect choices, fair_rate, tail and threshold"})
    created_at = fields.String()
    dismissed = fields.Nested(DismissedSchema, allow_none=True,
                              metadata={"description": "who dismissed it, when and why; null while open"})


class FlagPageSchema(Schema):
    total = fields.Integer()
    entries = fields.List(fields.Nested(FlagSchema))
