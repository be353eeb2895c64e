"""``/v1/players/<name>/events``: a player's live events as Server-Sent Events, and the single-use tickets
that open the stream from a browser (docs/live.md).

A stream opens with the player's token (or a studio's token for them) in the Authorization header, or with
a ticket as ``?ticket=`` (``EventSource`` sends no headers). It resumes after ``Last-Event-ID`` (or
``?last_event_id=``) with the events kept since (``store.live.events_after``), then sends each event as the
process's one subscription hears it (``store.live.LiveChannel``), and a comment every
``HEARTBEAT_SECONDS`` so that proxies and clients know it is alive. Each message is ``id: <event id>`` and
``data: <JSON>``, the JSON's ``type`` saying what happened.
"""

import json
import queue
from collections.abc import Iterator

from flask import Response, current_app, g, request

from domain.boards import boards_of
from domain.errors import NoSuchRun
from schemas.live import NOT_AN_EVENT_ID, EventStreamArgs, EventTicketSchema
from schemas.players import name_key
from store import Database, get_run
from store.live import (
    CATCH_UP,
    TICKET_SECONDS,
    EventId,
    LiveChannel,
    LiveEvent,
    events_after,
    issue_ticket,
    redeem_ticket,
)

from .api import Blueprint, error_response
from .auth import BEARER, CHALLENGE, own, player_required, require_player
from .context import db
from .errors import abort

HEARTBEAT_SECONDS = 15
RETRY_MS = 2000  # how long a client waits before reconnecting (the SSE ``retry`` field)
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}  # no proxy holds the stream back

blp = Blueprint("live", __name__, url_prefix="/v1/players", description="Live events for game clients")

_STREAM_DOC = {200: {"description": "The player's events as Server-Sent Events (docs/live.md)",
                     "content": {"text/event-stream": {"schema": {"type": "string"}}}}}


def live_channel() -> LiveChannel:
    """The process's one subscription to the live channel, made with its first stream."""
    if "live_channel" not in current_app.extensions:
        current_app.extensions["live_channel"] = LiveChannel(db())
    return current_app.extensions["live_channel"]


@blp.route("/<name>/events/ticket", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.response(201, EventTicketSchema)
@error_response(blp, 403, "Another player's token")
@error_response(blp, 401, "No or wrong player token")
def event_ticket(name):
    """A ticket that opens the player's event stream once, within a minute: for a browser's ``EventSource``,
    which cannot send the token, as ``GET /v1/players/<name>/events?ticket=<ticket>``."""
    own(name)
    return {"ticket": issue_ticket(db(), g.player), "expires_in": TICKET_SECONDS}


def _stream_player(name: str, ticket: str | None) -> str:
    """The player whose stream this request may open: the ticket's, else the token's; 401 or 403 otherwise."""
    if ticket is None:
        g.player = require_player()
        own(name)
        return g.player
    player = redeem_ticket(db(), ticket)
    if player is None:
        abort(401, message=f"The ticket is not valid: each opens one stream, within {TICKET_SECONDS} s of being "
                           "issued.", headers=CHALLENGE)
    if name_key(player) != name_key(name):
        abort(403, message="The ticket opens another player's stream.")
    return player


def _resumed_after(args: dict) -> EventId | None:
    """The event the client last received (``Last-Event-ID``, else ``?last_event_id=``), or None."""
    text = request.headers.get("Last-Event-ID") or args.get("last_event_id")
    if not text:
        return None
    try:
        return EventId.parse(text)
    except ValueError:
        abort(422, message="The request is malformed; see errors for each field.",
              errors={"Last-Event-ID": [NOT_AN_EVENT_ID]})


def _shown(database: Database, event: LiveEvent) -> str:
    """An event's SSE message. A lost place is kept with the run that took it, and shown with who ran it
    (``by``) and its board (``{"kind", "path"}``) as that run is now: a run gone shows neither."""
    data = event.data
    fields = json.loads(data)
    if fields.get("type") == "place.lost":
        board = fields.pop("board")
        try:
            run = get_run(database, fields["run_id"])
            held = boards_of(run)[board - 1]
            fields |= {"by": run.player, "board": {"kind": held.board.kind, "path": held.api}}
        except (NoSuchRun, IndexError):
            pass
        data = json.dumps(fields, separators=(",", ":"))
    return f"id: {event.id}\ndata: {data}\n\n"


def _events(channel: LiveChannel, database: Database, player: str, after: EventId | None) -> Iterator[str]:
    """The stream's messages: those kept since ``after``, then each heard, with heartbeats, until the client
    goes (the server then closes this generator, and its listener with it). Runs after the request's
    context is gone: it is given what it needs."""
    listener = channel.listen(player)  # before reading what was kept: nothing falls between the two
    try:
        yield f"retry: {RETRY_MS}\n: open\n\n"
        last = after
        pending = events_after(database, player, after) if after is not None else []
        while True:
            for event in pending:
                if last is None or event.id > last:
                    last = event.id
                    yield _shown(database, event)
            try:
                heard = listener.next(HEARTBEAT_SECONDS)
            except queue.Empty:
                pending = []
                yield ": heartbeat\n\n"
                continue
            if heard is CATCH_UP:
                pending = events_after(database, player, last) if last is not None else []
            else:
                pending = [heard]
    finally:
        channel.close(listener)


@blp.route("/<name>/events")
@blp.doc(security=BEARER, responses=_STREAM_DOC)
@blp.arguments(EventStreamArgs(), location="query")
@error_response(blp, 422, "A Last-Event-ID that is no event id")
@error_response(blp, 403, "Another player's token or ticket")
@error_response(blp, 401, "No or wrong player token, or a ticket unknown, used or expired")
def event_stream(args, name):
    """The player's live events as Server-Sent Events: verdicts, places lost, rewards… (docs/live.md). Resumes
    after ``Last-Event-ID`` with the events kept since (the last 100, for 24 hours)."""
    player = _stream_player(name, args.get("ticket"))
    after = _resumed_after(args)
    return Response(_events(live_channel(), db(), player, after), mimetype="text/event-stream", headers=STREAM_HEADERS)
