"""Whom a player follows, as ``GET /v1/players/<name>/following`` lists it."""

from marshmallow import fields

from store.accounts import MOST_FOLLOWED

from .base import Schema


class FollowedSchema(Schema):
    player = fields.String(metadata={"description": "the player followed, as registered"})
    since = fields.String(metadata={"description": "when they were first followed"})


class FollowingPageSchema(Schema):
    player = fields.String()
    total = fields.Integer(metadata={"description": f"how many players they follow (at most {MOST_FOLLOWED:,})"})
    entries = fields.List(fields.Nested(FollowedSchema), metadata={"description": "the latest followed first"})
