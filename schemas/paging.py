"""Query arguments shared by every paged listing."""

from marshmallow import EXCLUDE, Schema, fields, validate

import scoundrel

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


class DealArgs(Schema):
    """The variant a seed board's seed was played as: each (seed, variant) is a board of its own."""

    variant = fields.String(load_default=scoundrel.CLASSIC, validate=validate.OneOf(scoundrel.VARIANTS),
                            metadata={"description": "the variant the seed was played as"})


class SeedBoardArgs(PageArgs, DealArgs):
    """A page of a seed board."""


class SeedAroundArgs(AroundArgs, DealArgs):
    """A player's place on a seed board."""
