"""What stands between the API and the open internet: rate limits, CORS,
request framing the service does not read, and response headers.

Rate limits are per bearer token (hashed, never stored as given) and per
client address (and, of the requests that queue a par search, per address
again: ``service.par``), counted in Redis so that every API process shares them. If
Redis is away the limiter counts in memory instead of failing the request
(the request then gets its own 503 from the store, not a 500 from here).

A request counts against several limits at once (the token's and the
address's, each per second and per minute); its ``X-RateLimit-*`` headers
describe the one nearest to refusing it, so a client pacing itself by them
is never refused while they say it has requests left. A refusal is logged
naming the player (or, for the address's limit, the client address, as the
request log does), never the token's hash: that hash is the key of the
token's count in Redis, which Flask-Limiter's own line would show.
"""

import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any

import flask_limiter
from flask import Flask, g, request
from flask_cors import CORS
from flask_limiter import ApplicationLimit, RequestLimit
from limits import WindowStats
from limits.storage import RedisStorage
from limits.strategies import FixedWindowRateLimiter
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry
from werkzeug.middleware.proxy_fix import ProxyFix

from settings import Settings
from store import player_for_token
from store.accounts import is_server_key, server_key_for_token
from store.base import rate_limit_prefix

from .auth import bearer_token
from .context import db, referee
from .errors import RETRY_AFTER_SECONDS, TRANSFER_CODING_REFUSED, abort, reads_transfer_encoding
from .par import PAR_SEARCHING, queued_search
from .request_log import POLLED_PATHS, request_id

log = logging.getLogger(__name__)

LIMITER_TIMEOUT = 0.25  # seconds the limiter waits for Redis before counting in memory
UNLIMITED_PATHS = POLLED_PATHS  # load balancers and Prometheus poll these

# The HTML pages load their scripts and styles from this origin only. The
# replay viewer has no inline script or style; Swagger UI's page has both,
# so it alone is allowed them. No page may be framed, but /play by the
# studios' pages the operator names (SCOUNDREL_EMBED_ORIGINS).
_POLICY = ("default-src 'self'; script-src 'self'{inline}; style-src 'self'{inline}; img-src 'self' data:; "
           "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors {ancestors}")
CONTENT_SECURITY_POLICY = _POLICY.format(inline="", ancestors="'none'")
DOCS_CONTENT_SECURITY_POLICY = _POLICY.format(inline=" 'unsafe-inline'", ancestors="'none'")
DOCS_PAGE = "/v1/docs"
EMBEDDABLE_PAGE = "/play"
HTML_HEADERS = {
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    # A page shows live data (a run's status, a board): a cache may keep it but must ask
    # again before reuse. A page whose view knows better sets its own Cache-Control.
    "Cache-Control": "no-cache",
}

CORS_ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-ID"]
CORS_EXPOSED_HEADERS = ["Location", "Retry-After", "X-Request-ID", "X-RateLimit-Limit", "X-RateLimit-Remaining",
                        "X-RateLimit-Reset"]


def client_address() -> str:
    return request.remote_addr or "unknown"


def token_key() -> str:
    return hashlib.sha256((bearer_token() or "").encode()).hexdigest()


def _unlimited() -> bool:
    return request.method == "OPTIONS" or request.path in UNLIMITED_PATHS


class Limiter(flask_limiter.Limiter):
    """Flask-Limiter, whose ``current_limit`` (the one its headers describe) is the nearest to refusing.

    Flask-Limiter describes the limit of the shortest window that came first
    (the address's 50 a second, while the token's 10 a second is what
    refuses). Here it is the limit with the fewest requests left, and of
    those the one that resets last (until then the count the headers give
    stays the binding one); a refused request describes the limit that
    refused it, as Flask-Limiter does.
    """

    @property
    def current_limit(self) -> RequestLimit | None:
        described = super().current_limit
        if described is None or described.breached or len(self.current_limits) < 2:
            return described
        try:
            _read_windows(self.limiter, self.current_limits)
            return min(self.current_limits, key=lambda limit: (limit.remaining, -limit.reset_at))
        except RedisError:  # the limiter's Redis just went away: its own choice, and its own fallback
            return described


