"""The one error shape every error answers in (``service.api``): flask-smorest's ``{"code", "status", "message",
"errors"}``, and the keys a refusal adds to it (``service.errors.ANSWERS``, a studio's token refused), each
documented, so that an answer the API gives is one its OpenAPI document allows (it allows no other key)."""

from flask_smorest.error_handler import ErrorSchema as MessageSchema
from marshmallow import fields

from .base import Schema
from .runs import RuleErrorSchema


class ErrorSchema(Schema, MessageSchema):
    """An error: its message and field errors, and what a refusal of some kind adds (absent otherwise)."""

    reason = fields.String(metadata={
        "description": "the refusal in a word: name_resting (an erased player's name, resting until "
                       "available_at), a tournament's (not_started, ended, full, ...), sealed_day_over, a "
                       "studio's token refused (expired, not_linked, ...), banned, name_not_allowed"})
    available_at = fields.String(metadata={"format": "date-time",
                                           "description": "with name_resting: when the name may be registered"})
    game_id = fields.String(metadata={"description": "the game in play the refusal is about"})
    moves = fields.Integer(metadata={"description": "moves the game has played (expected_moves differs)"})
    ruling = fields.String(metadata={"description": "the RULES.md ruling of the refusal"})
    most = fields.Integer(metadata={"description": "the most the refused request would exceed (players followed)"})
    until = fields.String(allow_none=True, metadata={"format": "date-time",
                                                     "description": "with banned: when the ban ends (null: lifted)"})
    report_id = fields.String(metadata={"description": "the open report of the same target (one at a time)"})
    retry_at = fields.String(metadata={"format": "date-time", "description": "when another report is taken"})
    error = fields.Nested(RuleErrorSchema, metadata={"description": "the first refused move: its index, the "
                                                                    "engine's code, message and ruling"})
