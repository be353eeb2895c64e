"""Schedules as the API takes and shows them (``domain.schedules``)."""

from marshmallow import RAISE, ValidationError, fields, validate, validates

from domain.schedules import MAX_DURATION_S, cron_problem, timezone_problem

from .base import Schema
from .runs import Time
from .tournaments import MAX_TITLE, TournamentCreateSchema

MAX_CRON = 200
MAX_TIMEZONE = 64  # the longest IANA name is about 30 characters
TEMPLATE_LEFT_OUT = ("starts_at", "ends_at")  # an occurrence's times come from the schedule


class TournamentTemplateSchema(TournamentCreateSchema):
    """A tournament's fields but its times (``TEMPLATE_LEFT_OUT``); its title, left out, is the schedule's."""


def template_schema() -> TournamentTemplateSchema:
    return TournamentTemplateSchema(exclude=TEMPLATE_LEFT_OUT, partial=("title",))


class ScheduleCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    title = fields.String(required=True, validate=validate.Length(1, MAX_TITLE))
    cron = fields.String(required=True, validate=validate.Length(1, MAX_CRON), metadata={
        "description": 'a 5-field cron expression (minute hour day month weekday), say "0 12 * * *" for noon '
                       "each day: each time it names starts a tournament"})
    timezone = fields.String(load_default="UTC", validate=validate.Length(1, MAX_TIMEZONE), metadata={
        "description": "the IANA timezone the expression is read in (DST included); UTC if left out"})
    duration_s = fields.Integer(required=True, validate=validate.Range(60, MAX_DURATION_S), metadata={
        "description": "how long each tournament runs, in seconds"})
    tournament = fields.Nested(template_schema, required=True, metadata={
        "description": "the fields of POST /v1/tournaments but starts_at and ends_at (rewards included); its "
                       "title, left out, is the schedule's"})

    @validates("cron")
    def _cron(self, value, **kwargs):
        if problem := cron_problem(value):
            raise ValidationError(problem)

    @validates("timezone")
    def _timezone(self, value, **kwargs):
        if problem := timezone_problem(value):
            raise ValidationError(problem)


class ScheduleSchema(Schema):
    id = fields.String()
    title = fields.String()
    cron = fields.String()
    timezone = fields.String()
    duration_s = fields.Integer()
    tournament = fields.Dict(attribute="template", metadata={"description": "the template each tournament is "
                                                                           "made from"})
    paused = fields.Boolean()
    created_by = fields.String()
    created_at = Time(attribute="created_ms")
    next_starts_at = fields.List(Time(), metadata={
        "description": "the next starts the expression names (up to 5), made or not"})


class SchedulePageSchema(Schema):
    total = fields.Integer()
    schedules = fields.List(fields.Nested(ScheduleSchema))
