"""A player's live event stream: the query that opens it, and the ticket a browser opens it with."""

from marshmallow import fields, validate

from store.live import EVENT_ID, TICKET_SECONDS

from .base import Schema

NOT_AN_EVENT_ID = "Not an event id: send the id of the last event received."


class EventStreamArgs(Schema):
    ticket = fields.String(validate=validate.Length(min=1, error="Empty."), metadata={
        "description": "a ticket from `POST /v1/players/<name>/events/ticket`, for a client that cannot send an "
                       "Authorization header"})
    # an event's id as a stream gave it (``<ms>-<sequence>``), its pattern in the document
    last_event_id = fields.String(validate=validate.Regexp(EVENT_ID, error=NOT_AN_EVENT_ID), metadata={
        "description": "resume after this event: the `Last-Event-ID` header, for a client that cannot send it"})


class EventTicketSchema(Schema):
    ticket = fields.String(metadata={"description": "opens the player's event stream once, as `?ticket=`"})
    expires_in = fields.Integer(metadata={"description": f"seconds it is good for ({TICKET_SECONDS})"})
