"""A batch of submissions: up to 1,000 games in one request.

The outer schema checks only that ``runs`` is a list of the right length;
each item is then validated on its own with ``SubmissionSchema``, so one
malformed item gets its own errors without failing the others.

A malformed item's answer is its first error alone (``first_error``), a
few hundred bytes at most: every field's errors of every item would make
the answer many times the request (a thousand items of 200 moves not in
the notation, 1 MB, were answered with 24 MB of the same message).
``POST /v1/runs`` answers a submission with all its errors.
"""

from marshmallow import RAISE, fields, validate

from .base import Schema
from .runs import RunSchema

MAX_BATCH = 1000
MAX_FIELD_NAME = 64  # characters of a field's name (an unknown field's is the client's) an item's error repeats


def first_error(messages: dict) -> dict:
    """A malformed item's errors (marshmallow's, by field) cut to the first of them, in the same shape:
    ``{field: [message]}``, or for a move ``{"moves": {index: [message]}}``; fields in the schema's order."""
    field, found = next(iter(messages.items()))
    name = str(field)[:MAX_FIELD_NAME]
    return {name: first_error(found)} if isinstance(found, dict) else {name: found[:1]}


class BatchSchema(Schema):
    class Meta:
        unknown = RAISE

    runs = fields.List(
        # Any JSON value, null included: each item is judged on its own below.
        fields.Raw(allow_none=True, metadata={"description": "a submission: {seed, moves, variant?}"}),
        required=True,
        validate=validate.Length(1, MAX_BATCH),
        metadata={"description": f"1-{MAX_BATCH} submissions, each as POST /v1/runs takes it"},
    )


class BatchItemSchema(Schema):
    index = fields.Integer(metadata={"description": "the item's place in the request"})
    status = fields.Integer(metadata={"description": "202 new run, 200 already submitted, 422 malformed"})
    run = fields.Nested(RunSchema, allow_none=True)
    errors = fields.Dict(allow_none=True, metadata={
        "description": "a malformed item's first error: {field: [message]}, a move's {\"moves\": {index: "
                       "[message]}} (POST /v1/runs gives every error)"})


class BatchResultSchema(Schema):
    accepted = fields.Integer(metadata={"description": "new runs"})
    existing = fields.Integer(metadata={"description": "games this player had already submitted"})
    invalid = fields.Integer(metadata={"description": "malformed items"})
    results = fields.List(fields.Nested(BatchItemSchema))
