"""Webhooks: what a registered endpoint costs the verdicts, and how fast events reach it.

N distinct games are verified twice over (N others the second time), each
time submitted while the workers are suspended and then timed from their
resumption until every run has its verdict: first with no webhook, then
with one webhook taking every event, served by a receiver in this process
(``http.server``, answering 200 at once). The second drain is also timed
until the receiver has every run's ``run.verified``. Goal: verdicts with a
webhook at least 0.8 of the rate without (deliveries wait behind them).

    .venv/bin/python bench/webhooks.py [--runs 5000] [--workers 2]
"""

import argparse
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import redis
from rq.suspension import resume, suspend

from _harness import Client, Service
from scoundrel.strategies import play_game


class Receiver:
    """Counts the POSTs it answers with 200."""

    def __init__(self):
        self.count = 0
        lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with lock:
                    receiver.count += 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/events"


def submit(base: str, token: str, bodies: list[dict]) -> None:
    """Submit in batches of 1,000 over one connection (one verification job per 100 runs)."""
    client = Client(base)
    for first in range(0, len(bodies), 1000):
        status, text = client.request("POST", "/v1/runs/batch", {"runs": bodies[first:first + 1000]},
                                      {"Authorization": f"Bearer {token}"})
        assert status == 200, (status, text[:200])


def verdicts_and_deliveries(connection: redis.Redis, runs: int, receiver: Receiver | None) -> tuple[float, float]:
    """Resume the workers: seconds until no run is pending, and until the receiver has ``runs`` posts."""
    from store.queue.pending import pending_count

    started = time.perf_counter()
    resume(connection)
    while pending_count(connection):
        time.sleep(0.01)
    verdicts = time.perf_counter() - started
    while receiver is not None and receiver.count < runs:
        time.sleep(0.01)
    return verdicts, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    bodies = [{"seed": f"hook-{n}", "moves": play_game(f"hook-{n}", rng=random.Random(n), strategy="greedy")}
              for n in range(2 * args.runs)]
    stack = Service(workers=args.workers, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        from store import create_moderator

        connection = redis.Redis.from_url(stack.redis_url)
        _, token = stack.register("bench")
        suspend(connection)
        submit(stack.base, token, bodies[:args.runs])
        bare, _ = verdicts_and_deliveries(connection, args.runs, None)

        receiver = Receiver()
        db = stack.database()
        moderator = create_moderator(db, "bench-mod")
        db.close()
        status, text = Client(stack.base).request(
            "POST", "/v1/webhooks", {"url": receiver.url, "events": ["run.verified", "record.beaten"]},
            {"Authorization": f"Bearer {moderator}"})
        assert status == 201, text
        suspend(connection)
        submit(stack.base, token, bodies[args.runs:])
        hooked, delivered = verdicts_and_deliveries(connection, args.runs, receiver)

        print(f"{args.workers} workers, {args.runs:,} runs a drain")
        print(f"verdicts without a webhook: {args.runs / bare:,.0f} runs/s")
        print(f"verdicts with one webhook:  {args.runs / hooked:,.0f} runs/s, {bare / hooked:.2f} of the rate "
              f"without (goal >= 0.8)")
        print(f"deliveries: every run.verified received {delivered:.1f} s after the workers resumed "
              f"({args.runs / delivered:,.0f} deliveries/s)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
