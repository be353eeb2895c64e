"""The public log's API (``service.transparency``): its pages of leaves and its proofs, hashes in base64."""

from marshmallow import EXCLUDE, fields, validate, validates_schema
from marshmallow.exceptions import ValidationError

from domain.transparency import PAGE_MOST

from .base import Schema

_SIZE = validate.Range(min=0, max=2**53)  # a tree size or an index: JSON's exact integers


class EntriesArgs(Schema):
    class Meta:
        unknown = EXCLUDE

    start = fields.Integer(required=True, validate=_SIZE, metadata={"description": "the first leaf's index"})
    end = fields.Integer(required=True, validate=_SIZE,
                         metadata={"description": f"the index after the last leaf; at most {PAGE_MOST} a page"})

    @validates_schema
    def _ordered(self, args, **kwargs):
        if args["end"] < args["start"]:
            raise ValidationError("Not before start.", "end")


class InclusionArgs(Schema):
    class Meta:
        unknown = EXCLUDE

    run = fields.String(validate=validate.Length(min=1),  # a reveal's or a player's leaf names no run
                        metadata={"description": "a run id: its latest leaf in the tree"})
    leaf = fields.String(metadata={"description": "a leaf hash (base64): the first leaf with it in the tree"})
    size = fields.Integer(required=True, validate=validate.Range(min=1, max=2**53),
                          metadata={"description": "the tree size (a checkpoint's)"})

    @validates_schema
    def _one_leaf(self, args, **kwargs):
        if ("run" in args) == ("leaf" in args):
            raise ValidationError("Give run or leaf, not both.", "run")


class ConsistencyArgs(Schema):
    class Meta:
        unknown = EXCLUDE

    first = fields.Integer(required=True, validate=_SIZE)
    second = fields.Integer(required=True, validate=_SIZE)

    @validates_schema
    def _ordered(self, args, **kwargs):
        if args["second"] < args["first"]:
            raise ValidationError("Not below first.", "second")


class LogEntrySchema(Schema):
    index = fields.Integer()
    leaf = fields.String(metadata={"description": "the exact text hashed: the leaf's canonical JSON"})
    leaf_hash = fields.String(metadata={"description": "SHA-256(0x00 || leaf), base64 (RFC 9162 §2.1.1)"})


class LogEntriesSchema(Schema):
    entries = fields.List(fields.Nested(LogEntrySchema))


class InclusionSchema(Schema):
    index = fields.Integer()
    tree_size = fields.Integer()
    leaf_hash = fields.String(metadata={"description": "the proven leaf's hash, base64"})
    hashes = fields.List(fields.String(), metadata={"description": "the audit path, base64 (RFC 9162 §2.1.3)"})


class ConsistencySchema(Schema):
    first = fields.Integer()
    second = fields.Integer()
    hashes = fields.List(fields.String(), metadata={"description": "the consistency proof, base64 (RFC 9162 §2.1.4)"})


class CheckpointsSchema(Schema):
    total = fields.Integer(metadata={"description": "how many checkpoints were signed"})
    checkpoints = fields.List(fields.String(), metadata={"description": "every signed note, smallest tree first"})


class RunLogSchema(Schema):
    """A run's place in the public log (``RunSchema.log``)."""

    index = fields.Integer()
    leaf_hash = fields.String(metadata={"description": "base64"})