def _read_windows(limiter: Any, limits: list[RequestLimit]) -> None:
    """Each fixed-window limit's window (its count and when it resets) read in one round trip, as
    ``limits``' ``FixedWindowRateLimiter.get_window_stats`` reads it with two a limit: the headers'
    choice of limit reads every limit's window, one round trip each otherwise. Leaves the library's
    own reading to any other strategy or storage (its in-memory fallback). ``tests/hardening``
    holds the headers to the library's counts."""
    unread = [limit for limit in limits if limit._window is None]
    storage = getattr(limiter, "storage", None)
    if len(unread) < 2 or not isinstance(limiter, FixedWindowRateLimiter) or not isinstance(storage, RedisStorage):
        return
    connection: Any = storage.get_connection(True)  # a redis-py client; limits types it as a protocol
    with connection.pipeline(transaction=False) as pipe:
        for limit in unread:
            pipe.get(storage.prefixed_key(limit.key))
            pipe.ttl(storage.prefixed_key(limit.key))
        replies = pipe.execute()
    now = time.time()
    for limit, count, ttl in zip(unread, replies[::2], replies[1::2], strict=True):
        limit._window = WindowStats(max(ttl, 0) + now, max(0, limit.limit.amount - int(count or 0)))


def _log_refusal(refused: RequestLimit) -> None:
    """One line for a refused request, naming whose requests were too many (never a token's hash)."""
    scope = refused.request_args[-1]
    try:
        if scope == "token":
            g.player = player_for_token(db(), bearer_token() or "")  # the request log names them too
        elif scope == "server_key":
            g.server_key = server_key_for_token(db(), bearer_token() or "")
    except RedisError:
        g.player = g.server_key = None
    log.warning("rate limit exceeded", extra={
        "request_id": request_id(), "limit": str(refused.limit), "scope": scope, "player": g.get("player"),
        "server_key": g.get("server_key"), "client": request.remote_addr, "method": request.method,
        "path": request.path})


def _without_limit_keys(record: logging.LogRecord) -> bool:
    """Flask-Limiter's own refusal line names the limit's key, a token's hash: ``_log_refusal`` replaces it."""
    return "exceeded" not in str(record.msg)


def _limits(settings: Settings) -> list[str | Callable[[], str] | ApplicationLimit]:
    limits: list[str | Callable[[], str] | ApplicationLimit] = []
    if settings.rate_limit_address:
        limits.append(ApplicationLimit(settings.rate_limit_address, key_function=client_address, scope="address",
                                       on_breach=_log_refusal,
                                       error_message="Too many requests from this address; slow down."))
    if settings.rate_limit_token:
        limits.append(ApplicationLimit(settings.rate_limit_token, key_function=token_key, scope="token",
                                       exempt_when=lambda: is_server_key(bearer_token() or "") or
                                       bearer_token() is None, on_breach=_log_refusal,
                                       error_message="Too many requests with this token; slow down."))
    if settings.rate_limit_par:  # a par search keeps a worker busy for seconds: an address queues few
        limits.append(ApplicationLimit(settings.rate_limit_par, key_function=client_address, scope="par",
                                       exempt_when=lambda: request.endpoint not in PAR_SEARCHING,
                                       deduct_when=queued_search, on_breach=_log_refusal,
                                       error_message="Too many par searches from this address; ask again later."))
    if settings.rate_limit_server_key:  # a studio's backend acts for many players: a limit of its own
        limits.append(ApplicationLimit(settings.rate_limit_server_key, key_function=token_key, scope="server_key",
                                       exempt_when=lambda: not is_server_key(bearer_token() or ""),
                                       on_breach=_log_refusal,
                                       error_message="Too many requests with this server key; slow down."))
    return limits


