"""Schemathesis against the served OpenAPI document: whatever it sends, no
5xx and no answer outside the documented statuses, content types and
schemas, and no request the document allows refused as malformed (400,
422): the document says exactly what the API takes. Bounded: five
examples per operation, more with ``SCOUNDREL_FUZZ_EXAMPLES``.

flask-smorest gives every operation a ``default`` response, which lets
schemathesis' own status check pass any status at all; so every status
seen here must also be listed by its code on its operation."""

import functools
import json
import os
import re
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import scoundrel
from domain.seasons import Schedule, season_at
from schemas.games import MOVES_PER_REQUEST
from schemas.paging import MAX_OFFSET
from tests.support.games import legal_games, moderator_token
from tests.support.in_process import stack_of

pytestmark = pytest.mark.slow

# per operation, of some hundred: about 500 requests a token. An example costs some 7 ms of CPU, three fifths of it
# schemathesis and hypothesis generating and checking it, the rest the request and the app's answer: each more per
# operation costs the suite about 1.5 s (both tokens). A deeper run before a release: SCOUNDREL_FUZZ_EXAMPLES=100
# (docs/testing.md).
EXAMPLES = int(os.environ.get("SCOUNDREL_FUZZ_EXAMPLES", "5"))


# No line logged a request (``service.request_log``, at INFO): no test here reads the service's log, a line that
# could not be written would fail none (logging reports it and goes on), and writing it (to the stack's log and
# pytest's captures) cost a twelfth of the app's CPU a request. The request log is test_observability.py's. (No
# rate limits either, as on every in-process stack: ``tests.support.in_process.UNLIMITED``; the limiter swallows
# whatever else it meets, ``service.security``, so it could change no answer checked here.)
FUZZED_SETTINGS = {"SCOUNDREL_LOG_LEVEL": "WARNING"}


@pytest.fixture(scope="module")
def fuzzed_stack(request):
    yield from stack_of(request, env=FUZZED_SETTINGS)


@pytest.fixture(scope="module")
def player_token(fuzzed_stack):
    return fuzzed_stack.register()[1]


def _undocumented(spec: dict, seen: set[tuple[str, str, int]]) -> list[str]:
    """The (method, path, status) answered that the operation does not list by its code."""
    return sorted(f"{method.upper()} {path} {status}" for method, path, status in seen
                  if str(status) not in spec["paths"][path][method.lower()]["responses"])


@pytest.fixture
def unworked_stack(in_process_pool):
    """A store of its own, never worked, for each token's run: the moderator's registers webhooks to whatever
    URLs schemathesis makes up, and nothing may be delivered to them; the player's asks for the par of made-up
    seeds, searches no test reads, which on ``fuzzed_stack`` its worker would run later (a second or more of
    CPU)."""
    with in_process_pool.using(FUZZED_SETTINGS) as running:
        yield running


# The address policy of webhooks (docs/webhooks.md) is no JSON Schema: a URI the document allows
# (http://10.0.0.1/) may be refused; nor are a tournament's times (its end after its start, and still
# ahead), nor a ban's end (ahead), nor a schedule's cron and time zone, nor the public log's ranges (an end
# not before its start, a proof's sizes in order, one leaf named once). Only there does a 422 not break the
# document's promise.
POLICY_BEYOND_SCHEMA = {"POST /v1/webhooks", "POST /v1/tournaments", "POST /v1/players/{name}/ban",
                        "POST /v1/schedules", "GET /v1/log/entries", "GET /v1/log/proof/inclusion",
                        "GET /v1/log/proof/consistency"}


@functools.cache
def _operations(document: str) -> list:
    """Every operation of the OpenAPI ``document`` (its JSON text) and schemathesis' strategy of its requests,
    made once a process: both tokens' runs fuzz the same document, and a strategy given again to hypothesis is
    validated once (a strategy made anew, for each of some hundred operations, cost half a second of CPU
    again). Each run still draws its own examples from it."""
    # schemathesis imported by the one test that runs it, not by every test process collecting this module (a
    # third of a second of CPU each; its pytest plugin is left out in pyproject.toml)
    import schemathesis

    schema = schemathesis.openapi.from_dict(json.loads(document))
    return [(operation, operation.as_strategy()) for operation in (result.ok()
                                                                   for result in schema.get_all_operations())]


