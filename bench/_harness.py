"""Shared by the benchmark scripts: the real service as processes, and timing.

Benchmarks are scripts, not tests: they print figures, measured in one run
so that ratios between them are fair on a shared, noisy machine. They
measure the service as one machine runs it, ``scoundrel up`` (a private
Redis, the API under gunicorn, RQ workers), in a throwaway data directory.

The test suite runs every bench at a tiny size, where starting a service
costs more than the bench itself: it hands a bench a running, empty one
through ``SCOUNDREL_BENCH_SERVICE`` instead (see ``Service``).
"""

import collections
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cli.redis_server import find_redis_server, free_port  # noqa: E402  (the repository root is on sys.path only now)
from settings import REDIS_URL_FILE, Settings  # noqa: E402
from throwaway.forked import fork  # noqa: E402

# One gunicorn process, rate limits far above what a bench sends, webhooks allowed to the benches'
# receivers on 127.0.0.1, and 30 s for a Redis call (a shared machine: no 503 on a slow batch), unless a bench
# sets its own.
# Every process logs at INFO (``scoundrel up`` logs warnings only by default): the benches read the API's
# request log and the workers' verdict lines.
DEFAULTS = {"SCOUNDREL_API_WORKERS": "1", "SCOUNDREL_WEBHOOK_ALLOW": "127.0.0.1", "SCOUNDREL_LOG_LEVEL": "INFO",
            "SCOUNDREL_RATE_LIMIT_ADDRESS": "100000/second", "SCOUNDREL_RATE_LIMIT_TOKEN": "100000/second",
            "SCOUNDREL_RATE_LIMIT_PAR": "100000/second", "SCOUNDREL_REDIS_TIMEOUT": "30"}


# A running service handed to the bench, as JSON: {"base", "redis_url", "data_dir", "archive_url", "log", "logs",
# "workers", "env"} (``log`` the API's, ``logs`` every process's): what ``Service`` would start, given by whoever
# started it (the test suite's smoke run).
GIVEN_SERVICE = "SCOUNDREL_BENCH_SERVICE"

# A PostgreSQL cluster (``throwaway.postgres.cluster_template``) that a bench's throwaway PostgreSQL server
# starts on a copy of, rather than run ``initdb`` (most of a second of CPU): given by whoever keeps one (the test
# suite's smoke run, whose processes make one a session).
POSTGRES_TEMPLATE = "SCOUNDREL_BENCH_POSTGRES_TEMPLATE"


def checkout_argument(path: str) -> Path:
    """``--against PATH``: another checkout of the service with its own ``.venv`` (``python3 -m venv .venv
    && .venv/bin/pip install -e .`` there), whose ``scoundrel`` a bench runs beside this one's."""
    checkout = Path(path).resolve()
    if not (checkout / ".venv" / "bin" / "scoundrel").is_file():
        raise SystemExit(f"{checkout} has no .venv/bin/scoundrel: install that checkout in a venv of its own first")
    return checkout


def label(checkout: Path | None) -> str:
    """What a bench's lines call a checkout: ``this`` one, or the other by its commit."""
    if checkout is None:
        return "this checkout"
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    return f"{checkout.name} ({commit or 'not a git checkout'})"


