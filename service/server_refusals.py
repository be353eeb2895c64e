"""The HTTP server's side of the API: gunicorn's gevent worker, answering what it refuses in the API's JSON shape.

Why gevent (docs/security.md, "Slow clients"): each connection is a
greenlet, so a client that sends part of a request and waits holds a few
kilobytes, not a thread; ``SCOUNDREL_API_CONNECTIONS`` of them per process
(1,000 by default) before new ones wait to be accepted. A thread per
connection (gunicorn's ``gthread``) fell to eight such clients.

gunicorn reads the request line, the headers and a chunked body's framing
itself, and answers what it cannot read with a plain-text page of its own. A
client of this API parses ``{"code", "status", "message"}`` on every error,
so this worker answers each of those refusals in that shape, in words that
never repeat what the client sent (a refused header line may hold a token).

A body whose ``Transfer-Encoding`` is more than ``chunked`` (``gzip, chunked``, which
gunicorn passes on) is left unread: the app answers 501 (``service.security``) and the
connection closes. A chunked body is read whole before the app sees it, up to the app's
``MAX_CONTENT_LENGTH``: past it, or with broken framing (a chunk size that is
not hexadecimal, a chunk without its CRLF, a body cut short), the app's first
read of the body raises the 413 or 400 it answers in its own error shape, and
the connection closes after the answer, saying so (``Connection: close``):
where the next request would start is unknown, or the rest of a body too
large is not worth reading. A 413 to a body of declared length closes it too,
rather than read the whole of what the client declared.
"""

import io
import json
import socket
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from gevent.monkey import MonkeyPatchWarning
from gunicorn.http import errors as parse_errors
from gunicorn.util import write_nonblock
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.http import HTTP_STATUS_CODES

from .errors import TRANSFER_CODING_REFUSED, abort, reads_transfer_encoding

# gunicorn's refusals: the status it gives each (a line it cannot read is a 400, a ``Transfer-Encoding``
# it does not know a 501), and what was wrong, said to the client.
_MALFORMED_LINE = "The request line is not an HTTP request line (METHOD /path HTTP/1.1)."
_MALFORMED_HEADER = ("A header of the request is malformed: a character not allowed in a header's name or value, "
                     "or a header continued on a second line.")
_FRAMING = ("The request's Content-Length or Transfer-Encoding header is malformed, or it gives both: "
            "its body cannot be told from the next request.")
_CHUNKED = "The request's chunked body is malformed (a chunk size that is not hexadecimal, or a missing CRLF)."
REFUSED: dict[type[Exception], tuple[int, str]] = {
    parse_errors.InvalidRequestLine: (400, _MALFORMED_LINE),
    parse_errors.InvalidRequestMethod: (400, "The request's method is not an HTTP method."),
    parse_errors.InvalidHTTPVersion: (400, "The request's HTTP version is not one this service speaks (HTTP/1.0, "
                                           "HTTP/1.1)."),
    parse_errors.InvalidHeaderName: (400, _MALFORMED_HEADER),
    parse_errors.InvalidHeader: (400, _MALFORMED_HEADER),
    parse_errors.ObsoleteFolding: (400, _MALFORMED_HEADER),
    parse_errors.UnsupportedTransferCoding: (501, TRANSFER_CODING_REFUSED),
    parse_errors.ExpectationFailed: (417, "The request's Expect header asks for what this service does not do."),
    parse_errors.InvalidChunkSize: (400, _CHUNKED),
    parse_errors.ChunkMissingTerminator: (400, _CHUNKED),
    parse_errors.InvalidChunkExtension: (400, _CHUNKED),
    parse_errors.InvalidProxyLine: (400, "The request's PROXY protocol line is malformed."),
    parse_errors.ForbiddenProxyRequest: (403, "PROXY protocol lines are not taken from this address."),
    parse_errors.InvalidSchemeHeaders: (400, "The request's headers name contradicting schemes."),
}
LINGER_SECONDS = 2.0  # how long a connection closed with its body unread reads on (``_linger``)
FRAMING_HEADERS = ("CONTENT-LENGTH", "TRANSFER-ENCODING")  # gunicorn's ``InvalidHeader`` names these ones