def _refuse_transfer_codings() -> None:
    """A body sent with a transfer coding other than ``chunked`` alone (``gzip, chunked``) is a 501, whichever
    server runs the app: gunicorn de-chunks it and passes the rest on as if it were the body."""
    coding = request.headers.get("Transfer-Encoding")
    if coding is not None and not reads_transfer_encoding(coding):
        abort(501, message=TRANSFER_CODING_REFUSED)


def _security_headers(response):
    if response.status_code == 503:
        # Flask-Limiter writes the time left in its window over the 503's own wait: an outage's
        # wait is the store's, whatever the limiter's window.
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    elif response.status_code != 429:
        response.headers.pop("Retry-After", None)  # Flask-Limiter sends it on every answer
    elif "Retry-After" in response.headers:
        # Flask-Limiter rounds the time left in the window down: 0 in its last second.
        response.headers["Retry-After"] = str(max(1, int(response.headers["Retry-After"])))
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        embedders = referee().settings.embed_origins if request.path == EMBEDDABLE_PAGE else ()
        # X-Frame-Options can name no origin that browsers still read (ALLOW-FROM is gone): a page some origins
        # may frame has the policy's frame-ancestors alone, which browsers read over X-Frame-Options anyway.
        for name, value in HTML_HEADERS.items():
            if not (embedders and name == "X-Frame-Options"):
                response.headers.setdefault(name, value)
        response.headers.setdefault("Content-Security-Policy", embeddable_policy(embedders) if embedders
                                    else DOCS_CONTENT_SECURITY_POLICY if request.path == DOCS_PAGE
                                    else CONTENT_SECURITY_POLICY)
    return response


def embeddable_policy(origins: tuple[str, ...]) -> str:
    """/play's policy where studios embed it: framed by their pages' origins (``settings._env_origins`` lets
    nothing else through, so no origin can add a source or a directive of its own), and by no other."""
    return _POLICY.format(inline="", ancestors=" ".join(origins))


def _limiter_storage(settings: Settings) -> str:
    """Where the limits are counted: the data's Redis, or the master its sentinels name (the ``limits``
    library's ``redis+sentinel`` storage, which asks them again after a failover)."""
    if not settings.sentinels:
        return settings.redis_url
    return "redis+sentinel://" + ",".join(f"{host}:{port}" for host, port in settings.sentinels) + \
        f"/{settings.sentinel_master}"


def init_app(app: Flask, settings: Settings) -> Limiter:
    if settings.trusted_proxies:
        # Flask's documented way to wrap the WSGI app; mypy sees a method replaced
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=settings.trusted_proxies, x_proto=settings.trusted_proxies)
    # A short leash: while Redis hangs, the limiter gives up first and the
    # request's own Redis call still answers 503 within the 2 s promised.
    # (The options go to redis-py, which takes these floats and a Retry;
    # flask-limiter's annotation says str | int.)
    redis_options: dict[str, Any] = {"socket_timeout": LIMITER_TIMEOUT, "socket_connect_timeout": LIMITER_TIMEOUT,
                                     "retry": Retry(NoBackoff(), 0)}
    limiter = Limiter(
        client_address,
        application_limits=_limits(settings),
        storage_uri=_limiter_storage(settings),
        storage_options=redis_options,
        key_prefix=rate_limit_prefix(),
        strategy="fixed-window",
        headers_enabled=True,
        swallow_errors=True,
        in_memory_fallback_enabled=True,
    )
    limiter.request_filter(_unlimited)
    app.before_request(_refuse_transfer_codings)
    logging.getLogger("flask-limiter").addFilter(_without_limit_keys)
    app.after_request(_security_headers)  # registered first, so it runs after the limiter's own
    limiter.init_app(app)
    origins = [origin.strip() for origin in settings.cors_origins.split(",") if origin.strip()]
    if origins:
        CORS(app, resources={r"/v1/*": {"origins": origins}}, allow_headers=CORS_ALLOWED_HEADERS,
             expose_headers=CORS_EXPOSED_HEADERS, max_age=600)
    return limiter
