"""Request ids and one structured log line per request.

Each request carries an id: the client's ``X-Request-ID`` when it is a
sensible one, else a new one. It is echoed in the response, stored with a
submitted run and its job, and logged by the worker that verifies the run,
so one id follows a run from the API into its job.
"""

import logging
import re
import time
import uuid

from flask import Flask, g, request

REQUEST_ID_HEADER = "X-Request-ID"
_SENSIBLE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

log = logging.getLogger("service.requests")

# Load balancers and Prometheus poll these: a line a poll would bury the requests people make. An
# answer of 200 is logged at DEBUG, any other at INFO as every request is.
POLLED_PATHS = ("/v1/health", "/metrics")


def request_id() -> str:
    return g.get("request_id", "")


def elapsed() -> float:
    """Seconds since this request arrived."""
    return time.perf_counter() - g.get("started", time.perf_counter())


def _begin():
    given = request.headers.get(REQUEST_ID_HEADER, "")
    g.request_id = given if _SENSIBLE_ID.match(given) else uuid.uuid4().hex
    g.started = time.perf_counter()


def _finish(response):
    response.headers[REQUEST_ID_HEADER] = request_id()
    polled = request.path in POLLED_PATHS and response.status_code == 200
    log.log(logging.DEBUG if polled else logging.INFO, "request", extra={
        "request_id": request_id(), "method": request.method, "path": request.path,
        "status": response.status_code, "player": g.get("player"), "client": request.remote_addr,
        "duration_ms": round(elapsed() * 1000, 1), **({"server_key": g.server_key} if g.get("server_key") else {}),
    })
    return response


def init_app(app: Flask) -> None:
    # First in, last out: the id exists before any other before_request runs.
    app.before_request_funcs.setdefault(None, []).insert(0, _begin)
    app.after_request(_finish)
