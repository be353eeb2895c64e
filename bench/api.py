"""API throughput: ``POST /v1/runs`` against a trivial endpoint, same server.

Both are driven by the same closed-loop clients (keep-alive connections,
one request in flight each) against the API as ``scoundrel api`` runs it;
the trivial endpoint is ``GET /v1/version``, which touches nothing but
memory. Goal (issue 6): submissions/s at least 0.5 of the trivial endpoint.

    .venv/bin/python bench/api.py [--requests 4000] [--clients 8]
"""

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor

from _harness import Client, percentiles, start_stack
from scoundrel.strategies import play_game


def drive(base: str, requests_of_client: list[list[tuple]], ) -> tuple[float, list[float]]:
    """Send every client's requests from its own thread; ``(requests/s, latencies in ms)``."""
    def run_client(requests: list[tuple]) -> list[float]:
        client = Client(base)
        times = []
        for method, path, body, headers, expected in requests:
            start = time.perf_counter()
            status, text = client.request(method, path, body, headers)
            times.append((time.perf_counter() - start) * 1000)
            assert status == expected, (status, text[:200])
        return times

    started = time.perf_counter()
    with ThreadPoolExecutor(len(requests_of_client)) as pool:
        times = [t for share in pool.map(run_client, requests_of_client) for t in share]
    return len(times) / (time.perf_counter() - started), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()

    moves = play_game("bench-api", rng=random.Random(1), strategy="greedy")
    stack = start_stack(workers=0, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": "",
                                        "SCOUNDREL_API_WORKERS": "2"})
    try:
        tokens = [stack.register(f"bench-{n}")[1] for n in range(args.clients)]
        per_client = args.requests // args.clients
        trivial = [[("GET", "/v1/version", None, {}, 200)] * per_client for _ in tokens]
        # Distinct seeds: every submission is a new run, stored and queued.
        submissions = [
            [("POST", "/v1/runs", {"seed": f"api-{c}-{n}", "moves": moves}, {"Authorization": f"Bearer {token}"}, 202)
             for n in range(per_client)]
            for c, token in enumerate(tokens)
        ]
        drive(stack.base, [share[: per_client // 10] for share in trivial])  # warm up
        trivial_rate, trivial_times = drive(stack.base, trivial)
        submit_rate, submit_times = drive(stack.base, submissions)
        print(f"{args.clients} clients, 2 gunicorn workers x 8 threads, {per_client * args.clients:,} requests per endpoint")
        print(f"GET /v1/version: {trivial_rate:,.0f} req/s, {percentiles(trivial_times)}")
        print(f"POST /v1/runs:   {submit_rate:,.0f} req/s, {percentiles(submit_times)}")
        print(f"ratio {submit_rate / trivial_rate:.2f} (goal >= 0.5)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
