"""API throughput: ``POST /v1/runs`` against a trivial endpoint, same server.

Both are driven by the same closed-loop clients (keep-alive connections,
one request in flight each) against the API as ``scoundrel api`` runs it;
the trivial endpoint is ``GET /v1/version``, which touches nothing but
memory. The two alternate over several rounds and the best round of each
counts, since this machine is shared and its throughput swings from one
second to the next. Goal: submissions/s at least 0.5 of the
trivial endpoint.

    .venv/bin/python bench/api.py [--requests 4000] [--clients 8] [--rounds 4]
"""

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor

from _harness import Client, Service, percentiles
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
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()

    moves = play_game("bench-api", rng=random.Random(1), strategy="greedy")
    stack = Service(workers=0, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": "",
                                        "SCOUNDREL_API_WORKERS": "2"})
    try:
        tokens = [stack.register(f"bench-{n}")[1] for n in range(args.clients)]
        per_round = args.requests // args.clients // args.rounds
        trivial = [("GET", "/v1/version", None, {}, 200)] * per_round
        drive(stack.base, [trivial[: per_round // 5]] * args.clients)  # warm up
        best: dict[str, tuple[float, list[float]]] = {}
        for round_ in range(args.rounds):
            # Distinct seeds: every submission is a new run, stored and queued.
            submissions = [
                [("POST", "/v1/runs", {"seed": f"api-{round_}-{c}-{n}", "moves": moves},
                  {"Authorization": f"Bearer {token}"}, 202) for n in range(per_round)]
                for c, token in enumerate(tokens)
            ]
            for name, load in (("GET /v1/version", [trivial] * args.clients), ("POST /v1/runs", submissions)):
                rate, times = drive(stack.base, load)
                if rate > best.get(name, (0.0, []))[0]:
                    best[name] = (rate, times)
        print(f"{args.clients} clients, 2 gunicorn workers (gevent), best of {args.rounds} rounds of "
              f"{per_round * args.clients:,} requests per endpoint")
        for name, (rate, times) in best.items():
            print(f"{name + ':':17} {rate:,.0f} req/s, {percentiles(times)}")
        ratio = best["POST /v1/runs"][0] / best["GET /v1/version"][0]
        print(f"ratio {ratio:.2f} (goal >= 0.5)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
