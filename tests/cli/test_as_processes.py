"""What only ``scoundrel`` run as a process of its own shows; the rest of ``tests/cli`` runs its commands in the
test process (the ``scoundrel`` fixture).

- ``scoundrel api`` and ``scoundrel worker`` leave at once when stopped: no interpreter teardown. The teardown
  (freeing every module of the service) cost each about a second, which ``scoundrel up`` waited for on every
  stop (docs/running.md gives how soon it stops; tests/deploy/test_up.py times it). A teardown runs the
  ``atexit`` handlers, so a handler that ``sitecustomize`` registers in every process tells which processes
  had one.
- ``scoundrel verify`` on a terminal (a progress bar, a summary) and as a co-process (each verdict written as
  soon as its line is read).
- ``scoundrel conformance --engine``: the engine is a process the command talks to over JSON lines, and an
  adapter (the reference one, ``conformance --serve``, and the JS client's) is such a process.
- The installed console script: an error ends it with one line, no traceback; and a fresh process finds its
  default data directory under its ``HOME``.
"""

import json
import os
import pty
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import requests

from cli import conformance
from cli.redis_server import free_port
from store.base import keys
from tests.support.stores import NO_REDIS_URL
from tests.support.waiting import until

from .conftest import lines_of
from .test_cli_conformance import cases
from .test_cli_errors import assert_one_line_failure

JS_ADAPTER = Path(__file__).resolve().parents[2] / "clients" / "js" / "tools" / "conformance-adapter.mjs"
# The reference adapter with R10 read as "less or equal": a weapon may fight a monster equal to its last kill.
WEAR_AS_LESS_OR_EQUAL = """
import sys
import scoundrel.rules as rules
from scoundrel.cards import VALUE
from cli.conformance import serve

strict = rules._weapon_reaches

def less_or_equal(state, value):
    if state.weapon is not None and state.kills and value == VALUE[state.kills[-1]]:
        return True
    return strict(state, value)

rules._weapon_reaches = less_or_equal
serve(sys.stdin, sys.stdout)
"""

PROBE = """import atexit, os
atexit.register(lambda: open({marker!r}, "a").write(f"{{os.getpid()}}\\n"))
"""


class Probed:
    """``scoundrel ARGS`` with the teardown probe loaded, on ``own_redis``."""

    def __init__(self, tmp_path: Path, redis_url: str, *args: str):
        site = tmp_path / "site"
        site.mkdir(exist_ok=True)
        self.marker = tmp_path / "torn-down"
        (site / "sitecustomize.py").write_text(PROBE.format(marker=str(self.marker)))
        # one gunicorn worker: the API's master is what is probed, and a second worker cost 0.6 s of CPU
        env = {**os.environ, "REDIS_URL": redis_url, "SCOUNDREL_DATA_DIR": str(tmp_path), "SCOUNDREL_API_WORKERS": "1",
               "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen([sys.executable, "-m", "cli.main", *args], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def torn_down(self) -> set[int]:
        return {int(pid) for pid in self.marker.read_text().split()} if self.marker.exists() else set()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        finally:
            self.process.kill()


def test_the_probe_sees_the_teardown_of_a_command_that_has_one(tmp_path, own_redis):
    dealt = Probed(tmp_path, own_redis.url, "deal", "abc")
    assert dealt.process.wait(30) == 0
    assert dealt.process.pid in dealt.torn_down()


def test_a_stopped_worker_leaves_without_a_teardown(tmp_path, own_redis):
    worker = Probed(tmp_path, own_redis.url, "worker")
    client = redis.Redis.from_url(own_redis.url)
    # idle: waiting for a job, its signal handlers in place (RQ registers the worker before it installs them)
    until(lambda: worker.process.poll() is not None or any(
        client.hget(key, "state") == b"idle" for key in client.smembers("rq:workers")), "the worker waiting", 30)
    assert worker.stop() == 0, worker.process.stderr.read().decode() if worker.process.stderr else ""
    assert worker.process.pid not in worker.torn_down()
    assert client.scard("rq:workers") == 0  # it said goodbye to RQ before leaving


def test_the_api_marks_its_redis_as_it_starts_and_its_stopped_master_leaves_without_a_teardown(tmp_path, own_redis):
    """The service's mark on its Redis, for the operator commands (``test_operator_redis.py``), is set by
    ``scoundrel api`` before gunicorn starts its workers."""
    port = free_port()
    api = Probed(tmp_path, own_redis.url, "api", "--host", "127.0.0.1", "--port", str(port))

    def answers() -> bool:
        assert api.process.poll() is None, api.process.stderr.read().decode() if api.process.stderr else ""
        try:
            return requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    until(answers, "the API to answer", 30)
    assert redis.Redis.from_url(own_redis.url, decode_responses=True).get(keys.service_mark())
    assert api.stop() == 0
    assert api.process.pid not in api.torn_down()


def run_with_terminal_stderr(command: list[str], stdout_path) -> str:
    """Run scoundrel with stderr on a pseudo-terminal; return what it wrote there."""
    controller, terminal = pty.openpty()
    with open(stdout_path, "wb") as stdout:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=stdout, stderr=terminal)
    os.close(terminal)
    written = []
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the process closed its end
            break
        if not chunk:
            break
        written.append(chunk)
    os.close(controller)
    assert process.wait(timeout=120) == 0
    return b"".join(written).decode()


