"""/metrics in Prometheus' format, counting what every process did (dealt
games too: started, in play, ended by outcome, forfeited idle, move latency); one
JSON log line per event, with the request id following a run into its job;
short readable lines instead when a person watches a terminal."""

import json
import os
import pty
import random
import re
import select
import time
import uuid
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from cli.redis_server import free_port
from tests.games.table import Table
from tests.support import preloaded
from tests.support.games import legal_games
from tests.support.stack import Stack
from tests.support.waiting import until

GAME_IDLE = 3.0  # seconds: the sweeper forfeits a game left this long without a move

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("observed"), workers=2, env={
        "SCOUNDREL_API_WORKERS": "2", "SCOUNDREL_GAME_IDLE": str(GAME_IDLE), "SCOUNDREL_SWEEP_INTERVAL": "0.3",
    }).start()
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
    run_ids.append(stack.submit(token, {"seed": "obs-bad", "moves": ["flee"]}).json()["id"])  # rejected: incomplete
    # A submission counts as accepted when a dispatcher takes it from the intake (store/lua/take_intake.lua):
    # every run's verdict, the rejected one's too, comes after that.
    for run_id in run_ids:
        stack.wait_final(run_id)
    samples = {}
    for _ in range(2):  # two API processes: either answers for the whole service
        samples = _samples(stack)
    assert samples[("scoundrel_submissions_total", (("result", "accepted"),))] == 5
    assert samples[("scoundrel_submissions_total", (("result", "duplicate"),))] == 1
    assert samples[("scoundrel_verdicts_total", (("code", ""), ("status", "verified")))] == 4
    assert samples[("scoundrel_verdicts_total", (("code", "incomplete"), ("status", "rejected")))] == 1
    assert samples[("scoundrel_verification_latency_seconds_count", ())] >= 4
    assert ("scoundrel_queue_depth", ()) in samples and ("scoundrel_failed_jobs", ()) in samples


def _moves_stored(table: Table) -> int:
    """The move requests of a game that stored moves (a refused batch stores none)."""
    return sum(1 for exchange in table.exchanges
               if exchange.status == 200 and exchange.moves_after > exchange.moves_before)


def test_metrics_count_dealt_games_from_start_to_end_in_every_process(stack):
    before = _samples(stack)

    def grown(samples, name, *labels):
        key = (name, tuple(sorted(labels)))
        return samples.get(key, 0) - before.get(key, 0)

    _, token = stack.register()
    finished = [Table(stack, token, random.Random(seed)) for seed in range(3)]
    for table in finished:
        table.start()
        table.play_to_the_end()
    forfeited = Table(stack, token, random.Random(3))
    forfeited.start()
    assert stack.post(f"/v1/games/{forfeited.game['id']}/forfeit", json={},
                      headers=forfeited.auth).status_code == 200
    idle = Table(stack, token, random.Random(4))
    idle.start()
    idle.step()

    for _ in range(2):  # two API processes: either answers for the whole service
        samples = _samples(stack)
        assert grown(samples, "scoundrel_games_started_total") == 5
        assert samples[("scoundrel_games_in_play", ())] == 1  # Redis' count: the idle game, not yet forfeited
    outcomes = [table.game["status"] for table in finished]
    for outcome in ("won", "lost"):
        assert grown(samples, "scoundrel_games_ended_total", ("outcome", outcome)) == outcomes.count(outcome)
    assert grown(samples, "scoundrel_games_ended_total", ("outcome", "forfeit")) == 1
    moves = sum(_moves_stored(table) for table in [*finished, idle])
    assert grown(samples, "scoundrel_move_latency_seconds_count") == moves
    assert grown(samples, "scoundrel_move_latency_seconds_bucket", ("le", "+Inf")) == moves
    assert 0 < grown(samples, "scoundrel_move_latency_seconds_sum") < moves * 2.5

    stack.until(lambda: idle.reload()["status"] != "playing", "the idle game forfeited", GAME_IDLE + 10)
    samples = _samples(stack)
    assert samples[("scoundrel_games_in_play", ())] == 0
    assert grown(samples, "scoundrel_games_forfeited_idle_total") == 1
    assert grown(samples, "scoundrel_games_ended_total", ("outcome", "forfeit")) == 2
    assert samples[("scoundrel_workers", ())] == 2


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


