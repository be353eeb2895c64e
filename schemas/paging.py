"""Query arguments shared by every paged listing.

Every integer is bounded: Redis takes offsets as 64-bit integers and answers
an error (a 500, before these bounds) for one past that, so the schema
refuses it first, with a 422 naming the field.
"""

from marshmallow import EXCLUDE, fields, validate

import scoundrel

from .base import Schema
from .players import NAME_PATTERN, player_name

MAX_PAGE = 100
MAX_OFFSET = 1_000_000_000  # far beyond any board or listing; an offset past the end gives an empty page
MAX_AROUND = 50


class PageArgs(Schema):
    class Meta:
        unknown = EXCLUDE  # unknown query parameters (cache-busters and the like) are ignored

    limit = fields.Integer(load_default=20, validate=validate.Range(1, MAX_PAGE),
                           metadata={"description": f"entries per page, 1-{MAX_PAGE}"})
    offset = fields.Integer(load_default=0, validate=validate.Range(0, MAX_OFFSET),
                            metadata={"description": f"entries to skip, 0-{MAX_OFFSET:,}"})


class BoardArgs(PageArgs):
    """A page of a board; with ``among``, of that player and the players they follow; with ``around``, the
    places around a player's."""

    among = fields.String(load_default=None, validate=player_name, metadata={
                              "pattern": NAME_PATTERN,
                              "description": "a player's name (any case): list that player and the players "
                                                   "they follow, ranked among themselves (rank) with each one's "
                                                   "rank on the whole board (global_rank); paged by limit and "
                                                   "offset, total counts them"})
    around = fields.String(load_default=None, validate=player_name, metadata={
        "pattern": NAME_PATTERN,
        "description": "a player's name (any case): the places around theirs (places either side) instead of a "
                       "page; rank is theirs"})
    places = fields.Integer(load_default=5, validate=validate.Range(0, MAX_AROUND),
                            metadata={"description": f"with around: places shown above and below the player, "
                                                     f"0-{MAX_AROUND}"})


class AroundArgs(Schema):
    class Meta:
        unknown = EXCLUDE

    around = fields.Integer(load_default=5, validate=validate.Range(0, MAX_AROUND),
                            metadata={"description": f"places shown above and below the player, 0-{MAX_AROUND}"})


class DealArgs(Schema):
    """The variant a seed board's seed was played as: each (seed, variant) is a board of its own."""

    variant = fields.String(load_default=scoundrel.CLASSIC, validate=validate.OneOf(scoundrel.VARIANTS),
                            metadata={"description": "the variant the seed was played as"})
