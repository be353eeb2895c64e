"""What gunicorn, the real API process, does with clients: requests no HTTP client library would send,
over raw sockets (malformed chunked bodies, bodies too large, headers gunicorn cannot read, a request line
too long), and connections that send part of a request and then wait. Each refusal is answered in the
documented error shape (docs/api.md), never a 500, and the connection is closed after it when it must be,
with ``Connection: close`` saying so and the answer readable before the close; however many slow clients
hold connections open, an ordinary request is answered within a second (docs/security.md, "Slow
clients"). The HTTP contracts the app answers itself are checked in process (``test_security.py``,
``test_fuzz_api.py``)."""

import json
import socket
import time
from contextlib import ExitStack

import pytest
import requests

LIMIT = 65536  # the stack's SCOUNDREL_MAX_BODY_BYTES
HEAD = b"POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
CHUNKED = HEAD + b"Transfer-Encoding: chunked\r\n\r\n"


@pytest.fixture(scope="module")
def stack(stack_pool):
    """The API as the harness runs it: one gunicorn worker process, the tightest case for slow clients."""
    running = stack_pool.take(env={"SCOUNDREL_MAX_BODY_BYTES": str(LIMIT)})
    yield running
    stack_pool.give_back(running)


HEALTH = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"


class Answer:
    """One HTTP response read off a socket: status, headers (lower-cased names), JSON body; then whether
    the server closed the connection (``closed``), or answers another request on it (``kept``)."""

    def __init__(self, connection: socket.socket, reader=None):
        self.connection, self.reader = connection, reader or connection.makefile("rb")
        self.status = int(self.reader.readline().split()[1])
        self.headers: dict[str, str] = {}
        while (line := self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.body = json.loads(self.reader.read(int(self.headers["content-length"])))

    @property
    def closed(self) -> bool:
        return self.reader.read(1) == b""  # the end of the stream, with nothing after the answer

    @property
    def kept(self) -> bool:
        self.connection.sendall(HEALTH)
        return Answer(self.connection, self.reader).status == 200


def exchange(stack, request: bytes, then=lambda answer: answer.closed) -> tuple[Answer, bool]:
    """The answer to ``request`` on a new connection, and ``then`` of it (by default: the server closed it)."""
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as connection:
        connection.sendall(request)
        answer = Answer(connection)
        return answer, then(answer)


def chunk(data: bytes) -> bytes:
    return b"%x\r\n" % len(data) + data + b"\r\n"


MALFORMED_CHUNKS = {
    "a chunk size that is not hexadecimal": CHUNKED + b"zz\r\nabc\r\n0\r\n\r\n",
    "a negative chunk size": CHUNKED + b"-1\r\nabc\r\n0\r\n\r\n",
    "a chunk without its CRLF": CHUNKED + b"3\r\nabcXX0\r\n\r\n",
}


@pytest.mark.parametrize("shape", MALFORMED_CHUNKS)
def test_a_malformed_chunked_body_is_a_400_in_the_error_shape_and_the_connection_closes(stack, shape):
    answer, closed = exchange(stack, MALFORMED_CHUNKS[shape])
    assert answer.status == 400
    assert answer.headers["content-type"] == "application/json"
    assert answer.body["code"] == 400 and "chunked body is malformed" in answer.body["message"]
    assert answer.headers["connection"] == "close" and closed
    assert "Traceback" not in (stack.root / "api.log").read_text()


def test_a_well_formed_chunked_body_is_read(stack):
    body = b'{"name": "chunked-kate"}'
    answer, kept = exchange(stack, CHUNKED + chunk(body[:10]) + chunk(body[10:]) + b"0\r\n\r\n",
                            then=lambda answer: answer.kept)
    assert answer.status == 201, answer.body
    assert answer.headers["connection"] == "keep-alive" and kept


def test_a_chunked_body_over_the_limit_is_a_413_naming_it_and_the_connection_closes_cleanly(stack):
    big = CHUNKED + chunk(b"a" * LIMIT) * 3 + b"0\r\n\r\n"  # sent whole: the answer comes before it is all read
    answer, closed = exchange(stack, big)
    assert answer.status == 413
    assert answer.body == {"code": 413, "status": "Request Entity Too Large",
                           "message": "The body is larger than the 65,536 bytes this service accepts."}
    assert answer.headers["connection"] == "close" and closed


def test_a_body_of_declared_length_over_the_limit_is_the_same_413_and_the_connection_closes(stack):
    answer, closed = exchange(stack, HEAD + b"Content-Length: %d\r\n\r\n" % (LIMIT + 1))  # the body never sent
    assert answer.status == 413
    assert answer.body["message"] == "The body is larger than the 65,536 bytes this service accepts."
    assert answer.headers["connection"] == "close" and closed


def test_a_chunked_body_of_exactly_the_limit_is_read(stack):
    body = b'{"name": "' + b"a" * (LIMIT - 12) + b'"}'
    assert len(body) == LIMIT
    answer, kept = exchange(stack, CHUNKED + chunk(body) + b"0\r\n\r\n", then=lambda answer: answer.kept)
    assert answer.status == 422 and list(answer.body["errors"]) == ["name"]  # read whole, then refused as a name
    assert kept


@pytest.mark.parametrize("coding", [b"gzip, chunked", b"identity, chunked", b"deflate, chunked", b"br, chunked"])
def test_a_transfer_coding_gunicorn_passes_on_is_a_501_and_its_body_is_not_read(stack, coding):
    body = b'{"name": "gzip-gus"}'  # not gzipped: read as if it were the body, it would make a player
    answer, closed = exchange(stack, HEAD + b"Transfer-Encoding: " + coding + b"\r\n\r\n" + chunk(body) + b"0\r\n\r\n")
    assert answer.status == 501 and answer.headers["content-type"] == "application/json"
    assert answer.body == {"code": 501, "status": "Not Implemented",
                           "message": "The request's Transfer-Encoding is not one this service reads (chunked alone)."}
    assert answer.headers["connection"] == "close" and closed
    assert stack.get("/v1/players/gzip-gus/runs").status_code == 404


GUNICORNS_OWN = {  # what gunicorn refuses before the app sees the request
    "a control character in a header": (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n",
                                        "A header of the request is malformed"),
    "a Content-Length that is not a number": (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
                                              "Content-Length or Transfer-Encoding"),
    "both Content-Length and Transfer-Encoding": (HEAD + b"Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                  b"0\r\n\r\n", "Content-Length or Transfer-Encoding"),
    "a Transfer-Encoding that does not end with chunked": (HEAD + b"Transfer-Encoding: chunked, gzip\r\n\r\n"
                                                           b"0\r\n\r\n", "Content-Length or Transfer-Encoding"),
    "HTTP/9.9": (b"GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n", "HTTP version"),
    "a request line that is not one": (b"GET\r\nHost: x\r\n\r\n", "request line"),
}


@pytest.mark.parametrize("shape", GUNICORNS_OWN)
def test_what_gunicorn_refuses_is_answered_in_the_error_shape(stack, shape):
    request, words = GUNICORNS_OWN[shape]
    answer, closed = exchange(stack, request)
    assert answer.status == 400
    assert answer.headers["content-type"] == "application/json"
    assert set(answer.body) == {"code", "status", "message"} and answer.body["code"] == 400
    assert answer.body["status"] == "Bad Request" and words in answer.body["message"]
    assert closed


def test_a_refused_header_is_not_repeated_in_the_answer_or_the_log(stack):
    secret = b"sr_not-to-be-repeated"
    request = b"GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + secret + b"\x01\r\n\r\n"
    answer, _ = exchange(stack, request)
    assert answer.status == 400 and secret.decode() not in json.dumps(answer.body)
    assert secret.decode() not in (stack.root / "api.log").read_text()


def test_a_path_too_long_for_the_server_is_a_json_414_and_huge_headers_a_json_431(stack):
    long_path = stack.get("/v1/runs/" + "a" * 10_000)
    assert long_path.status_code == 414
    assert long_path.headers["Content-Type"] == "application/json"
    assert long_path.json()["code"] == 414
    assert "longer than the 4094 bytes" in long_path.json()["message"]
    huge_header = stack.get("/v1/daily", headers={"X-Padding": "a" * 10_000})
    assert huge_header.status_code == 431 and huge_header.json()["code"] == 431
    assert stack.get("/v1/runs/" + "a" * 3_000).json()["code"] == 404  # within the limit: the app's


# Slow clients: connections that send part of a request and then wait (or hold connections open on purpose)

PARTIAL = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n"  # the headers' blank line never comes
ANSWERED_WITHIN = 1.0  # seconds


def _held_open(stack, count: int, opened: ExitStack) -> list[socket.socket]:
    held = []
    for _ in range(count):
        connection = opened.enter_context(socket.create_connection(("127.0.0.1", stack.port), timeout=5))
        connection.sendall(PARTIAL)
        held.append(connection)
    return held


def _still_waiting(held: list[socket.socket]) -> bool:
    """None of the held connections was answered or closed by the server."""
    for connection in held:
        connection.setblocking(False)
        try:
            if connection.recv(1, socket.MSG_PEEK) == b"":
                return False
        except BlockingIOError:
            continue
        finally:
            connection.setblocking(True)
        return False  # an answer came: the request was not partial after all
    return True


@pytest.mark.parametrize("count", [10, 200])
def test_connections_holding_a_partial_request_do_not_stall_the_api(stack, count):
    with ExitStack() as opened:
        held = _held_open(stack, count, opened)
        with requests.Session() as fresh:  # a connection of its own, as a new client's
            started = time.monotonic()
            answer = fresh.get(stack.url("/v1/health"), timeout=10)
            took = time.monotonic() - started
            assert answer.status_code == 200
            assert took < ANSWERED_WITHIN, f"{took:.2f} s with {count} partial requests open"
            submitted = fresh.post(stack.url("/v1/players"), json={"name": f"slow-{count}"}, timeout=10)
            assert submitted.status_code == 201
            assert time.monotonic() - started < 2 * ANSWERED_WITHIN
        assert _still_waiting(held)  # they were open all along: the server neither answered nor dropped them
