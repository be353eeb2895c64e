"""Marshmallow schemas: the one definition of well-formed input.

The CLI and the HTTP API validate with these very schemas, so an ``invalid``
verdict reads the same wherever it comes from.
"""

from .submission import MoveList, SubmissionSchema, load_submission

__all__ = ["MoveList", "SubmissionSchema", "load_submission"]