class Service:
    """One ``scoundrel up`` on a free port: ``base`` its API, ``redis_url`` its private Redis (or the
    data's Redis ``env`` names), ``log`` what it and its processes print
    (the API's JSON request log among it), ``logs`` every file they print to.

    Or the service ``SCOUNDREL_BENCH_SERVICE`` hands over (``_use_given``), unless ``env`` names an archive
    of the bench's own (``SCOUNDREL_ARCHIVE_URL``: a PostgreSQL it started, a tree it wrote): a given
    service's archive is the one whoever started it chose.

    ``checkout``: another checkout's ``scoundrel`` (``checkout_argument``), run in that checkout,
    instead of this one's: the same bench then measures both in one run."""

    def __init__(self, workers: int, env: dict | None = None, checkout: Path | None = None):
        self.checkout = checkout
        given = os.environ.get(GIVEN_SERVICE)
        if given and checkout is None and "SCOUNDREL_ARCHIVE_URL" not in (env or {}):
            self._use_given(json.loads(given), workers, env or {})
            return
        self.root = Path(tempfile.mkdtemp(prefix="scoundrel-bench-"))
        self.data_dir = self.root / "data"
        self.base = f"http://127.0.0.1:{free_port()}"
        self.log = self.root / "up.log"
        self.logs = [self.log]
        self.env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", GIVEN_SERVICE)}
        self.env.update({**DEFAULTS, **(env or {})})
        scoundrel = [sys.executable, "-m", "cli.main"] if checkout is None else [
            str(checkout / ".venv" / "bin" / "scoundrel")]
        # the redis-server on PATH, as the figures were measured, else the embedded one
        command = [*scoundrel, "up", "--port", self.base.rsplit(":", 1)[1],
                   "--data-dir", str(self.data_dir), "--workers", str(workers), "--redis-server", find_redis_server()]
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, cwd=checkout or ROOT)
        try:
            self._wait_up()
        except RuntimeError:
            self.stop()
            raise
        self.redis_url = self.env.get("REDIS_URL") or (self.data_dir / REDIS_URL_FILE).read_text().strip()

    def _use_given(self, service: dict, workers: int, env: dict) -> None:
        """The service ``SCOUNDREL_BENCH_SERVICE`` describes, instead of one started here: empty,
        started by someone else with these same ``workers`` and ``env`` (anything else is refused,
        so that a bench never measures a service set up otherwise than it asks), and left running
        by ``stop``."""
        if (service["workers"], service["env"]) != (workers, env):
            raise RuntimeError(f"{GIVEN_SERVICE} runs {service['workers']} workers with {service['env']}; "
                               f"this bench asks for {workers} with {env}")
        self.process = None
        self.base, self.redis_url, self.log = service["base"], service["redis_url"], Path(service["log"])
        self.logs = [Path(log) for log in service["logs"]]
        self.data_dir = Path(service["data_dir"])
        self.env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", GIVEN_SERVICE)}
        self.env.update({**DEFAULTS, **env, "SCOUNDREL_ARCHIVE_URL": service["archive_url"]})

    def _wait_up(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"scoundrel up exited: {self.log.read_text(errors='replace')[-2000:]}")
            if "is up" in self.log.read_text(errors="replace"):
                return
            time.sleep(0.1)
        raise RuntimeError("scoundrel up was not up in time")

    def database(self, timeout: float | None = None):
        """A connection to this service's Redis and archive, made the way every process makes one
        (``timeout``: seconds a Redis call may take, for a bench's bulk pipelines)."""
        from store import Database
        from worker.registry import JOBS

        return Database.from_settings(Settings(redis_url=self.redis_url, data_dir=str(self.data_dir),
                                               archive_url=self.env.get("SCOUNDREL_ARCHIVE_URL", ""),
                                               queue_url=self.env.get("SCOUNDREL_QUEUE_URL", "")), JOBS,
                                      timeout=timeout)

    def server_times(self, path_matches: Callable[[str], bool]) -> list[float]:
        """The server time (ms) of every request so far whose path ``path_matches``, in order, from
        the API's JSON request log (``duration_ms``: from the request's first hook to its last)."""
        times = []
        for line in self.log.read_text().splitlines():
            if line.startswith("{"):
                entry = json.loads(line)
                if path_matches(entry.get("path", "")):
                    times.append(entry["duration_ms"])
        return times

    def verdicts_logged(self) -> collections.Counter:
        """The verdicts the workers have logged so far by status (``verdict recorded``, once a verdict
        and its board places are written): read from their log, so that waiting for the workers sends
        the Redis being measured nothing, whatever the checkout's layout of keys."""
        self._log_ends = getattr(self, "_log_ends", {})
        self._verdicts = getattr(self, "_verdicts", collections.Counter())
        for log in self.logs:
            with open(log, "rb") as lines:
                lines.seek(self._log_ends.get(log, 0))
                read = lines.read()
            end = read.rfind(b"\n") + 1  # a line being written is counted once it is whole
            self._log_ends[log] = self._log_ends.get(log, 0) + end
            self._verdicts.update(json.loads(line).get("status", "") for line in read[:end].splitlines()
                                  if b'"verdict recorded"' in line)
        return self._verdicts

    def wait_for_verdicts(self, count: int, timeout: float = 3600.0) -> None:
        """Until the workers have logged ``count`` verdicts since the service started."""
        deadline = time.monotonic() + timeout
        while (logged := self.verdicts_logged().total()) < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{logged} verdicts of {count} after {timeout:.0f} s")
            time.sleep(0.01)

    def command(self, *args: str) -> str:
        """Run a ``scoundrel`` command of this service's checkout on its Redis and archive; its output.

        This checkout's runs in a process forked from the bench's (``forked_command``); another's is
        that checkout's ``scoundrel``."""
        env = {**self.env, "REDIS_URL": self.redis_url}
        if self.checkout is None:
            return forked_command(list(args), env)
        return subprocess.run([str(self.checkout / ".venv" / "bin" / "scoundrel"), *args], env=env,
                              cwd=self.checkout, capture_output=True, text=True, check=True).stdout

    def register(self, name: str) -> tuple[str, str]:
        """A new player: ``(name, token)``."""
        status, body = Client(self.base).request("POST", "/v1/players", {"name": name})
        assert status == 201, body
        return name, json.loads(body)["token"]

    def stop(self) -> None:
        """SIGTERM, as Ctrl-C would: ``up`` stops the API and the workers, then Redis (a given
        service is left to whoever started it)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def forked_command(args: list[str], env: dict) -> str:
    """``scoundrel ARGS`` with ``env`` as its whole environment, from the repository's root: its output, or
    ``subprocess.CalledProcessError`` for a status other than 0, as ``subprocess.run(..., check=True)`` gives.

    The same code from its argument parsing to its exit status (``cli.main.main``), in a process forked from
    this one (``throwaway.forked``), which has imported most of what the command imports: a command started anew
    spends most of a second of CPU importing the service first, no part of what a bench measures."""
    from cli.main import main

    def command() -> None:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(ROOT)
        sys.exit(main(args))

    with tempfile.TemporaryDirectory(prefix="scoundrel-command-") as directory:
        out, err = Path(directory) / "stdout", Path(directory) / "stderr"
        status = os.waitstatus_to_exitcode(os.waitpid(fork(command, {}, out, err), 0)[1])
        if status != 0:
            raise subprocess.CalledProcessError(status, ["scoundrel", *args], out.read_text(), err.read_text())
        return out.read_text()


class Client:
    """A keep-alive HTTP/1.1 connection: what a busy game backend would hold open."""

    def __init__(self, base: str):
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def request(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        payload = json.dumps(body) if body is not None else None
        all_headers = {"Content-Type": "application/json", **(headers or {})} if payload else (headers or {})
        self.connection.request(method, path, body=payload, headers=all_headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        """Hang up: a connection left open holds ``Service.stop`` up for gunicorn's graceful timeout (5 s)."""
        self.connection.close()


