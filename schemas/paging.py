"""Query arguments shared by every paged listing."""

from marshmallow import EXCLUDE, Schema, fields, validate

MAX_PAGE = 100


class PageArgs(Schema):
    class Meta:
        unknown = EXCLUDE  # unknown query parameters (cache-busters and the like) are ignored

    limit = fields.Integer(load_default=20, validate=validate.Range(1, MAX_PAGE),
                           metadata={"description": f"entries per page, 1-{MAX_PAGE}"})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))


class AroundArgs(Schema):
    class Meta:
        unknown = EXCLUDE

    around = fields.Integer(load_default=5, validate=validate.Range(0, 50),
                            metadata={"description": "places shown above and below the player"})
