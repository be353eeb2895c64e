"""API throughput: ``POST /v1/runs`` against a trivial endpoint, same server.

Both are driven by the same closed-loop clients (keep-alive connections,
one request in flight each) against the API as ``scoundrel api`` runs it;
the trivial endpoint is ``GET /v1/version``, which touches nothing but
memory. The two alternate over several rounds and the best round of each
counts, since this machine is shared and its throughput swings from one
second to the next. Goal: submissions/s at least 0.5 of the
trivial endpoint. With ``--against PATH`` (another checkout, run with its
own venv's ``scoundrel``) both APIs run at once and their rounds alternate.

    .venv/bin/python bench/api.py [--requests 4000] [--clients 8] [--rounds 3] [--against PATH]
"""

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _harness import Client, Service, checkout_argument, label, percentiles
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


class Side:
    """One checkout's API (no workers: the runs wait in the intake), its clients' tokens and best rounds."""

    def __init__(self, checkout: Path | None, clients: int):
        self.name = label(checkout)
        self.stack = Service(workers=0, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": "",
                                             "SCOUNDREL_API_WORKERS": "2"}, checkout=checkout)
        self.tokens = [self.stack.register(f"bench-{n}")[1] for n in range(clients)]
        self.best: dict[str, tuple[float, list[float]]] = {}

    def measure(self, round_: int, per_round: int, moves: list[str]) -> None:
        trivial = [("GET", "/v1/version", None, {}, 200)] * per_round
        # Distinct seeds: every submission is a new run, stored and queued.
        submissions = [
            [("POST", "/v1/runs", {"seed": f"api-{round_}-{c}-{n}", "moves": moves},
              {"Authorization": f"Bearer {token}"}, 202) for n in range(per_round)]
            for c, token in enumerate(self.tokens)
        ]
        for name, load in (("GET /v1/version", [trivial] * len(self.tokens)), ("POST /v1/runs", submissions)):
            rate, times = drive(self.stack.base, load)
            if rate > self.best.get(name, (0.0, []))[0]:
                self.best[name] = (rate, times)

    def ratio(self) -> float:
        return self.best["POST /v1/runs"][0] / self.best["GET /v1/version"][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=checkout_argument, help="another checkout, measured beside this one")
    args = parser.parse_args()

    moves = play_game("bench-api", rng=random.Random(1), strategy="greedy")
    sides: list[Side] = []
    try:
        for checkout in (None, args.against) if args.against else (None,):
            sides.append(Side(checkout, args.clients))
        per_round = args.requests // args.clients // args.rounds
        for side in sides:  # warm up
            drive(side.stack.base, [[("GET", "/v1/version", None, {}, 200)] * (per_round // 5)] * args.clients)
        for round_ in range(args.rounds):
            for side in sides if round_ % 2 == 0 else sides[::-1]:  # the sides' order swapped each round
                side.measure(round_, per_round, moves)
        print(f"{args.clients} clients, 2 gunicorn workers (gevent), best of {args.rounds} rounds of "
              f"{per_round * args.clients:,} requests per endpoint" + (", the checkouts' rounds alternating"
                                                                      if len(sides) > 1 else ""))
        for side in sides:
            print(f"{side.name}:")
            for name, (rate, times) in side.best.items():
                print(f"  {name + ':':17} {rate:,.0f} req/s, {percentiles(times)}")
            print(f"  ratio **{side.ratio():.2f}** (goal >= 0.5)")
    finally:
        for side in sides:
            side.stack.stop()


if __name__ == "__main__":
    main()
