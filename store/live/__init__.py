"""Live events to game clients: a player's recent events (``events``), the channel an API process hears
them on (``channel``), the tournaments' "in 10 minutes" notices (``soon``), and the single-use tickets
that open a stream from a browser (``tickets``). League zones changed are the leagues' to tell
(``store.leagues.zones``), through ``scripts``."""

from .channel import CATCH_UP, Listener, LiveChannel
from .events import EVENT_ID, KEPT, KEPT_MS, RUN_REJECTED, EventId, LiveEvent, events_after, publish
from .soon import SOON_MS, tell_soon
from .tickets import TICKET_SECONDS, issue_ticket, redeem_ticket

__all__ = [
    "CATCH_UP", "Listener", "LiveChannel",
    "EVENT_ID", "KEPT", "KEPT_MS", "RUN_REJECTED", "EventId", "LiveEvent", "events_after", "publish",
    "SOON_MS", "tell_soon",
    "TICKET_SECONDS", "issue_ticket", "redeem_ticket",
]
