"""No one in where they don't belong, every bad input a clear 4xx, nothing
internal in any answer: tokens, rate limits, body limits, CORS, headers."""

import functools
import hashlib
import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from service.security import embeddable_policy
from settings import Settings, SettingsError
from store.base import keys
from tests.support.games import legal_games, moderator_token
from tests.support.in_process import stack_of
from tests.support.stores import NO_REDIS_URL
from tests.support.waiting import until

ORIGIN = "https://game.example"


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request, env={
        "SCOUNDREL_RATE_LIMIT_TOKEN": "5/second", "SCOUNDREL_RATE_LIMIT_ADDRESS": "60/second",
        "SCOUNDREL_CORS_ORIGINS": ORIGIN, "SCOUNDREL_MAX_BODY_BYTES": "65536",
    })


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_tokens_are_256_random_bits_stored_only_hashed(stack):
    name, token = stack.register()
    assert len(token.removeprefix("sr_")) >= 43  # 32 bytes, base64url
    store = redis.Redis.from_url(stack.redis.url, decode_responses=True)
    stored = store.hgetall(keys.player(name))
    assert token not in str(stored) and stored["token_hash"] != token
    assert not any(token in key for key in store.scan_iter(match="*"))


def test_a_moderator_revokes_a_players_token_and_hands_out_a_new_one(stack):
    name, token = stack.register()
    revoke = f"/v1/players/{name}/revoke-token"
    assert stack.post(revoke).status_code == 401
    assert stack.post(revoke, headers=_bearer(token)).status_code == 403
    moderator = _bearer(moderator_token(stack, "revoker"))
    answer = stack.post(revoke, headers=moderator)
    assert answer.status_code == 200
    new_token = answer.json()["token"]
    assert stack.submit(token, legal_games(1)[0]).status_code == 401
    assert stack.submit(new_token, legal_games(1)[0]).status_code == 202
    assert stack.post("/v1/players/nobody-here/revoke-token", headers=moderator).status_code == 404


def test_a_token_revoked_after_it_submitted_is_refused_at_once(stack):
    """The API remembers whose a token was (sparing a submission the lookup); revoked, it is refused
    all the same, well-formed body or not, and nothing of its submission is stored."""
    name, token = stack.register()
    first, second = legal_games(3)[1:]
    assert stack.submit(token, first).status_code == 202  # remembered now
    moderator = _bearer(moderator_token(stack, "revoker-2"))
    assert stack.post(f"/v1/players/{name}/revoke-token", headers=moderator).status_code == 200
    refused = stack.submit(token, second)
    assert refused.status_code == 401 and "WWW-Authenticate" in refused.headers
    assert stack.submit(token, {"seed": "x", "moves": ["nope"]}).status_code == 401
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 1


def test_too_many_requests_with_one_token_is_429_with_retry_after(stack):
    _, token = stack.register()
    # 4 clients at once: more than 5 in one second even on a loaded machine (one alone may not be)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: stack.get("/v1/daily", headers=_bearer(token)), range(24)))
    limited = [answer for answer in answers if answer.status_code == 429]
    assert limited, [answer.status_code for answer in answers]
    assert int(limited[0].headers["Retry-After"]) >= 1
    assert limited[0].json()["code"] == 429
    # Retry-After only where it means "wait"
    assert not any("Retry-After" in answer.headers for answer in answers if answer.status_code == 200)


def test_retry_after_is_never_0_even_in_the_last_moments_of_a_window(stack):
    """A window in its last moments: the token's count set to its limit with a fifth of a second left to live,
    which Redis answers as 0 s left (``TTL`` rounds) and Flask-Limiter would send as ``Retry-After: 0``; then
    the token's next request. Tried again if the machine is too slow to send it within that fifth."""
    _, token = stack.register()
    store = redis.Redis.from_url(stack.redis.url, decode_responses=True)

    def refused_late() -> str | None:
        assert stack.get("/v1/version", headers=_bearer(token)).status_code == 200  # a window of its own
        [count] = store.keys(f"*{keys.rate_limit_prefix()}*{hashlib.sha256(token.encode()).hexdigest()}*")
        store.set(count, 5, px=200)  # the token's 5 a second spent
        answer = stack.get("/v1/version", headers=_bearer(token))
        return answer.headers["Retry-After"] if answer.status_code == 429 else None

    assert int(until(refused_late, "a refusal in a window's last moments", timeout=30)) >= 1


