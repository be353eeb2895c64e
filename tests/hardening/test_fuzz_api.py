"""Schemathesis against the served OpenAPI document: whatever it sends, no
5xx and no answer outside the documented statuses, content types and
schemas. Bounded: a few examples per operation.

flask-smorest gives every operation a ``default`` response, which lets
schemathesis' own status check pass any status at all; so every status
seen here must also be listed by its code on its operation."""

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from schemas.paging import MAX_OFFSET
from tests.support.games import moderator_token
from tests.support.stack import Stack

EXAMPLES = 25  # per operation: about twenty operations, a few hundred requests
CHECKS = (not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance)


@pytest.fixture(scope="module")
def fuzzed_stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("fuzz"), workers=1).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def player_token(fuzzed_stack):
    return fuzzed_stack.register()[1]


def _undocumented(spec: dict, seen: set[tuple[str, str, int]]) -> list[str]:
    """The (method, path, status) answered that the operation does not list by its code."""
    return sorted(f"{method.upper()} {path} {status}" for method, path, status in seen
                  if str(status) not in spec["paths"][path][method.lower()]["responses"])


def test_the_api_keeps_its_documented_promises(fuzzed_stack, player_token, spec):
    schema = schemathesis.openapi.from_url(fuzzed_stack.url("/v1/openapi.json"))
    headers = {"Authorization": f"Bearer {player_token}"}
    failures, statuses, seen = {}, [], set()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.explicit, Phase.generate], database=None)
        def keeps_its_promises(case):
            response = case.call(base_url=fuzzed_stack.base, headers=headers, timeout=10)
            statuses.append(response.status_code)
            seen.add((case.operation.method, case.operation.path, response.status_code))
            case.validate_response(response, checks=CHECKS)

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
    "/v1/games": "player",
    "/v1/games/{game_id}/moves": "player",
    "/v1/games/{game_id}/forfeit": "player",
}
DEEP = 100_000  # a 200 KB body: far past json's recursion limit, well under the body limit


def _nested(depth: int, opener: str = "[") -> str:
    """``[[[…]]]`` or ``{"a":{"a":…0}}``, ``depth`` deep."""
    return "[" * depth + "]" * depth if opener == "[" else '{"a":' * depth + "0" + "}" * depth


@pytest.fixture(scope="module")
def tokens(fuzzed_stack, player_token):
    return {None: None, "player": player_token, "moderator": moderator_token(fuzzed_stack, "fuzz-mod")}


@pytest.fixture(scope="module")
def spec(fuzzed_stack):
    return fuzzed_stack.get("/v1/openapi.json").json()


def _post_raw(stack, path: str, body: str, token: str | None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    return stack.post(path.replace("{run_id}", "no-such-run").replace("{dispute_id}", "no-such-dispute")
                      .replace("{game_id}", "no-such-game").replace("{flag_id}", "no-such-flag"),
                      data=body.encode(), headers=headers)


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
    name = fuzzed_stack.register()[0]
    today = fuzzed_stack.get("/v1/daily").json()["date"]
    filled = {"{variant}": "classic", "{name}": name, "{day}": today, "{seed}": "abc"}
    found = []
    for path, operations in spec["paths"].items():
        integers = [parameter for parameter in operations.get("get", {}).get("parameters", [])
                    if parameter["in"] == "query" and parameter["schema"].get("type") == "integer"]
        if integers:
            for placeholder, value in filled.items():
                path = path.replace(placeholder, value)
            moderator = {"Authorization": f"Bearer {tokens['moderator']}"}
            found.append((path, integers, moderator if path in ("/v1/disputes", "/v1/flags") else {}))
    return found


def test_every_integer_query_parameter_is_bounded_in_the_openapi_document(spec):
    parameters = [(path, parameter) for path, operations in spec["paths"].items()
                  for operation in operations.values() if isinstance(operation, dict)
                  for parameter in operation.get("parameters", []) if parameter["schema"].get("type") == "integer"]
    assert {parameter["name"] for _, parameter in parameters} == {"limit", "offset", "around"}
    unbounded = [(path, parameter["name"]) for path, parameter in parameters
                 if not {"minimum", "maximum"} <= set(parameter["schema"])]
    assert not unbounded


@pytest.mark.parametrize("value", ["9223372036854775806", "99999999999999999999", str(MAX_OFFSET + 1), "-1"])
def test_an_offset_out_of_bounds_is_a_422_naming_it_on_every_paged_listing(fuzzed_stack, integer_queries, value):
    paged = [(path, headers) for path, integers, headers in integer_queries
             if "offset" in {parameter["name"] for parameter in integers}]
    assert {path.split("/")[2] for path, _ in paged} == {"players", "leaderboards", "daily", "seeds", "disputes",
                                                               "flags"}
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