def kind_of(key: str) -> str:
    """A key's kind: ``{scoundrel}:run:…`` → ``run`` (whatever its tag: a shard's too), ``rq:job:…`` → ``rq:job``."""
    if key.startswith("{"):
        return key.split("}", 1)[1].lstrip(":").split(":")[0] or key
    return ":".join(key.split(":")[:2])


def submit_all(base: str, tokens: list[str], bodies: list[dict], threads: int = 8) -> float:
    """Submit each body over keep-alive connections from ``threads`` threads, by each player (their
    ``tokens``) in turn; submissions/s. Each must be accepted (202)."""
    def submit_share(share: list[tuple[str, dict]]) -> None:
        client = Client(base)
        for token, body in share:
            status, text = client.request("POST", "/v1/runs", body, {"Authorization": f"Bearer {token}"})
            assert status == 202, (status, text[:200])

    work = [(tokens[index % len(tokens)], body) for index, body in enumerate(bodies)]
    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(submit_share, [work[i::threads] for i in range(threads)]))
    return len(bodies) / (time.perf_counter() - started)


def latencies_ms(call, count: int) -> list[float]:
    """Wall time of ``count`` sequential calls, in milliseconds."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered):.2f} ms, p99 {p99:.2f} ms"


def verdict_waits_ms(stack: Service, token: str, bodies: list[dict], gap: float = 0.01) -> list[float]:
    """Submit one at a time, ``gap`` seconds apart; each run's ms from submission to verdict (server times: the
    run's submission, taken just before its 202, to its verdict's audit entry)."""
    from store import load_runs  # the store (SQLAlchemy, redis-py): loaded by the benches that read it, not by all

    client = Client(stack.base)
    run_ids = []
    for body in bodies:
        status, text = client.request("POST", "/v1/runs", body, {"Authorization": f"Bearer {token}"})
        assert status == 202, (status, text[:200])
        run_ids.append(json.loads(text)["id"])
        time.sleep(gap)
    db = stack.database()
    try:
        while any(run.verified_ms is None for run in load_runs(db, run_ids)):
            time.sleep(0.05)
        return [float(run.verified_ms - run.submitted_ms) for run in load_runs(db, run_ids)]
    finally:
        db.close()
