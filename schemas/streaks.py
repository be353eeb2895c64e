"""A player's streak of sealed dailies and their share card of a day (``/v1/players/<name>/streak``,
``/v1/daily/<date>/sealed/share/<name>``)."""

from marshmallow import fields

from .base import Schema


class StreakSchema(Schema):
    player = fields.String(metadata={"description": "the name as registered"})
    current = fields.Integer(metadata={"description": "UTC days in a row with a finished sealed daily, up to "
                                                      "today or yesterday (else 0)"})
    best = fields.Integer(metadata={"description": "the longest such run ever"})
    last_date = fields.String(allow_none=True, metadata={"format": "date", "description": "the last day counted; "
                                                                                           "null if none ever was"})


class ShareCardSchema(Schema):
    date = fields.String(metadata={"format": "date"})
    player = fields.String()
    score = fields.Integer(metadata={"description": "the player's score on the day's sealed board"})
    better_than = fields.Integer(metadata={"description": "the share of the day's sealed board below that score, "
                                                          "a whole percentage rounded down"})
    total = fields.Integer(metadata={"description": "the places on the day's sealed board"})
    streak = fields.Integer(allow_none=True, metadata={"description": "the player's streak as it stood that day; "
                                                                      "null for a day before their latest run"})
    text = fields.String(metadata={"description": "the share text: the day, score, standing, streak and link; "
                                                  "never a card"})
    url = fields.String(metadata={"description": "the share page (Open Graph and Twitter card tags)"})
    image = fields.String(metadata={"description": "the card's 1200 x 630 PNG"})