def test_every_request_is_logged_once(stack):
    """One line per request (service.requests); gunicorn's access log is off unless asked for."""
    marker = f"once-{uuid.uuid4().hex}"
    assert stack.get(f"/v1/runs/{marker}").status_code == 404
    time.sleep(0.5)
    lines = [line for line in (stack.root / "api.log").read_text().splitlines() if marker in line]
    assert len(lines) == 1, lines
    assert json.loads(lines[0])["logger"] == "service.requests"


def _answering(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _api_log(stack, env: dict, terminal: bool, tmp_path) -> str:
    """Run ``scoundrel api`` against the stack's Redis, make one request, return what it logged on stderr."""
    port = free_port()
    environment = {**os.environ, "REDIS_URL": stack.redis.url, "SCOUNDREL_ARCHIVE_URL": stack.archive_url,
                   "SCOUNDREL_API_WORKERS": "1", **env}
    primary, secondary = pty.openpty() if terminal else (None, None)
    log_file = tmp_path / f"api-{port}.log"
    api = preloaded.start("cli.main", ["api", "--port", str(port)], environment, log_file,
                          Path(os.ttyname(secondary)) if terminal else None)
    captured = bytearray()

    def logged() -> bool:
        """Whether the watched request's line is out: in the log, or on the terminal (read off it so far)."""
        if not terminal:
            return "watched" in log_file.read_text()
        while select.select([primary], [], [], 0)[0]:
            captured.extend(os.read(primary, 65536))
        return b"watched" in captured

    try:
        until(lambda: _answering(port), "the API answering", 30)
        # the watched request: a health poll's line is a debug one (service.request_log)
        requests.get(f"http://127.0.0.1:{port}/v1/version", headers={"X-Request-ID": "watched"}, timeout=5)
        until(logged, "the watched request logged", 10)
    finally:
        if terminal:
            os.close(secondary)  # the API has its own by now: its exit ends the terminal's output
        api.terminate()
        if terminal:
            while select.select([primary], [], [], 2)[0]:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:  # the other side closed
                    break
                if not chunk:
                    break
                captured.extend(chunk)
            os.close(primary)
        api.wait(10)
    return captured.decode(errors="replace") if terminal else log_file.read_text()


@pytest.fixture(scope="module")
def piped(stack, tmp_path_factory) -> tuple[str, str]:
    """An API run in a pipe, text lines and an access log asked for: what it logged, and its access log."""
    folder = tmp_path_factory.mktemp("piped")
    access = folder / "access.log"
    logged = _api_log(stack, {"SCOUNDREL_LOG_FORMAT": "text", "SCOUNDREL_ACCESS_LOG": str(access)}, terminal=False,
                      tmp_path=folder)
    return logged, access.read_text()


def test_a_terminal_gets_short_readable_lines(stack, tmp_path):
    text = _api_log(stack, {}, terminal=True, tmp_path=tmp_path)
    request = [line for line in text.splitlines() if "request_id=watched" in line]
    assert request, text
    assert re.match(r"^\d\d:\d\d:\d\d INFO +service.requests  GET /v1/version 200 [\d.]+ ms  request_id=watched ",
                    request[0]), request[0]
    assert "{" not in text.split("request_id=watched")[0].splitlines()[-1]  # not JSON


def test_json_when_asked_even_in_a_terminal_and_text_when_asked_in_a_pipe(stack, tmp_path, piped):
    asked_json = _api_log(stack, {"SCOUNDREL_LOG_FORMAT": "json"}, terminal=True, tmp_path=tmp_path)
    line = next(line for line in asked_json.splitlines() if '"watched"' in line)
    assert json.loads(line)["path"] == "/v1/version"
    asked_text, _ = piped
    assert any("request_id=watched" in line and not line.startswith("{") for line in asked_text.splitlines())


def test_the_access_log_is_written_where_asked(piped):
    _, access = piped
    assert "GET /v1/health" in access
