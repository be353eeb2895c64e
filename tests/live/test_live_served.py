"""A player's live events over the real processes: a stream on gunicorn hears a verdict and a lost place as
the worker writes them, and resumes after ``Last-Event-ID`` once the API was SIGKILLed and started again."""

import json

import pytest
import requests

from store.live import publish
from tests.support.games import games_by_score

pytestmark = pytest.mark.served  # gunicorn's gevent workers holding streams, and an API killed mid-stream


class Stream:
    """An event stream read over HTTP as a client reads it: message by message."""

    def __init__(self, stack, name: str, token: str, last_event_id: str | None = None):
        headers = {"Authorization": f"Bearer {token}"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.response = requests.get(stack.url(f"/v1/players/{name}/events"), headers=headers, stream=True,
                                     timeout=60)
        assert self.response.status_code == 200, self.response.text
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.lines = self.response.iter_lines(chunk_size=None, decode_unicode=True)
        self.comment = self._message()  # the opening: the stream listens from here

    def _message(self) -> list[str]:
        lines = []
        for chunk in self.lines:
            for line in chunk.split("\n"):
                if line:
                    lines.append(line)
                elif lines:
                    return lines
            if lines and chunk.endswith("\n\n"):
                return lines
        raise ConnectionError("the stream ended")

    def next_event(self) -> tuple[str, dict]:
        """The next event's id and data (heartbeats passed over)."""
        while True:
            fields = dict(line.split(": ", 1) for line in self._message() if not line.startswith(":"))
            if "id" in fields:
                return fields["id"], json.loads(fields["data"])

    def close(self) -> None:
        self.response.close()


def test_a_stream_hears_a_verdict_and_a_lost_place_and_resumes_after_the_api_was_killed(stack, db):
    low, high = games_by_score("live-served", 2)
    bob, bob_token = stack.register()
    ann, ann_token = stack.register()
    stream = Stream(stack, bob, bob_token)
    bob_run = stack.submit(bob_token, low).json()["id"]
    assert stream.next_event()[1] == {"type": "run.verified", "run_id": bob_run, "status": "verified"}
    ann_run = stack.submit(ann_token, high).json()["id"]
    last_id, lost = stream.next_event()
    assert lost["type"] == "place.lost" and lost["by"] == ann and lost["run_id"] == ann_run
    assert lost["place"] == 2

    stack.kill_api()
    with pytest.raises((requests.RequestException, ConnectionError)):
        while True:
            last_id, _ = stream.next_event()  # any other place ann took from bob, then the end
    stream.close()
    granted = publish(db, bob, {"type": "reward.granted", "reward_id": "while-down"})
    stack.start_api()
    stack.wait_healthy()

    resumed = Stream(stack, bob, bob_token, last_event_id=last_id)
    assert resumed.next_event() == (str(granted.id), {"type": "reward.granted", "reward_id": "while-down"})
    resumed.close()
