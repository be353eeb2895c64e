"""The submission schema: ``{"seed", "moves", "variant"}``.

The move list is the hot part (up to 200 items on every submission), so it
is one field checked against the engine's table of notations in a single
pass instead of a ``List`` of per-item ``String`` fields.
"""

from marshmallow import RAISE, ValidationError, fields, validate

import scoundrel

from .base import Schema

MOVE_MESSAGE = (
    "Not a move in the notation: use flee, H<v>, D<v>, or S<v>/C<v> followed by w (weapon) or b (barehanded) (R2)."
)


def _check_seed(seed: str) -> None:
    if not scoundrel.is_valid_seed(seed):
        raise ValidationError(scoundrel.SEED_MESSAGE)


class MoveList(fields.Field):
    """A list of move strings in the notation of RULES.md, 1 to ``most`` long.

    An empty list is refused here although the engine would judge it
    ``incomplete`` (R17): a submission with no move is a client's mistake,
    not a game to store. ``too_long`` is the message past ``most``.

    Errors are keyed by the index of each offending item, as marshmallow's
    own ``List`` field reports them. The OpenAPI document lists the
    notation's every move, so a value its schema allows is a move.
    """

    default_error_messages = {
        "type": "Moves must be a list of move strings.",
        "empty": "Moves must hold at least one move.",
    }

    def __init__(self, *, most: int, too_long: str, **kwargs):
        kwargs["metadata"] = {"type": "array", "items": {"type": "string", "enum": list(scoundrel.MOVES)},
                              "minItems": 1, "maxItems": most, **kwargs.get("metadata", {})}
        super().__init__(**kwargs)
        self.most = most
        self.error_messages["too_long"] = too_long

    def _deserialize(self, value, attr, data, **kwargs) -> list[str]:
        if type(value) is not list:
            raise self.make_error("type")
        if not value:
            raise self.make_error("empty")
        if len(value) > self.most:
            raise self.make_error("too_long")
        table = scoundrel.MOVES
        if all(type(move) is str and move in table for move in value):
            return value
        raise ValidationError(
            {
                index: [MOVE_MESSAGE if type(move) is str else "Not a string."]
                for index, move in enumerate(value)
                if not (type(move) is str and move in table)
            }
        )

    def _serialize(self, value, attr, obj, **kwargs):
        return list(value) if value is not None else None


class SubmissionSchema(Schema):
    """A game submitted for verification. Unknown fields are an error."""

    class Meta:
        unknown = RAISE

    seed = fields.String(required=True, validate=_check_seed,
                         metadata={"pattern": f"^{scoundrel.SEED_PATTERN.pattern}$", "example": "abc"})
    moves = MoveList(
        required=True, most=scoundrel.MAX_MOVES,
        too_long=f"At most {scoundrel.MAX_MOVES} moves are allowed (a full game needs at most 44 plays plus avoids).",
        metadata={"example": ["flee", "S3b", "H6", "C7b"]},
    )
    variant = fields.String(
        load_default=scoundrel.CLASSIC,
        validate=validate.OneOf(scoundrel.VARIANTS),
        metadata={"description": "classic (ranked), easy or hard (R14)"},
    )


_SCHEMA = SubmissionSchema()


def load_submission(payload: object) -> tuple[dict | None, dict | None]:
    """``(submission, None)`` for well-formed input, ``(None, errors)`` otherwise."""
    try:
        # any JSON value: marshmallow answers one that is not an object with a field error
        return _SCHEMA.load(payload), None  # type: ignore[arg-type]
    except ValidationError as error:
        return None, error.normalized_messages()
