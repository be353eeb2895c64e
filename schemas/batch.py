"""A batch of submissions: up to 1,000 games in one request.

The outer schema checks only that ``runs`` is a list of the right length;
each item is then validated on its own with ``SubmissionSchema``, so one
malformed item gets its own errors without failing the others.
"""

from marshmallow import RAISE, Schema, fields, validate

from .runs import RunSchema

MAX_BATCH = 1000


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
    errors = fields.Dict(allow_none=True, metadata={"description": "field errors of a malformed item"})


class BatchResultSchema(Schema):
    accepted = fields.Integer(metadata={"description": "new runs"})
    existing = fields.Integer(metadata={"description": "games this player had already submitted"})
    invalid = fields.Integer(metadata={"description": "malformed items"})
    results = fields.List(fields.Nested(BatchItemSchema))
