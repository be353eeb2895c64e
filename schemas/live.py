"""A player's live event stream: the query that opens it, and the ticket a browser opens it with."""

from marshmallow import Schema, ValidationError, fields, validates

from store.live import TICKET_SECONDS, EventId

NOT_AN_EVENT_ID = "Not an event id: send the id of the last event received."


def event_id(text: str) -> None:
    """An event's id, as a stream gave it (``<ms>-<sequence>``)."""
    try:
        EventId.parse(text)
    except ValueError:
        raise ValidationError(NOT_AN_EVENT_ID) from None


class EventStreamArgs(Schema):
    ticket = fields.String(metadata={"description": "a ticket from `POST /v1/players/<name>/events/ticket`, for "
                                                    "a client that cannot send an Authorization header"})
    last_event_id = fields.String(validate=event_id, metadata={
        "description": "resume after this event: the `Last-Event-ID` header, for a client that cannot send it"})

    @validates("ticket")
    def _ticket(self, value: str, **_) -> None:
        if not value:
            raise ValidationError("Empty.")


class EventTicketSchema(Schema):
    ticket = fields.String(metadata={"description": "opens the player's event stream once, as `?ticket=`"})
    expires_in = fields.Integer(metadata={"description": f"seconds it is good for ({TICKET_SECONDS})"})
