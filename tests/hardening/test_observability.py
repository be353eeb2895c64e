"""/metrics in Prometheus' format, counting what every process did; one
JSON log line per event, with the request id following a run into its job."""

import json

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.games import legal_games
from tests.support.stack import Stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("observed"), workers=2, env={"SCOUNDREL_API_WORKERS": "2"}).start()
    yield running
    running.stop()


def _samples(stack) -> dict:
    text = stack.get("/metrics").text
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def test_metrics_count_submissions_verdicts_and_latency_across_processes(stack):
    _, token = stack.register()
    games = legal_games(4)
    run_ids = [stack.submit(token, game).json()["id"] for game in games]
    stack.submit(token, games[0])  # a duplicate
    stack.submit(token, {"seed": "obs-bad", "moves": ["flee"]})  # rejected: incomplete
    for run_id in run_ids:
        stack.wait_final(run_id)
    samples = {}
    for _ in range(2):  # two API processes: either answers for the whole service
        samples = _samples(stack)
    assert samples[("scoundrel_submissions_total", (("result", "accepted"),))] == 5
    assert samples[("scoundrel_submissions_total", (("result", "duplicate"),))] == 1
    assert samples[("scoundrel_verdicts_total", (("code", ""), ("status", "verified")))] == 4
    assert samples[("scoundrel_verification_latency_seconds_count", ())] >= 4
    assert ("scoundrel_queue_depth", ()) in samples and ("scoundrel_failed_jobs", ()) in samples


def test_a_request_id_follows_a_run_into_its_job(stack):
    _, token = stack.register()
    answer = stack.submit(token, legal_games(5)[4], headers={"X-Request-ID": "follow-me-42"})
    assert answer.headers["X-Request-ID"] == "follow-me-42"
    stack.wait_final(answer.json()["id"])
    worker_lines = [json.loads(line) for path in stack.root.glob("worker-*.log")
                    for line in path.read_text().splitlines() if line.startswith("{")]
    verdict = [line for line in worker_lines if line.get("request_id") == "follow-me-42"]
    assert verdict and verdict[0]["run_id"] == answer.json()["id"] and verdict[0]["status"] == "verified"
    api_lines = [json.loads(line) for line in (stack.root / "api.log").read_text().splitlines()
                 if line.startswith("{")]
    assert any(line.get("request_id") == "follow-me-42" and line.get("path") == "/v1/runs" for line in api_lines)
