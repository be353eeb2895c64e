"""An HTTP server of the test's own, on a free port: an origin apart from the service's (a studio's site, its
published keys), answering each GET as the test says."""

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# path → (status, content type, body)
Answer = Callable[[str], tuple[int, str, str]]


class Served:
    """Answers each GET with ``answer(path)``; ``origin`` is where it listens."""

    def __init__(self, answer: Answer):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                status, content_type, text = answer(self.path)
                body = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()
