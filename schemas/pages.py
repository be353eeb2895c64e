"""Query arguments of the HTML pages (``service.site``): checked like the API's, a 422 page naming the field."""

from marshmallow import EXCLUDE, fields, validate

from .base import Schema
from .paging import MAX_OFFSET, DealArgs
from .players import NAME_PATTERN, player_name

PAGE_SIZE = 50  # places on one page of a board page
MAX_PAGE_NUMBER = MAX_OFFSET // PAGE_SIZE


class PlayerArgs(Schema):
    """``?player=<name>``: whose line a page shows ("you scored…"); a public name, never a token."""

    class Meta:
        unknown = EXCLUDE

    player = fields.String(load_default=None, validate=player_name,
                           metadata={"description": "the player whose place the page shows", "pattern": NAME_PATTERN})


class BoardPageArgs(PlayerArgs):
    page = fields.Integer(load_default=1, validate=validate.Range(1, MAX_PAGE_NUMBER),
                          metadata={"description": f"page of {PAGE_SIZE} places, 1-{MAX_PAGE_NUMBER:,}"})


class SeedBoardPageArgs(BoardPageArgs, DealArgs):
    """A page of a seed board: the variant the seed was played as, too."""


class SeasonsPageArgs(Schema):
    """``/seasons?page=``: which page of the past seasons."""

    class Meta:
        unknown = EXCLUDE

    page = fields.Integer(load_default=1, validate=validate.Range(1, MAX_PAGE_NUMBER),
                          metadata={"description": f"page of past seasons, 1-{MAX_PAGE_NUMBER:,}"})


class LeaguePageArgs(PlayerArgs):
    """``/leagues?player=<name>&week=<week>``: that player's cohort of that week (this week by default)."""

    week = fields.String(load_default=None, validate=validate.Regexp(r"^\d{4}-W\d{2}$", error="Not an ISO week: "
                                                                                               "YYYY-Www."),
                         metadata={"description": "an ISO week, YYYY-Www"})


class TournamentsPageArgs(Schema):
    """``/tournaments?ended=``: which page of the ended tournaments."""

    class Meta:
        unknown = EXCLUDE

    ended = fields.Integer(load_default=1, validate=validate.Range(1, MAX_PAGE_NUMBER),
                           metadata={"description": f"page of ended tournaments, 1-{MAX_PAGE_NUMBER:,}"})
