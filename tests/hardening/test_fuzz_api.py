"""Schemathesis against the served OpenAPI document: whatever it sends, no
5xx and no answer outside the documented statuses, content types and
schemas. Bounded: a few examples per operation."""

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

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


def test_the_api_keeps_its_documented_promises(fuzzed_stack, player_token):
    schema = schemathesis.openapi.from_url(fuzzed_stack.url("/v1/openapi.json"))
    headers = {"Authorization": f"Bearer {player_token}"}
    failures, statuses = {}, []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.explicit, Phase.generate], database=None)
        def keeps_its_promises(case):
            response = case.call(base_url=fuzzed_stack.base, headers=headers, timeout=10)
            statuses.append(response.status_code)
            case.validate_response(response, checks=CHECKS)

        try:
            keeps_its_promises()
        except Exception as failure:  # every operation is tried; all failures are reported together
            failures[operation.label] = str(failure)[:2000]
    print(f"{len(statuses)} requests over {len(operations)} operations: "
          f"{dict(sorted(Counter(statuses).items()))}")
    assert {status // 100 for status in statuses} >= {2, 4}  # it reached the views, not only the validation
    assert not failures, "\n\n".join(f"{label}:\n{failure}" for label, failure in failures.items())
