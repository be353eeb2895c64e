"""Shared by the benchmark scripts: the real service as processes, and timing.

Benchmarks are scripts, not tests: they print figures, measured in one run
so that ratios between them are fair on a shared, noisy machine.
"""

import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.stack import Stack  # noqa: E402  (the repository root is on sys.path only now)


def start_stack(workers: int = 1, env: dict | None = None) -> Stack:
    return Stack(Path(tempfile.mkdtemp(prefix="scoundrel-bench-")), workers=workers, env=env).start()


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
