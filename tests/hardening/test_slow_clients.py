"""Connections that send part of a request and then wait (a slow client, or one holding connections
open on purpose) over the real API process: however many of them stay open, an ordinary request is
answered within a second (docs/security.md, "Slow clients")."""

import socket
import time
from contextlib import ExitStack

import pytest
import requests

PARTIAL = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n"  # the headers' blank line never comes
ANSWERED_WITHIN = 1.0  # seconds


@pytest.fixture(scope="module")
def stack(stack_pool):
    """The API as the harness runs it: one gunicorn worker process, the tightest case."""
    running = stack_pool.take()
    yield running
    stack_pool.give_back(running)


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
