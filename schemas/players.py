"""Player registration: names and the token shown once."""

from marshmallow import RAISE, Schema, fields, validate

NAME_PATTERN = r"^(?=.*[A-Za-z0-9])[A-Za-z0-9_-]{3,32}$"  # one letter or digit at least: no "___" or "-_-"
NAME_MESSAGE = "Name must be 3-32 characters from A-Z a-z 0-9 _ -, at least one of them a letter or digit."


class PlayerCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Regexp(NAME_PATTERN, error=NAME_MESSAGE),
                         metadata={"example": "ada"})


class PlayerTokenSchema(Schema):
    name = fields.String()
    token = fields.String(metadata={"description": "the bearer token; shown once, stored only hashed"})
