"""Live events: what 2,000 open event streams cost the API, and how soon an event reaches its stream.

S players each hold their event stream open (``GET /v1/players/<name>/events``) on the API's default
two gunicorn processes. ``/v1/health`` is timed (one request at a time) before the streams open and
while they are open; then R runs, one every ``--gap`` seconds, each by one of the players, and each
``run.verified`` event timed from its verdict (its id in the player's Redis stream: the ms the verdict
script wrote it, on the machine's one clock) to its arrival here. The streams are read by one thread
(``selectors``), so a slow reader never holds an event up. Goals: an event's delay p99 < 250 ms, and
``/v1/health`` p99 with the streams at most twice that without.

    .venv/bin/python bench/live.py [--streams 2000] [--runs 300] [--requests 1000]
"""

import argparse
import json
import selectors
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from _harness import Client, Service, latencies_ms, percentiles
from scoundrel.strategies import play_game
from settings import Settings

UNLIMITED = {"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""}


class Streams:
    """The open streams, read by one thread: each ``run.verified`` event's arrival (epoch ms) by run id."""

    def __init__(self, base: str, players: list[tuple[str, str]]):
        host, port = base.removeprefix("http://").split(":")
        self.selector = selectors.DefaultSelector()
        self.arrived: dict[str, tuple[float, str]] = {}  # run id → (arrival ms, event id)
        self.opened = 0
        self.lock = threading.Lock()
        for name, token in players:
            sock = socket.create_connection((host, int(port)))
            sock.sendall(f"GET /v1/players/{name}/events HTTP/1.1\r\nHost: {host}\r\n"
                         f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, {"buffer": b"", "open": False})
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            for key, _ in self.selector.select(timeout=1):
                chunk = key.fileobj.recv(65536)
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                at = time.time() * 1000
                state = key.data
                state["buffer"] += chunk
                *messages, state["buffer"] = state["buffer"].split(b"\n\n")
                for message in messages:
                    self._take(state, message.decode(errors="replace"), at)

    def _take(self, state: dict, message: str, at: float) -> None:
        if not state["open"] and ": open" in message:
            state["open"] = True
            with self.lock:
                self.opened += 1
        fields = dict(line.split(": ", 1) for line in message.splitlines() if line.startswith(("id: ", "data: ")))
        if "data" in fields:
            data = json.loads(fields["data"])
            if data["type"] == "run.verified":
                with self.lock:
                    self.arrived[data["run_id"]] = (at, fields["id"])

    def wait_open(self, count: int, timeout: float = 300.0) -> None:
        deadline = time.monotonic() + timeout
        while self.opened < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.opened} streams of {count} open after {timeout:.0f} s")
            time.sleep(0.05)


def room(streams: int) -> dict:
    """Room for every stream in either API process, whichever the kernel hands it to: more connections than
    the service's default, if they need it (so that a run with few streams asks for the service the
    ``games.py`` bench asks for, and the test suite's tiny run shares it)."""
    needed = streams + 100
    return {"SCOUNDREL_API_CONNECTIONS": str(needed)} if needed > Settings.api_connections else {}


def register_all(service: Service, count: int) -> list[tuple[str, str]]:
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda index: service.register(f"live-{index}"), range(count)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between submissions")
    options = parser.parse_args()
    service = Service(workers=1, env={**UNLIMITED, "SCOUNDREL_API_WORKERS": "2", **room(options.streams)})
    try:
        health = Client(service.base)
        bare = latencies_ms(lambda: health.request("GET", "/v1/health"), options.requests)
        players = register_all(service, options.streams)
        streams = Streams(service.base, players)
        streams.wait_open(options.streams)
        loaded = latencies_ms(lambda: health.request("GET", "/v1/health"), options.requests)
        client = Client(service.base)
        run_ids = []
        for index in range(options.runs):
            _, token = players[index % len(players)]
            seed = f"live-bench-{index}"
            status, text = client.request("POST", "/v1/runs", {"seed": seed, "moves": play_game(seed)},
                                          {"Authorization": f"Bearer {token}"})
            assert status == 202, (status, text[:200])
            run_ids.append(json.loads(text)["id"])
            time.sleep(options.gap)
        deadline = time.monotonic() + 120
        while len([run for run in run_ids if run in streams.arrived]) < len(run_ids):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(streams.arrived)} events of {len(run_ids)} heard")
            time.sleep(0.05)
        delays = [at - int(event_id.split("-")[0]) for at, event_id in (streams.arrived[run] for run in run_ids)]
        print(f"{options.streams} streams open on 2 API processes")
        print(f"/v1/health without streams: {percentiles(bare)}")
        print(f"/v1/health with streams:    {percentiles(loaded)}")
        print(f"run.verified, verdict to arrival ({len(delays)} events): {percentiles(delays)}")
    finally:
        service.stop()


if __name__ == "__main__":
    main()
