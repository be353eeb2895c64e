"""A deal's par as the API shows it (``domain.par.ParView``)."""

from marshmallow import fields

from .base import Schema


class ParSchema(Schema):
    par = fields.Integer(metadata={"description": "the best score a line found reaches: the deal's par when exact, "
                                                  "else a proven lower bound of it"})
    exact = fields.Boolean(metadata={"description": "true once par is proven the best score the deal allows"})
    upper = fields.Integer(metadata={"description": "a proven upper bound of the par (equal to par when exact)"})
    line = fields.List(fields.String(), allow_none=True,
                       metadata={"description": "moves in the notation that reach par from the deal; null where the "
                                                "deal's seed is not the reader's to see"})
    searching = fields.Boolean(metadata={"description": "true while a worker searches on: ask again later"})


class SeedParSchema(ParSchema):
    seed = fields.String()
    variant = fields.String()
