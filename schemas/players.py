"""Player registration: names and the token shown once."""

import re

from marshmallow import RAISE, ValidationError, fields, validate

from domain.pseudonyms import is_pseudonym

from .base import Schema

NAME_PATTERN = r"^(?=.*[A-Za-z0-9])[A-Za-z0-9_-]{3,32}$"  # one letter or digit at least: no "___" or "-_-"
NAME_MESSAGE = "Name must be 3-32 characters from A-Z a-z 0-9 _ -, at least one of them a letter or digit."
_NAME = re.compile(NAME_PATTERN, re.ASCII)


def name_key(text: str) -> str | None:
    """The form in which names are compared (``Ada`` and ``ADA`` are one name), or None for text that is no
    name at all: what registering a name and finding one both go by.

    The whole text must match (a name and a newline is not a name), and only ASCII folds: Python's
    ``lower()`` would make the Kelvin sign ``K`` a ``k``, finding ``kate`` by a name she could not have
    registered. So a lookup never reaches the store with a name the store would fold into another.
    """
    return text.lower() if _NAME.fullmatch(text) else None


def player_name(text: str) -> str:
    """A marshmallow validator: ``text`` is a name (``name_key``)."""
    if name_key(text) is None:
        raise ValidationError(NAME_MESSAGE)
    return text


def registrable(text: str) -> bool:
    """Whether ``text`` is a name a player may register: a name (``name_key``), not an erased player's pseudonym."""
    return name_key(text) is not None and not is_pseudonym(text)


def new_player_name(text: str) -> str:
    """A marshmallow validator: ``text`` is a name a player may register (``registrable``)."""
    player_name(text)
    if is_pseudonym(text):
        raise ValidationError("Names of the form deleted-<number> are kept for erased players' places.")
    return text


class PlayerCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=new_player_name, metadata={"example": "ada",
                                                                             "pattern": NAME_PATTERN})


class PlayerNameSchema(Schema):
    name = fields.String(metadata={"description": "the player's name as registered"})


class PlayerTokenSchema(Schema):
    name = fields.String()
    token = fields.String(allow_none=True, metadata={"description": "the bearer token; shown once, stored only "
                                                                    "hashed; null for a player a studio's token "
                                                                    "signs in"})


EXTERNAL_ID_PATTERN = r"^[A-Za-z0-9._:@|-]{1,128}$"


class ServerPlayerCreateSchema(Schema):
    """A player a studio's backend registers, linked to its account's id there."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=new_player_name, metadata={"example": "ada",
                                                                             "pattern": NAME_PATTERN})
    external_id = fields.String(required=True, validate=validate.Regexp(EXTERNAL_ID_PATTERN, error=(
        "1-128 characters of A-Z a-z 0-9 . _ : @ | -")), metadata={"pattern": EXTERNAL_ID_PATTERN,
                                                                   "description": "the account's id at the studio"})


class ServerPlayerSchema(Schema):
    name = fields.String()
    external_id = fields.String()