def test_a_body_over_the_limit_is_a_json_413(stack):
    _, token = stack.register()
    body = {"seed": "big", "moves": ["flee"] * 20000}
    answer = stack.post("/v1/runs", json=body, headers=_bearer(token))  # gunicorn's side: test_raw_http.py
    assert answer.status_code == 413
    assert answer.json()["code"] == 413


def test_a_body_that_is_not_json_is_415_and_broken_json_is_400(stack):
    _, token = stack.register()
    form = stack.post("/v1/runs", data="seed=x", headers={**_bearer(token),
                                                         "Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415 and form.json()["code"] == 415
    broken = stack.post("/v1/runs", data="{nope", headers={**_bearer(token), "Content-Type": "application/json"})
    assert broken.status_code == 400 and broken.json()["code"] == 400


def test_cors_lets_the_configured_origin_in_and_no_other(stack):
    preflight = stack.http.options(stack.url("/v1/runs"), headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Authorization, Content-Type"}, timeout=10)
    assert preflight.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()
    other = stack.get("/v1/daily", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_html_pages_carry_security_headers(stack):
    viewer = stack.get("/runs/0000000000000000")  # the viewer's own 404 page is HTML too
    assert viewer.headers["Content-Type"].startswith("text/html")
    assert "frame-ancestors 'none'" in viewer.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in viewer.headers["Content-Security-Policy"]
    assert viewer.headers["X-Frame-Options"] == "DENY"
    page = stack.get("/v1/docs")
    assert page.headers["Content-Type"].startswith("text/html")
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" in page.headers["Content-Security-Policy"]  # Swagger UI's page needs it
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Referrer-Policy"] == "no-referrer"


# Studios' pages that may frame /play (SCOUNDREL_EMBED_ORIGINS); the pages' headers are read through Flask's
# test client, with no Redis: none of these pages reads it.
STUDIOS = ("https://studio.example", "http://127.0.0.1:8080")


@pytest.mark.parametrize(("given", "origins"), [
    ("", ()),
    ("https://studio.example", ("https://studio.example",)),
    (" HTTPS://Studio.Example:443 , http://127.0.0.1:8080,https://studio.example,", STUDIOS),
    ("http://[::1]:80,https://[::1]:8443", ("http://[::1]", "https://[::1]:8443")),
])
def test_embed_origins_are_read_as_a_browser_names_an_origin(monkeypatch, tmp_path, given, origins):
    monkeypatch.setenv("SCOUNDREL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SCOUNDREL_EMBED_ORIGINS", given)
    assert Settings.from_env().embed_origins == origins


@pytest.mark.parametrize("malformed", [
    "https://studio.example/", "https://studio.example/play", "studio.example", "*", "'self'", "'none'",
    "https://*.studio.example", "ftp://studio.example", "https://studio.example; script-src *",
    "https://a.example https://b.example", "https://user@studio.example", "https://studio.example:99999",
    "https://studio.example:", "https://studio.example?x", "https://studio.example#", "https://bücher.example",
])
def test_a_malformed_embed_origin_is_refused_naming_it(monkeypatch, tmp_path, malformed):
    monkeypatch.setenv("SCOUNDREL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SCOUNDREL_EMBED_ORIGINS", f"https://good.example,{malformed}")
    with pytest.raises(SettingsError) as refused:
        Settings.from_env()
    said = str(refused.value)
    assert said.startswith("SCOUNDREL_EMBED_ORIGINS=") and f"{malformed!r} is not an origin" in said, said


def _pages(embed_origins: tuple[str, ...]):
    """A client of its own to the app with these studios' origins, its store unreachable: the headers alone."""
    return _pages_app(embed_origins).test_client()


@functools.cache
def _pages_app(embed_origins: tuple[str, ...]):
    """The app with these studios' origins, made once a test process: only its settings make its answers."""
    from service.app import create_app

    return create_app(Settings(redis_url=NO_REDIS_URL, rate_limit_token="", rate_limit_address="",
                               rate_limit_server_key="", embed_origins=embed_origins))


def test_play_may_be_framed_by_the_studios_named_and_by_no_one_else():
    pages = _pages(STUDIOS)
    play = pages.get("/play")
    assert play.status_code == 200
    assert play.headers["Content-Security-Policy"] == embeddable_policy(STUDIOS)
    assert play.headers["Content-Security-Policy"].endswith("; frame-ancestors https://studio.example "
                                                            "http://127.0.0.1:8080")
    assert "X-Frame-Options" not in play.headers  # it names no origin a browser reads: the policy alone decides
    assert 'data-embed-origins="https://studio.example http://127.0.0.1:8080"' in play.get_data(as_text=True)
    for path in ("/", "/rules", "/v1/docs"):  # every other page stays unframeable
        page = pages.get(path, headers={"Accept": "text/html"})
        assert page.headers["Content-Type"].startswith("text/html"), path
        assert page.headers["Content-Security-Policy"].endswith("frame-ancestors 'none'"), path
        assert page.headers["X-Frame-Options"] == "DENY", path


def test_without_embed_origins_play_is_framed_by_no_one():
    play = _pages(()).get("/play")
    assert play.headers["Content-Security-Policy"].endswith("frame-ancestors 'none'")
    assert play.headers["X-Frame-Options"] == "DENY"
    assert "data-embed-origins" not in play.get_data(as_text=True)


def test_whose_a_token_is_asked_without_one_is_a_401():
    answer = _pages(STUDIOS).get("/v1/players/me")
    assert (answer.status_code, answer.is_json) == (401, True)
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("coding", ["gzip, chunked", "identity, chunked", "deflate,chunked", "br", "chunked, chunked"])
def test_a_transfer_encoding_other_than_chunked_alone_is_a_501_in_the_error_shape(coding):
    pages = _pages(())
    answer = pages.post("/v1/players", data=b'{"name": "gzipped"}',
                        headers={"Transfer-Encoding": coding, "Content-Type": "application/json"})
    assert answer.status_code == 501 and answer.json == {
        "code": 501, "status": "Not Implemented",
        "message": "The request's Transfer-Encoding is not one this service reads (chunked alone)."}
    for chunked in ("chunked", "Chunked", " chunked "):  # what is read: the body arrives whole
        assert pages.get("/play", headers={"Transfer-Encoding": chunked}).status_code == 200


def test_a_request_id_is_echoed_or_made(stack):
    assert stack.get("/v1/daily", headers={"X-Request-ID": "trace-123"}).headers["X-Request-ID"] == "trace-123"
    made = stack.get("/v1/daily", headers={"X-Request-ID": "bad id\u00e9"}).headers["X-Request-ID"]
    assert made and made != "bad id"


def test_an_unexpected_error_is_a_json_500_without_internals(redis_url):
    from service.app import create_app

    app = create_app(Settings(redis_url=redis_url))

    @app.route("/boom")
    def boom():
        raise RuntimeError("secret internals /etc/passwd")

    answer = app.test_client().get("/boom")
    app.extensions["referee"].db.close()
    assert answer.status_code == 500
    assert answer.is_json and answer.json["code"] == 500
    assert "secret" not in answer.get_data(as_text=True) and "Traceback" not in answer.get_data(as_text=True)


# A stack of its own with limits per minute: what is refused does not depend on how fast a loaded
# machine answers. Each test comes from an address of its own (X-Forwarded-For, one proxy trusted),
# so no test spends another's address limit.
ADDRESS_LIMIT, TOKEN_LIMIT = 20, 8


@pytest.fixture(scope="module")
def limited(in_process_pool):
    with in_process_pool.using({
        "SCOUNDREL_RATE_LIMIT_ADDRESS": f"{ADDRESS_LIMIT}/minute",
        "SCOUNDREL_RATE_LIMIT_TOKEN": f"{TOKEN_LIMIT}/minute;1000/hour",
        "SCOUNDREL_TRUSTED_PROXIES": "1", "SCOUNDREL_LOG_FORMAT": "json",
    }) as running:
        yield running


def _from(address: str, token: str | None = None) -> dict:
    return {"X-Forwarded-For": address, **(_bearer(token) if token else {})}


def _one_window(send, limit: int) -> list:
    """The answers ``send()`` gets up to its first refusal, from the start of the window that refusal is
    in: a loaded machine's requests may cross the minute, and a window that ends mid-sequence
    (``X-RateLimit-Reset`` moves on by most of a minute; within a window it wavers by a second, being
    the time now plus the window's whole seconds left) starts the count again. At most three windows'
    worth of requests."""
    answers: list = []
    for _ in range(3 * (limit + 1)):
        answer = send()
        if answers and int(answer.headers["X-RateLimit-Reset"]) - int(answers[-1].headers["X-RateLimit-Reset"]) > 5:
            answers = []
        answers.append(answer)
        if answer.status_code == 429:
            return answers
    raise AssertionError(f"no refusal in {3 * (limit + 1)} requests")


def _limited_player(stack, address: str) -> tuple[str, str]:
    answer = stack.post("/v1/players", json={"name": f"p-{uuid.uuid4().hex[:12]}"}, headers=_from(address))
    assert answer.status_code == 201, answer.text
    return answer.json()["name"], answer.json()["token"]


def test_too_many_requests_from_one_address_is_429(limited):
    """The limits are counted in Redis (every API process sees one count), never in a process's memory."""
    answers = _one_window(lambda: limited.get("/v1/daily", headers=_from("10.0.0.1")), ADDRESS_LIMIT)
    assert [answer.status_code for answer in answers] == [200] * ADDRESS_LIMIT + [429]
    assert limited.get("/v1/health", headers=_from("10.0.0.1")).status_code == 200  # never limited: load balancers
    db = limited.database()
    try:
        assert any("10.0.0.1" in key for key in db.redis.scan_iter(match=f"*{keys.rate_limit_prefix()}*"))
    finally:
        db.close()


def test_the_rate_limit_headers_count_down_the_limit_that_refuses(limited):
    """The address allows 20 a minute, the token 8 (and 1,000 an hour): the headers describe the token's
    8, and the request after the one that said 0 remaining is the 429."""
    _, token = _limited_player(limited, "10.0.0.2")
    answers = _one_window(lambda: limited.get("/v1/daily", headers=_from("10.0.0.2", token)), TOKEN_LIMIT)
    seen = [(answer.status_code, int(answer.headers["X-RateLimit-Limit"]), int(answer.headers["X-RateLimit-Remaining"]))
            for answer in answers]
    answer = answers[-1]
    assert seen == [(200, TOKEN_LIMIT, left) for left in range(TOKEN_LIMIT - 1, -1, -1)] + [(429, TOKEN_LIMIT, 0)]
    assert int(answer.headers["X-RateLimit-Reset"]) - time.time() <= 61  # the minute's window, not the hour's


def test_a_refusal_is_logged_naming_the_player_never_the_token_or_its_hash(limited):
    name, token = _limited_player(limited, "10.0.0.3")
    assert _one_window(lambda: limited.get("/v1/version", headers=_from("10.0.0.3", token)),
                       TOKEN_LIMIT)[-1].status_code == 429
    log = (limited.root / "service.log").read_text()
    assert token not in log and hashlib.sha256(token.encode()).hexdigest() not in log
    refusals = [line for line in map(json.loads, filter(None, log.splitlines()))
                if line["message"] == "rate limit exceeded" and line.get("player") == name]
    assert len(refusals) == 1 and refusals[0]["scope"] == "token" and refusals[0]["client"] == "10.0.0.3"