def refusal(code: int, message: str) -> bytes:
    """A complete HTTP response: the error shape, then the connection closes (as gunicorn's own)."""
    body = json.dumps({"code": code, "status": HTTP_STATUS_CODES[code], "message": message},
                      separators=(",", ":")).encode()
    head = (f"HTTP/1.1 {code} {HTTP_STATUS_CODES[code]}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "X-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("latin-1") + body


class _RefusedBody(io.RawIOBase):
    """A request body that could not be read: reading it raises the answer the app gives."""

    def __init__(self, status: int, message: str | None):
        self.status, self.message = status, message

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.status == 413:
            raise RequestEntityTooLarge()  # its message, the limit, is the app's (``service.api``)
        abort(self.status, message=self.message)


def _read_chunked(body, most: int) -> io.IOBase:
    """The whole of a chunked body, as a stream the app reads; or, past ``most`` bytes or with broken
    framing, one that raises the app's answer."""
    read = bytearray()
    try:
        while len(read) <= most:
            piece = body.read(min(most + 1 - len(read), 64 * 1024))
            if not piece:
                return io.BytesIO(bytes(read))
            read += piece
    except parse_errors.NoMoreData:
        return _RefusedBody(400, "The request's chunked body ended before its last chunk.")
    except (parse_errors.InvalidChunkSize, parse_errors.ChunkMissingTerminator,
            parse_errors.InvalidChunkExtension):
        return _RefusedBody(400, _CHUNKED)
    return _RefusedBody(413, None)


def _linger(connection: socket.socket) -> None:
    """No more writes to ``connection``, then what its client still sends read and dropped until it closes or
    ``LINGER_SECONDS`` pass: closed with a body unread, the connection would be reset, and a reset can take
    the answer with it before the client reads it."""
    deadline = time.monotonic() + LINGER_SECONDS
    try:
        connection.shutdown(socket.SHUT_WR)
        while (left := deadline - time.monotonic()) > 0:
            connection.settimeout(left)
            if not connection.recv(64 * 1024):
                return
    except OSError:
        return


class _ThenLinger:
    """The app's answer, passed on; once it is sent (gunicorn closes the iterable after the last byte),
    the connection lingers (``_linger``) before gunicorn closes it."""

    def __init__(self, answer: Iterable[bytes], connection: socket.socket):
        self.answer, self.connection = answer, connection

    def __iter__(self):
        return iter(self.answer)

    def close(self) -> None:
        try:
            getattr(self.answer, "close", lambda: None)()
        finally:
            _linger(self.connection)


def read_bodies(app, most: int) -> Callable:
    """The WSGI ``app`` with chunked bodies read first (``_read_chunked``), and the connection closed after
    an answer to a body left unread or unreadable: said in its headers, and closed without a reset."""

    def application(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if (coding := environ.get("HTTP_TRANSFER_ENCODING")) is not None:
            # gunicorn passes ``gzip, chunked`` on: its body is left unread, and the app answers 501
            environ["wsgi.input"] = (_read_chunked(environ["wsgi.input"], most) if reads_transfer_encoding(coding)
                                     else _RefusedBody(501, TRANSFER_CODING_REFUSED))
        closing = isinstance(environ["wsgi.input"], _RefusedBody)

        def starting(status: str, headers: list, exc_info=None):
            nonlocal closing
            closing = closing or status.startswith("413")
            if closing:
                start_response.__self__.force_close()  # gunicorn's Response: "Connection: close", then closes
            return start_response(status, headers, exc_info)

        answer = app(environ, starting)
        return _ThenLinger(answer, environ["gunicorn.socket"]) if closing else answer

    return application


class JsonRefusalsWorker(GeventWorker):
    """gunicorn's gevent worker, answering what gunicorn refuses in the API's error shape."""

    def patch(self):
        # gevent warns that ssl was imported before it patched it: gunicorn's arbiter imports it before any
        # worker exists. The modules the API uses reach ssl through the module, which is patched; the one
        # that imported names from it directly, redis.asyncio, the API does not use.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Monkey-patching ssl after ssl", MonkeyPatchWarning)
            super().patch()

    def load_wsgi(self):
        super().load_wsgi()
        flask_app: Any = self.wsgi
        self.wsgi = read_bodies(flask_app, flask_app.config["MAX_CONTENT_LENGTH"])

    def handle_error(self, req, client, addr, exc):
        # gunicorn 27's, not in its type stubs yet: a header of the app's answer that HTTP does not allow
        if isinstance(exc, (parse_errors.InvalidResponseHeader,  # type: ignore[attr-defined]
                            parse_errors.InvalidResponseHeaderName)):  # type: ignore[attr-defined]
            super().handle_error(req, client, addr, exc)  # the app's fault, not the client's: a 500
            return
        if isinstance(exc, parse_errors.LimitRequestLine):
            answer = refusal(414, f"The request line (method, path and query) is longer than the "
                                  f"{self.cfg.limit_request_line} bytes this service reads.")
        elif isinstance(exc, parse_errors.LimitRequestHeaders):
            answer = refusal(431, "The request's headers are more or larger than this service reads.")
        elif isinstance(exc, parse_errors.InvalidHeader) and getattr(exc, "hdr", None) in FRAMING_HEADERS:
            answer = refusal(400, _FRAMING)
        elif known := next((REFUSED[kind] for kind in type(exc).__mro__ if kind in REFUSED), None):
            answer = refusal(*known)
        else:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], type(exc).__name__)
        try:
            write_nonblock(client, answer)
        except OSError:
            self.log.debug("Failed to send error message.")
