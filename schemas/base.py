"""The base of every schema here: marshmallow's ``Schema``, whose deep copy is itself.

flask-smorest deep-copies a view's documentation, the schema instances in it
included, at each of its decorators and again when a blueprint is
registered; copying a schema copies every field of it and of its nested
schemas, which was half the CPU of building the app (and of importing the
views). A schema is never changed once built (loading and dumping only read
it), so sharing it is the same as copying it.
"""

from typing import Any

import marshmallow


class Schema(marshmallow.Schema):
    def __deepcopy__(self, memo: dict[int, Any]) -> "Schema":
        return self
