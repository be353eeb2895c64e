"""A webhook receiver for the tests: an HTTP server in the test's process that records what it is sent."""

import json
import threading
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """An HTTP server on a free port: per path, the statuses to answer in turn (then 200), and what came."""

    def __init__(self):
        self.plans: dict[str, list[int]] = defaultdict(list)
        self.received: dict[str, list[tuple[dict, bytes]]] = defaultdict(list)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received[self.path].append((dict(self.headers), body))
                plan = receiver.plans[self.path]
                self.send_response(plan.pop(0) if plan else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def wait(self, path: str, count: int, stack, timeout: float = 15.0) -> list[tuple[dict, bytes]]:
        """The first ``count`` deliveries to ``path`` once they have come from ``stack``'s workers."""
        stack.until(lambda: len(self.received[path]) >= count, f"{count} deliveries to {path}", timeout)
        return self.received[path]

    def events(self, path: str) -> list[dict]:
        return [json.loads(body) for _, body in self.received[path]]

    def close(self):
        self.server.shutdown()
        self.server.server_close()
