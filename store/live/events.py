"""Live events: what a player's game client hears as it happens (``GET /v1/players/<name>/events``).

An event is a JSON object with its ``type`` (``run.verified``, ``place.lost``…) and the ids it
concerns. It is kept in its player's Redis stream, written in the step that makes it true where a
script makes it so (a verdict's: ``lua/record_verdicts.lua``), else by ``publish``, the one way
anything else sends one; its id in that stream is the id a client resumes after. A stream keeps
about the last ``KEPT`` events, none older than ``KEPT_MS`` (``lua/_live.lua``'s LIVE_KEPT and
LIVE_KEPT_MS, held equal by a test). Each write is published on one channel too, heard once per API
process (``store.live.channel``).
"""

import json
import re
from dataclasses import dataclass

from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database

from . import scripts

KEPT = 100  # events a player's stream keeps, about (Redis trims whole nodes: ``MAXLEN ~``)
KEPT_MS = 24 * 3600 * 1000  # how long an event is kept
RUN_REJECTED = "run.rejected"  # a run's verdict other than verified, told its player (``lua/record_verdicts.lua``)
EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")  # a stream id: ``<ms>-<sequence>``


@dataclass(frozen=True, order=True)
class EventId:
    """An event's id in its player's stream; ids order as the events were written."""

    ms: int
    sequence: int

    @classmethod
    def parse(cls, text: str) -> "EventId":
        """The id ``text`` spells (``EVENT_ID``); ValueError for any other text."""
        if not EVENT_ID.match(text):
            raise ValueError(f"not an event id: {text!r}")
        ms, sequence = text.split("-")
        return cls(int(ms), int(sequence))

    def __str__(self) -> str:
        return f"{self.ms}-{self.sequence}"


@dataclass(frozen=True)
class LiveEvent:
    """One event as kept: its id in its player's stream, and its JSON (``data``)."""

    id: EventId
    data: str


def event_json(event: dict) -> str:
    """An event as kept: compact JSON, with its ``type`` (ValueError without one)."""
    if not isinstance(event.get("type"), str) or not event["type"]:
        raise ValueError("a live event names its type")
    return json.dumps(event, separators=(",", ":"))


def publish(db: Database, player: str, event: dict) -> LiveEvent:
    """Send ``event`` (with its ``type``) to ``player`` (their name as registered): kept in their stream and
    heard at once by their open streams. The one way to publish a live event outside the scripts that
    keep theirs as they write what the event says."""
    data = event_json(event)
    return LiveEvent(EventId.parse(scripts.publish_live(db.redis, player=player, data=data)), data)


def events_after(db: Database, player: str, after: EventId) -> list[LiveEvent]:
    """The player's events kept since ``after`` (not it), oldest first: none older than ``KEPT_MS``."""
    oldest = EventId(now_ms() - KEPT_MS, 0)
    start = f"({after}" if after >= oldest else str(oldest)
    return [LiveEvent(EventId.parse(entry_id), fields["data"])
            for entry_id, fields in db.redis.xrange(keys.live_events(player), start, "+")]
