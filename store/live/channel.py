"""The live channel as one API process hears it: one Redis subscription, fanned out to the streams open in
the process, so an open stream costs Redis nothing of its own.

The subscriber is a thread (a greenlet under gunicorn's gevent workers, whose threading is gevent's),
started with the first stream. Each stream gets a ``Listener``: a queue of the events for its player. When
the subscription breaks (Redis restarted), every listener is told to catch up (``CATCH_UP``) from the
player's stream once it is back (whether redis-py reconnected at once or this thread subscribed again),
since what was published meanwhile was heard by no one.
"""

import json
import logging
import queue
import threading
import time

from redis.exceptions import RedisError

from store.base import keys
from store.base.database import Database

from .events import EventId, LiveEvent

CATCH_UP = None  # what a listener gets when events may have been missed: read them from the player's stream
RETRY_SECONDS = 1.0  # between attempts to subscribe again
WAIT_SECONDS = 1.0  # the longest the subscriber waits for a message before checking its connection

log = logging.getLogger("store.live")


class Listener:
    """One open stream's share of the channel: the events for ``player``, in order, as heard."""

    def __init__(self, player: str):
        self.player = player
        self.events: queue.Queue[LiveEvent | None] = queue.Queue()

    def next(self, timeout: float) -> LiveEvent | None:
        """The next event heard, ``CATCH_UP``, or ``queue.Empty`` after ``timeout`` seconds without either."""
        return self.events.get(timeout=timeout)


class LiveChannel:
    """The process's one subscription to the live channel, and the listeners it feeds."""

    def __init__(self, db: Database):
        self.db = db
        self._listeners: dict[str, set[Listener]] = {}
        self._lock = threading.Lock()
        self._subscriber: threading.Thread | None = None
        self._subscribed = threading.Event()
        self._stopped = threading.Event()

    def listen(self, player: str) -> Listener:
        """A listener for ``player``'s events from now on (``close`` it), once the channel is subscribed to
        (or not, after ``WAIT_SECONDS``: its listener is told to catch up once it is)."""
        listener = Listener(player)
        with self._lock:
            self._listeners.setdefault(player, set()).add(listener)
            if self._subscriber is None:
                self._subscriber = threading.Thread(target=self._hear, name="live-channel", daemon=True)
                self._subscriber.start()
        self._subscribed.wait(timeout=WAIT_SECONDS)
        return listener

    def close(self, listener: Listener) -> None:
        with self._lock:
            listeners = self._listeners.get(listener.player, set())
            listeners.discard(listener)
            if not listeners:
                self._listeners.pop(listener.player, None)

    def stop(self) -> None:
        """End the subscription (within ``WAIT_SECONDS``): for a process or a test done with the channel."""
        self._stopped.set()

    def open_streams(self) -> int:
        with self._lock:
            return sum(len(listeners) for listeners in self._listeners.values())

    def _hand_out(self, message: str) -> None:
        """One published batch (``lua/_live.lua``'s ``live_publish``) to the listeners of its players."""
        for player, event_id, data in json.loads(message):
            with self._lock:
                listeners = list(self._listeners.get(player, ()))
            for listener in listeners:
                listener.events.put(LiveEvent(EventId.parse(event_id), data))

    def _catch_up_all(self) -> None:
        with self._lock:
            listeners = [listener for group in self._listeners.values() for listener in group]
        for listener in listeners:
            listener.events.put(CATCH_UP)

    def _resubscribed(self, _connection) -> None:
        self._catch_up_all()

    def _hear(self) -> None:
        """Subscribe, hand out every message, and subscribe again whenever the subscription breaks."""
        broken = False
        while not self._stopped.is_set():
            pubsub = self.db.redis.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(keys.live_channel())
                # redis-py subscribes again by itself when it reconnects at once: what was missed is read then too
                pubsub.connection.register_connect_callback(self._resubscribed)
                self._subscribed.set()
                if broken:
                    self._catch_up_all()
                    broken = False
                while not self._stopped.is_set():
                    message = pubsub.get_message(timeout=WAIT_SECONDS)
                    if message is not None:
                        self._hand_out(message["data"])
            except (RedisError, OSError):
                if self._stopped.is_set():
                    return
                if not broken:  # once an outage, not once a retry
                    log.warning("live channel lost; subscribing again", exc_info=True)
                self._subscribed.clear()
                broken = True
                time.sleep(RETRY_SECONDS)
            finally:
                pubsub.close()
