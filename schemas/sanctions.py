"""Moderators' sanctions of players (bans, hidings) and their log, in API requests and responses."""

from datetime import UTC, datetime

from marshmallow import RAISE, ValidationError, fields, post_load, validate, validates

from store.sanctions import LOG_ACTIONS, LogFilter

from .base import Schema
from .moderation import MAX_REASON
from .paging import PageArgs
from .players import NAME_PATTERN, name_key, new_player_name, player_name


class HideSchema(Schema):
    class Meta:
        unknown = RAISE

    reason = fields.String(required=True, validate=validate.Length(1, MAX_REASON),
                           metadata={"example": "Plays 400 games a day at machine speed."})


class BanSchema(HideSchema):
    until = fields.AwareDateTime(load_default=None, metadata={
        "description": "when the ban ends by itself (ISO 8601 with a zone, in the future); none: until lifted",
        "example": "2027-01-01T00:00:00Z"})

    @validates("until")
    def _in_the_future(self, value: datetime | None, **_: object) -> None:
        if value is not None and value <= datetime.now(UTC):
            raise ValidationError("The end of a ban is in the future.")


class SanctionSchema(Schema):
    reason = fields.String()
    moderator = fields.String()
    since = fields.String(metadata={"description": "when it began (ISO 8601, UTC)"})
    until = fields.String(allow_none=True, metadata={"description": "a timed ban's end; null: until lifted"})


class PlayerSanctionsSchema(Schema):
    player = fields.String()
    ban = fields.Nested(SanctionSchema, allow_none=True, metadata={"description": "the ban in force, or null"})
    hidden = fields.Nested(SanctionSchema, allow_none=True, metadata={"description": "the hiding, or null"})


class RenameSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(load_default=None, validate=new_player_name, metadata={
        "description": "the new name; none: the next free player-<n>", "example": "player-7",
        "pattern": NAME_PATTERN})


class RenamedSchema(Schema):
    player = fields.String(metadata={"description": "the player's new name"})
    previous = fields.String(metadata={"description": "the name they had, resting now as an erased one does"})


class ModerationEntrySchema(Schema):
    action = fields.String(metadata={"description": "on a player: ban, unban, hide, unhide or rename; on a run: "
                                                   "uphold or void (a dispute's decision, or a void with no "
                                                   "dispute), restore, reverify or requeue; dismiss_flag; "
                                                   "close_report"})
    player = fields.String(metadata={"description": "the player acted on (after a rename, their new name), or "
                                                    "whose run, flag or report it was; empty for a tournament"})
    previous = fields.String(metadata={"description": "a rename's old name"})
    moderator = fields.String(metadata={"description": "who acted (expiry: a timed ban that ended by itself)"})
    at = fields.String()
    reason = fields.String(allow_none=True, metadata={"description": "the reason or note given"})
    until = fields.String(allow_none=True)
    run_id = fields.String(metadata={"description": "the run acted on (a flag's or a report's run too); absent for "
                                                    "an action on a player"})
    tournament = fields.String(metadata={"description": "end_tournament: the tournament ended early"})
    title = fields.String(metadata={"description": "end_tournament: the tournament's title"})


class LogFilterSchema(Schema):
    """The moderators' log's filters (the API's query and the desk's ``/desk/log``) as a ``LogFilter``
    (``only``), names compared as their ``name_key``."""

    moderator = fields.String(load_default=None, validate=validate.Length(1, 100),
                              metadata={"description": "only this moderator's actions (any case)"})
    action = fields.String(load_default=None, validate=validate.OneOf(LOG_ACTIONS),
                           metadata={"description": "only this action (``kind``)"})
    player = fields.String(load_default=None, validate=player_name,
                           metadata={"description": "only actions on this player (any case)", "pattern": NAME_PATTERN})

    @post_load
    def _filter(self, data: dict, **_: object) -> dict:
        moderator, player = data.pop("moderator"), data.pop("player")
        only = LogFilter(moderator and moderator.lower(), data.pop("action"), player and name_key(player))
        return {**data, "only": only}


class ModerationLogArgs(PageArgs, LogFilterSchema):
    """A page of the moderators' log, filtered."""


class ModerationLogSchema(Schema):
    total = fields.Integer()
    entries = fields.List(fields.Nested(ModerationEntrySchema), metadata={"description": "newest first"})