@pytest.mark.parametrize("token", ["player", "moderator"])
def test_the_api_keeps_its_documented_promises(unworked_stack, token):
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        positive_data_acceptance,
        response_schema_conformance,
        status_code_conformance,
    )

    checks = (not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
              positive_data_acceptance)
    stack = unworked_stack
    bearer = stack.register()[1] if token == "player" else moderator_token(stack, "fuzzer")
    document = stack.get("/v1/openapi.json").text
    spec = json.loads(document)
    headers = {"Authorization": f"Bearer {bearer}"}
    failures, statuses, seen = {}, [], set()
    operations = _operations(document)
    assert len(operations) >= 10
    for operation, cases in operations:

        @given(case=cases)
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.explicit, Phase.generate], database=None)
        def keeps_its_promises(case):
            response = case.call(base_url=stack.base, session=stack.http, headers=headers, timeout=10)
            statuses.append(response.status_code)
            seen.add((case.operation.method, case.operation.path, response.status_code))
            beyond = case.operation.label in POLICY_BEYOND_SCHEMA and response.status_code == 422
            case.validate_response(response, checks=tuple(check for check in checks if not (
                beyond and check is positive_data_acceptance)))

        try:
            keeps_its_promises()
        except Exception as failure:  # every operation is tried; all failures are reported together
            failures[operation.label] = str(failure)[:2000]
    print(f"{len(statuses)} requests over {len(operations)} operations: "
          f"{dict(sorted(Counter(statuses).items()))}")
    assert {status // 100 for status in statuses} >= {2, 4}  # it reached the views, not only the validation
    assert not failures, "\n\n".join(f"{label}:\n{failure}" for label, failure in failures.items())
    assert not _undocumented(spec, seen)


# Shapes that once answered 500 (issue 12): JSON nested deeper than the parser
# goes, and integers past what Redis takes. Each is tried on every operation of
# its kind, found in the OpenAPI document, so a new endpoint is covered too.

JSON_ENDPOINTS = {  # every operation that reads a JSON body, and the token it needs
    "/v1/players": None,
    "/v1/runs": "player",
    "/v1/runs/batch": "player",
    "/v1/runs/{run_id}/disputes": "player",
    "/v1/disputes/{dispute_id}/resolve": "moderator",
    "/v1/flags/{flag_id}/dismiss": "moderator",
    "/v1/webhooks": "moderator",
    "/v1/tournaments": "moderator",
    "/v1/tournaments/{tournament_id}/end": "moderator",
    "/v1/schedules": "moderator",
    "/v1/server/players": "server_key",
    "/v1/games": "player",
    "/v1/games/{game_id}/moves": "player",
    "/v1/games/{game_id}/forfeit": "player",
    "/v1/players/{name}/ban": "moderator",
    "/v1/players/{name}/hide": "moderator",
    "/v1/players/{name}/rename": "moderator",
    "/v1/runs/{run_id}/reports": "player",
    "/v1/players/{name}/reports": "player",
    "/v1/reports/{report_id}/close": "moderator",
}
DEEP = 100_000  # a 200 KB body: far past json's recursion limit, well under the body limit


def _nested(depth: int, opener: str = "[") -> str:
    """``[[[…]]]`` or ``{"a":{"a":…0}}``, ``depth`` deep."""
    return "[" * depth + "]" * depth if opener == "[" else '{"a":' * depth + "0" + "}" * depth


@pytest.fixture(scope="module")
def tokens(fuzzed_stack, player_token):
    from store.accounts.server_keys import create_server_key

    database = fuzzed_stack.database()
    try:
        key = create_server_key(database, "fuzz-backend")
    finally:
        database.close()
    return {None: None, "player": player_token, "moderator": moderator_token(fuzzed_stack, "fuzz-mod"),
            "server_key": key}


@pytest.fixture(scope="module")
def spec(fuzzed_stack):
    return fuzzed_stack.get("/v1/openapi.json").json()


def _filled(path: str) -> str:
    """An operation's path with ids that name nothing."""
    return (path.replace("{run_id}", "no-such-run").replace("{dispute_id}", "no-such-dispute")
            .replace("{game_id}", "no-such-game").replace("{flag_id}", "no-such-flag")
            .replace("{tournament_id}", "no-such-tournament"))


def _post_raw(stack, path: str, body: str | bytes, token: str | None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    return stack.post(_filled(path), data=body.encode() if isinstance(body, str) else body, headers=headers)


def test_these_are_all_the_operations_that_read_a_json_body(spec):
    with_body = {path for path, operations in spec["paths"].items()
                 for operation in operations.values() if "requestBody" in operation}
    assert with_body == set(JSON_ENDPOINTS)


@pytest.mark.parametrize("path", JSON_ENDPOINTS)
@pytest.mark.parametrize("shape", ["array", "object", "in a field"])
def test_json_nested_too_deep_is_a_400_like_any_unreadable_body(fuzzed_stack, tokens, path, shape):
    nested = _nested(DEEP, "{" if shape == "object" else "[")
    body = '{"name": ' + nested + "}" if shape == "in a field" else nested
    answer = _post_raw(fuzzed_stack, path, body, tokens[JSON_ENDPOINTS[path]])
    assert answer.status_code == 400, answer.text
    assert answer.json()["message"] == "The body is not valid JSON."


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(path=st.sampled_from(sorted(JSON_ENDPOINTS)), depth=st.integers(1, 3 * DEEP), opener=st.sampled_from("[{"))
def test_json_of_any_depth_is_read_or_refused_never_a_500(fuzzed_stack, tokens, path, depth, opener):
    answer = _post_raw(fuzzed_stack, path, _nested(depth, opener), tokens[JSON_ENDPOINTS[path]])
    assert answer.status_code in (400, 404, 413, 422), (depth, answer.status_code, answer.text[:300])


@pytest.fixture(scope="module")
def integer_queries(fuzzed_stack, spec, tokens):
    """Every GET with integer query parameters: (path with ids filled in, its integer parameters, headers)."""
    name, own = fuzzed_stack.register()
    today = fuzzed_stack.get("/v1/daily").json()["date"]
    season = fuzzed_stack.get("/v1/seasons").json()["current"]["id"]
    week = season_at(Schedule.WEEKLY, int(time.time() * 1000)).id
    tournament = fuzzed_stack.post("/v1/tournaments", json={"title": "Fuzz cup", "starts_at": "2026-01-01T00:00:00Z",
                                                            "ends_at": "2099-01-01T00:00:00Z"},
                                   headers={"Authorization": f"Bearer {tokens['moderator']}"}).json()["id"]
    filled = {"{variant}": "classic", "{name}": name, "{day}": today, "{seed}": "abc", "{season}": season,
              "{week}": week, "{tournament_id}": tournament}
    found = []
    for path, operations in spec["paths"].items():
        queries = [parameter for parameter in operations.get("get", {}).get("parameters", [])
                   if parameter["in"] == "query"]
        integers = [parameter for parameter in queries if parameter["schema"].get("type") == "integer"]
        # an integer asked alone: not of an operation that needs other queries with it (the public log's
        # ranges and proofs, whose own tests ask them whole)
        if integers and not any(parameter.get("required") for parameter in queries):
            for placeholder, value in filled.items():
                path = path.replace(placeholder, value)
            moderator = {"Authorization": f"Bearer {tokens['moderator']}"}
            moderators_only = path in ("/v1/disputes", "/v1/flags", "/v1/webhooks", "/v1/erasures", "/v1/reports",
                                       "/v1/moderation-log", "/v1/schedules", "/v1/rewards/flagged")
            players_own = {"Authorization": f"Bearer {own}"} if path == f"/v1/players/{name}/reports" else {}
            found.append((path, integers, moderator if moderators_only else players_own))
    return found


def test_every_integer_query_parameter_is_bounded_in_the_openapi_document(spec):
    parameters = [(path, parameter) for path, operations in spec["paths"].items()
                  for operation in operations.values() if isinstance(operation, dict)
                  for parameter in operation.get("parameters", []) if parameter["schema"].get("type") == "integer"]
    assert {parameter["name"] for _, parameter in parameters} == {"limit", "offset", "around", "places", "deal",
                                                                  "start", "end", "size", "first", "second"}
    unbounded = [(path, parameter["name"]) for path, parameter in parameters
                 if not {"minimum", "maximum"} <= set(parameter["schema"])]
    assert not unbounded


@pytest.mark.parametrize("value", ["9223372036854775806", "99999999999999999999", str(MAX_OFFSET + 1), "-1"])
def test_an_offset_out_of_bounds_is_a_422_naming_it_on_every_paged_listing(fuzzed_stack, integer_queries, value):
    paged = [(path, headers) for path, integers, headers in integer_queries
             if "offset" in {parameter["name"] for parameter in integers}]
    assert {path.split("/")[2] for path, _ in paged} == {"players", "leaderboards", "daily", "seeds", "disputes",
                                                               "flags", "seasons", "webhooks", "leagues",
                                                               "tournaments", "erasures", "reports", "moderation-log",
                                                               "schedules", "rewards", "log"}
    for path, headers in paged:
        answer = fuzzed_stack.get(path, params={"offset": value}, headers=headers)
        assert answer.status_code == 422, (path, answer.text)
        assert list(answer.json()["errors"]) == ["offset"]
        assert fuzzed_stack.get(path, params={"offset": MAX_OFFSET}, headers=headers).json()["total"] >= 0


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data(), value=st.integers() | st.integers(min_value=2**63 - 2**10, max_value=2**70))
def test_any_integer_in_any_integer_parameter_is_answered_or_refused_never_a_500(fuzzed_stack, integer_queries,
                                                                                 data, value):
    path, integers, headers = data.draw(st.sampled_from(integer_queries))
    parameter = data.draw(st.sampled_from(integers))
    answer = fuzzed_stack.get(path, params={parameter["name"]: value}, headers=headers)
    bounds = parameter["schema"]
    if bounds["minimum"] <= value <= bounds["maximum"]:
        assert answer.status_code in (200, 404), (path, parameter["name"], value, answer.text[:300])  # 404: unranked
    else:
        assert answer.status_code == 422, (path, parameter["name"], value, answer.text[:300])
        assert list(answer.json()["errors"]) == [parameter["name"]]


# JSON that Python's parser cannot take, or takes into values nothing downstream
# expects: each is a 400 like any unreadable body, on every operation with a body.
UNREADABLE_JSON = {
    "a 4,301-digit integer": b'{"name": ' + b"1" * 4301 + b"}",
    "a negative 4,301-digit integer": b'{"name": -' + b"9" * 4301 + b"}",
    "NaN": b'{"name": NaN}',
    "Infinity": b'{"name": Infinity}',
    "-Infinity": b'[-Infinity]',
    "a number past a double": b'{"name": 1e999}',
    "a name twice": b'{"name": "ada", "name": "bob"}',
    "a lone surrogate": b'{"name": "\\ud800"}',
    "a lone low surrogate in a name": b'{"\\udc00": 1}',
    "bytes that are not UTF-8": b'{"name": "\xff\xfe"}',
}


@pytest.mark.parametrize("path", JSON_ENDPOINTS)
@pytest.mark.parametrize("shape", UNREADABLE_JSON)
def test_json_the_parser_cannot_take_is_a_400_with_its_reason(fuzzed_stack, tokens, path, shape):
    answer = _post_raw(fuzzed_stack, path, UNREADABLE_JSON[shape], tokens[JSON_ENDPOINTS[path]])
    assert answer.status_code == 400, answer.text[:300]
    assert answer.json()["message"] == "The body is not valid JSON."
    [reason] = answer.json()["errors"]["_schema"]
    assert reason.startswith("Invalid JSON body: "), reason


@pytest.mark.parametrize("body", [b'{"name": ' + b"1" * 4300 + b"}", b'{"name": 1e308}',
                                  b'{"name": "\\ud83d\\ude00"}', b'{"name": "\\\\ud800"}'])
def test_json_just_within_what_the_parser_takes_is_read(fuzzed_stack, body):
    """The longest integer Python converts, the largest double, a surrogate pair and an escaped backslash
    are JSON: read, then refused by the name's own rule."""
    answer = fuzzed_stack.post("/v1/players", data=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422 and list(answer.json()["errors"]) == ["name"], answer.text[:300]


# The contract: what the OpenAPI document says is what the service does.

def _operation(spec: dict, path: str, method: str) -> dict:
    return spec["paths"][path][method]


def _documented_schema(spec: dict, path: str, method: str, status: int) -> dict:
    reference = _operation(spec, path, method)["responses"][str(status)]["content"]["application/json"]["schema"]
    return spec["components"]["schemas"][reference["$ref"].rsplit("/", 1)[1]]


@pytest.fixture
def game_player(fuzzed_stack) -> str:
    """The token of a new player: one dealt game in play per player and variant."""
    return fuzzed_stack.register()[1]


@pytest.fixture
def game(fuzzed_stack, game_player):
    started = fuzzed_stack.post("/v1/games", headers={"Authorization": f"Bearer {game_player}"})
    assert started.status_code == 201, started.text
    return started.json()


@pytest.mark.parametrize("action", ["moves", "forfeit"])
def test_a_409_of_a_game_carries_only_what_its_schema_documents(fuzzed_stack, spec, game_player, game, action):
    path = f"/v1/games/{{game_id}}/{action}"
    body = {"expected_moves": 3, **({"moves": [game["legal_moves"][0]]} if action == "moves" else {})}
    answer = fuzzed_stack.post(path.replace("{game_id}", game["id"]), json=body,
                               headers={"Authorization": f"Bearer {game_player}"})
    assert answer.status_code == 409
    schema = _documented_schema(spec, path, "post", 409)
    assert answer.json()["moves"] == 0
    assert set(answer.json()) <= set(schema["properties"]), (set(answer.json()), schema)


def test_a_body_the_document_calls_optional_may_be_left_out_and_a_required_one_may_not(fuzzed_stack, spec,
                                                                                      tokens, game_player):
    optional = {path for path, operations in spec["paths"].items() for operation in operations.values()
                if "requestBody" in operation and not operation["requestBody"]["required"]}
    assert optional == {"/v1/games", "/v1/games/{game_id}/forfeit"}
    bearer = {"Authorization": f"Bearer {game_player}"}
    started = fuzzed_stack.post("/v1/games", headers=bearer)  # no body, no Content-Type: as clients send it
    assert started.status_code == 201 and started.json()["variant"] == "classic"
    forfeited = fuzzed_stack.post(f"/v1/games/{started.json()['id']}/forfeit", headers=bearer)
    assert forfeited.status_code == 200 and forfeited.json()["status"] == "forfeit"
    for path in set(JSON_ENDPOINTS) - optional:
        token = tokens[JSON_ENDPOINTS[path]]
        answer = fuzzed_stack.post(_filled(path), headers={"Authorization": f"Bearer {token}"} if token else {})
        assert answer.status_code in (404, 422), (path, answer.status_code)  # 404: the id is looked up first


def _matches(spec: dict, path: str, url: str) -> bool:
    """Whether ``url`` is an instance of the documented ``path``, each parameter by its pattern, if it has one."""
    operations = spec["paths"][path]
    parameters = [*operations.get("parameters", []), *(parameter for operation in operations.values()
                                                         if isinstance(operation, dict)
                                                         for parameter in operation.get("parameters", []))]
    patterns = {parameter["name"]: parameter["schema"].get("pattern", "^[^/]+$") for parameter in parameters
                if parameter["in"] == "path"}
    template = re.escape(path).replace(r"\{", "{").replace(r"\}", "}")
    matched = re.fullmatch(re.sub(r"\{[^}]+\}", "([^/]+)", template), url)
    names = re.findall(r"\{([^}]+)\}", path)
    return matched is not None and all(re.search(patterns.get(name, "^[^/]+$"), value)
                                       for name, value in zip(names, matched.groups(), strict=True))


def test_every_405_says_which_methods_are_allowed(fuzzed_stack, spec):
    def methods(own: str, url: str) -> set[str]:
        """Every method documented for ``own`` path and for any other that ``url`` matches, by its parameters'
        patterns (``/v1/runs/batch`` is not a run's: ``run_id``'s pattern leaves it out)."""
        return {method.upper() for path, operations in spec["paths"].items()
                if path == own or _matches(spec, path, url) for method in operations if method != "parameters"}

    for path in spec["paths"]:
        url = path.replace("{", "").replace("}", "")  # any segment: the router answers before the view
        answer = fuzzed_stack.http.request("PATCH", fuzzed_stack.url(url), timeout=10)  # no operation is a PATCH
        assert answer.status_code == 405 and answer.json()["code"] == 405, (path, answer.status_code)
        allowed = {method.strip() for method in answer.headers["Allow"].split(",")}
        assert allowed - {"HEAD", "OPTIONS"} == methods(path, url), (path, allowed)


def test_every_day_the_document_allows_is_read_as_a_day(fuzzed_stack, spec):
    day_parameters = [parameter["schema"] for operations in spec["paths"].values()
                      for parameter in operations.get("parameters", []) if parameter["name"] == "day"]
    assert len(day_parameters) == 6  # the days' two boards, each page and position, the sealed day, its share card
    assert all(schema["format"] == "date" and schema["pattern"] == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
               for schema in day_parameters)
    today = fuzzed_stack.get("/v1/daily").json()["date"]
    assert fuzzed_stack.get(f"/v1/daily/{today}/sealed").status_code == 200
    # Python reads these as dates too; the document does not, so neither does the service
    for undocumented in (today.replace("-", ""), "2026-W48-1"):
        answer = fuzzed_stack.get(f"/v1/daily/{undocumented}/sealed")
        assert answer.status_code == 422 and list(answer.json()["errors"]) == ["day"], undocumented


def test_every_move_the_document_allows_is_a_move_and_the_empty_string_is_not_one(fuzzed_stack, spec,
                                                                                 player_token):
    [submission_moves, game_moves] = [spec["components"]["schemas"][name]["properties"]["moves"]
                                      for name in ("Submission", "Moves")]
    assert submission_moves["items"]["enum"] == game_moves["items"]["enum"] == list(scoundrel.MOVES)
    assert (submission_moves["maxItems"], game_moves["maxItems"]) == (scoundrel.MAX_MOVES, MOVES_PER_REQUEST)
    assert "" not in submission_moves["items"]["enum"]
    seed = spec["components"]["schemas"]["Submission"]["properties"]["seed"]["pattern"]
    runs = [{"seed": "enum-check", "moves": [move]} for move in submission_moves["items"]["enum"]]
    answer = fuzzed_stack.post("/v1/runs/batch", json={"runs": runs},
                               headers={"Authorization": f"Bearer {player_token}"})
    assert answer.status_code == 200 and answer.json()["invalid"] == 0, answer.text[:500]
    assert re.fullmatch(seed, "a" * 64) and not re.fullmatch(seed, "a" * 65) and not re.fullmatch(seed, "a b")


def test_too_many_moves_for_one_request_names_the_requests_own_limit(fuzzed_stack, game_player, game):
    for count in (MOVES_PER_REQUEST + 1, 10_000):
        answer = fuzzed_stack.post(f"/v1/games/{game['id']}/moves", json={"moves": ["flee"] * count},
                                   headers={"Authorization": f"Bearer {game_player}"})
        assert answer.status_code == 422
        assert answer.json()["errors"]["moves"] == [f"At most {MOVES_PER_REQUEST} moves are allowed in one "
                                                    "request."], count


def test_counts_read_in_the_singular_for_one(fuzzed_stack, game_player, game):
    bearer = {"Authorization": f"Bearer {game_player}"}
    played = fuzzed_stack.post(f"/v1/games/{game['id']}/moves", json={"moves": [game["legal_moves"][0]]},
                               headers=bearer)
    assert played.status_code == 200
    moved = fuzzed_stack.post(f"/v1/games/{game['id']}/forfeit", json={"expected_moves": 0}, headers=bearer)
    assert moved.json()["message"] == "The game has 1 move played; read it and send the next moves again."
    name, token = fuzzed_stack.register()
    run = fuzzed_stack.submit(token, legal_games(1)[0]).json()
    assert fuzzed_stack.wait_final(run["id"])["status"] == "verified"
    page = fuzzed_stack.get(f"/players/{name}").text
    assert "1 verified run, oldest first" in page and "1 verified runs" not in page


def test_a_moderators_token_reads_a_players_game_as_anyone_else_does(fuzzed_stack, tokens, game_player, game):
    path = f"/v1/games/{game['id']}"
    anyone = fuzzed_stack.get(path)
    moderator = fuzzed_stack.get(path, headers={"Authorization": f"Bearer {tokens['moderator']}"})
    assert (moderator.status_code, moderator.json()) == (anyone.status_code, anyone.json()) == \
        (404, {"code": 404, "status": "Not Found", "message": f"No game {game['id']!r}."})
    assert fuzzed_stack.get(path, headers={"Authorization": "Bearer sr_nobody"}).status_code == 401
    bearer = {"Authorization": f"Bearer {game_player}"}
    forfeited = fuzzed_stack.post(f"{path}/forfeit", headers=bearer)
    assert forfeited.status_code == 200  # a free game: its seed shown
    fuzzed_stack.wait_final(forfeited.json()["run_id"])  # its verdict lands once, not between the two reads
    revealed = fuzzed_stack.get(path, headers={"Authorization": f"Bearer {tokens['moderator']}"})
    assert revealed.status_code == 200 and revealed.json() == fuzzed_stack.get(path).json()


def _resolved(spec: dict, reference: dict) -> dict:
    return spec["components"]["schemas"][reference["$ref"].rsplit("/", 1)[1]]


@pytest.mark.parametrize("refused", ["a move the room does not allow", "a malformed body"])
def test_a_422_of_moves_carries_only_what_its_schema_documents(fuzzed_stack, spec, game_player, game, refused):
    """A refused move (``error`` names it) and a malformed body answer the one documented 422."""
    path = "/v1/games/{game_id}/moves"
    illegal = next(move for move in scoundrel.MOVES if move not in game["legal_moves"])
    body = {"moves": [illegal]} if refused.startswith("a move") else {"moves": ["flee"], "expected_moves": "x"}
    answer = fuzzed_stack.post(path.replace("{game_id}", game["id"]), json=body,
                               headers={"Authorization": f"Bearer {game_player}"})
    assert answer.status_code == 422, answer.text
    schema = _documented_schema(spec, path, "post", 422)
    assert set(answer.json()) <= set(schema["properties"]), (set(answer.json()), schema)
    assert schema.get("additionalProperties") is False and "error" in schema["properties"]


@pytest.mark.parametrize("action", ["moves", "forfeit"])
@pytest.mark.parametrize("count", [1.9, 1.0, "1", True])
def test_expected_moves_takes_integers_only(fuzzed_stack, spec, game_player, game, action, count):
    body = {"expected_moves": count, **({"moves": [game["legal_moves"][0]]} if action == "moves" else {})}
    answer = fuzzed_stack.post(f"/v1/games/{game['id']}/{action}", json=body,
                               headers={"Authorization": f"Bearer {game_player}"})
    assert answer.status_code == 422 and list(answer.json()["errors"]) == ["expected_moves"], answer.text
    for schema in ("Moves", "Forfeit"):
        assert spec["components"]["schemas"][schema]["properties"]["expected_moves"]["type"] == "integer"


def test_a_game_answered_without_a_token_is_documented_as_taking_one_or_none(fuzzed_stack, spec, game_player,
                                                                          game):
    assert {"bearerAuth": []} in spec["paths"]["/v1/games/{game_id}"]["get"]["security"]
    assert {} in spec["paths"]["/v1/games/{game_id}"]["get"]["security"]  # none: anyone, once it is over
    forfeited = fuzzed_stack.post(f"/v1/games/{game['id']}/forfeit", headers={"Authorization": f"Bearer {game_player}"})
    assert forfeited.status_code == 200
    assert fuzzed_stack.get(f"/v1/games/{game['id']}").status_code == 200  # no token
    guarded = [f"{method.upper()} {path}" for path, operations in spec["paths"].items()
               for method, operation in operations.items() if isinstance(operation, dict)
               and operation.get("security") == [{"bearerAuth": []}]]
    for label in guarded:  # every other operation documented as needing a token refuses none
        method, path = label.split(" ", 1)
        answer = fuzzed_stack.http.request(method, fuzzed_stack.url(_filled(path).replace("{name}", "nobody-x")
                                                                     .replace("{hook_id}", "no-such-hook")),
                                           json={}, timeout=10)
        assert answer.status_code == 401, (label, answer.status_code)


def test_the_batch_submission_allows_only_post(fuzzed_stack, spec):
    answer = fuzzed_stack.http.options(fuzzed_stack.url("/v1/runs/batch"), timeout=10)
    assert {method.strip() for method in answer.headers["Allow"].split(",")} == {"POST", "OPTIONS"}
    assert fuzzed_stack.get("/v1/runs/batch").status_code == 405
    assert not re.search(spec["paths"]["/v1/runs/{run_id}"]["parameters"][0]["schema"]["pattern"], "batch")


def test_the_server_refusals_any_request_may_meet_are_listed_on_every_operation(spec):
    unlisted = [(path, method, code) for path, operations in spec["paths"].items()
                for method, operation in operations.items() if isinstance(operation, dict)
                for code in ("414", "431", "429", "503") if code not in operation["responses"]]
    assert not unlisted


def test_a_webhook_url_is_documented_as_a_uri(spec):
    url = spec["components"]["schemas"]["WebhookCreate"]["properties"]["url"]
    assert url["type"] == "string" and url["format"] == "uri"
