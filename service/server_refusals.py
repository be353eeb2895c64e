"""What gunicorn refuses before the app sees a request, answered in the API's JSON error shape.

gunicorn reads the request line and headers itself and answers one that is
too long with an HTML page of its own (414, 431): a client of this API
parses ``{"code", "status", "message"}`` on every error, so those two
refusals, the ones a client's long path or many headers meet, are answered
in that shape by this worker class (gunicorn's ``gthread``, which
``scoundrel api`` runs). A request that is not HTTP at all still gets
gunicorn's own 400.
"""

import json

from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker
from werkzeug.http import HTTP_STATUS_CODES


def refusal(code: int, message: str) -> bytes:
    """A complete HTTP response: the error shape, then the connection closes (as gunicorn's own)."""
    body = json.dumps({"code": code, "status": HTTP_STATUS_CODES[code], "message": message},
                      separators=(",", ":")).encode()
    head = (f"HTTP/1.1 {code} {HTTP_STATUS_CODES[code]}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "X-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("latin-1") + body


class JsonRefusalsWorker(ThreadWorker):
    """gunicorn's threaded worker, refusing a too-long request line or header block in JSON."""

    def handle_error(self, req, client, addr, exc):
        if isinstance(exc, LimitRequestLine):
            answer = refusal(414, f"The request line (method, path and query) is longer than the "
                                  f"{self.cfg.limit_request_line} bytes this service reads.")
        elif isinstance(exc, LimitRequestHeaders):
            answer = refusal(431, "The request's headers are more or larger than this service reads.")
        else:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            write_nonblock(client, answer)
        except OSError:
            self.log.debug("Failed to send error message.")