@pytest.fixture
def a_thousand(ten_thousand, tmp_path) -> Path:
    """The first thousand lines of ``ten_thousand``, a hundred times its cycle of ten: every kind of line, in the
    same shares, for a tenth of the verifying (0.4 s of CPU a command fewer). ``test_cli_verify`` verifies all ten
    thousand, in the test process."""
    path = tmp_path / "a-thousand.jsonl"
    path.write_text("".join(ten_thousand.read_text().splitlines(keepends=True)[:1000]))
    return path


def test_a_terminal_gets_a_progress_bar_and_a_summary(scoundrel_command, a_thousand, tmp_path):
    stderr = run_with_terminal_stderr([*scoundrel_command, "verify", str(a_thousand)], tmp_path / "out.jsonl")
    assert "1000/1000" in stderr  # the bar knows the total of a regular file
    assert "100%" in stderr
    assert "1000 submissions: 700 verified, 200 rejected, 100 invalid" in stderr
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 1000


def test_quiet_silences_the_terminal(scoundrel_command, a_thousand, tmp_path):
    command = [*scoundrel_command, "verify", "--quiet", str(a_thousand)]
    assert run_with_terminal_stderr(command, tmp_path / "out.jsonl") == ""


@pytest.mark.timeout(60)
def test_each_verdict_is_written_as_soon_as_its_line_is_read(scoundrel_command, won_game, rejected_game):
    """A co-process gets each answer before it sends the next submission."""
    process = subprocess.Popen([*scoundrel_command, "verify"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for game, status in [(won_game, "verified"), (rejected_game, "rejected"), ("[]", "invalid")]:
            process.stdin.write(lines_of(game).encode())
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["status"] == status
    finally:
        process.stdin.close()
        assert process.wait(timeout=30) == 0

def python_engine(source: str = "") -> str:
    return shlex.join([sys.executable, "-c", source]) if source else shlex.join(
        [sys.executable, "-m", "cli.main", "conformance", "--serve"])


def test_the_console_script_ends_an_error_with_one_line(scoundrel_command, tmp_path):
    environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    result = subprocess.run([*scoundrel_command, "check"], check=False, capture_output=True, text=True, timeout=60,
                            env={**environment, "SCOUNDREL_DATA_DIR": str(tmp_path / "no-up-here"),
                                 "REDIS_URL": NO_REDIS_URL})
    assert_one_line_failure(result, "scoundrel check: cannot reach Redis (REDIS_URL)", "Connection refused")
    assert result.stderr.count("\n") == 1


def test_no_up_at_all_is_one_line_naming_the_default_data_dir(scoundrel_command, tmp_path):
    """The default data directory is found as the process starts, under its ``HOME``."""
    home = tmp_path / "home"
    home.mkdir()
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("REDIS_URL", "SCOUNDREL_DATA_DIR", "XDG_DATA_HOME")}
    result = subprocess.run([*scoundrel_command, "moderator", "add", "mia"], check=False, capture_output=True,
                            text=True, timeout=60, env={**environment, "HOME": str(home)})
    default = home / ".local" / "share" / "scoundrel-referee"
    last = assert_one_line_failure(result, f"no scoundrel up is running on {default}",
                                   "start one with scoundrel up, or set REDIS_URL")
    assert "6379" not in result.stderr and result.stderr.strip() == last


def test_the_reference_adapter_passes_every_case(scoundrel):
    result = scoundrel("conformance", "--engine", python_engine())
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert f"{len(cases())} of {len(cases())} cases passed" in result.stdout.decode()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_js_client_passes_every_case(scoundrel):
    result = scoundrel("conformance", "--engine", shlex.join(["node", str(JS_ADAPTER)]))
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert f"{len(cases())} of {len(cases())} cases passed" in result.stdout.decode()


def test_an_engine_reading_wear_as_less_or_equal_fails(scoundrel):
    result = scoundrel("conformance", "--engine", python_engine(WEAR_AS_LESS_OR_EQUAL))
    assert result.returncode == 1
    output = result.stdout.decode()
    assert "FAIL wear-strictly-less [R10]" in output
    assert "legal is" in output


def test_an_engine_that_cannot_start_is_one_line_and_status_2(scoundrel):
    result = scoundrel("conformance", "--engine", "/nonexistent/engine")
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1



ADAPTERS = {
    "reference": shlex.split(python_engine()),
    "js": ["node", str(JS_ADAPTER)],
}


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_an_adapter_refuses_a_move_outside_the_notation_and_answers_the_next_request(adapter):
    if adapter == "js" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    typo = {"case": "typo", "seed": "conformance-0", "variant": "classic", "moves": ["flee", "X99"], "forfeit": False}
    after = conformance.request_of(cases()[0])
    lines = "".join(json.dumps(request) + "\n" for request in (typo, after))
    result = subprocess.run(ADAPTERS[adapter], input=lines, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    refused, answered = [json.loads(line) for line in result.stdout.splitlines()]
    assert refused["illegal"] == {"index": 1, "code": conformance.NOT_IN_NOTATION}
    assert len(refused["states"]) == 2
    assert answered["case"] == after["case"] and conformance.differences(cases()[0], answered) == []
