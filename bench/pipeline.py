"""Pipeline throughput: verified runs per second against the queue's ceiling.

N distinct games are submitted over HTTP while the workers are suspended;
then the W workers are resumed and the drain is timed until every run has
its verdict. The ceiling is the same drain of N no-op RQ jobs by the same
workers. Goal (issue 6): verified runs/s at least 0.6 of the ceiling.

    .venv/bin/python bench/pipeline.py [--runs 3000] [--workers 2]
"""

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor

import redis
from rq import Queue
from rq.registry import StartedJobRegistry
from rq.suspension import resume, suspend

from _harness import Client, start_stack
from scoundrel.strategies import play_game


def games(count: int) -> list[dict]:
    return [{"seed": f"bench-{n}", "moves": play_game(f"bench-{n}", rng=random.Random(n), strategy="greedy")}
            for n in range(count)]


def submit_all(base: str, token: str, bodies: list[dict], threads: int = 8) -> float:
    """Submit over keep-alive connections from ``threads`` threads; returns submissions/s."""
    def submit_share(share: list[dict]) -> None:
        client = Client(base)
        for body in share:
            status, text = client.request("POST", "/v1/runs", body, {"Authorization": f"Bearer {token}"})
            assert status == 202, (status, text[:200])

    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(submit_share, [bodies[i::threads] for i in range(threads)]))
    return len(bodies) / (time.perf_counter() - started)


def drain_seconds(connection: redis.Redis, queue: Queue) -> float:
    """Resume the workers and time them until the queue and their hands are empty."""
    started_jobs = StartedJobRegistry(queue=queue)
    started = time.perf_counter()
    resume(connection)
    while queue.count or started_jobs.count:
        time.sleep(0.01)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    bodies = games(args.runs)
    stack = start_stack(workers=args.workers, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        connection = redis.Redis.from_url(stack.redis.url)
        queue = Queue("verify", connection=connection)
        _, token = stack.register("bench")

        suspend(connection)
        rate = submit_all(stack.base, token, bodies)
        print(f"submitted {args.runs:,} runs over HTTP: {rate:,.0f} submissions/s")
        verified = args.runs / drain_seconds(connection, queue)

        suspend(connection)
        queue.enqueue_many([Queue.prepare_data("time.sleep", (0,), result_ttl=0) for _ in range(args.runs)])
        ceiling = args.runs / drain_seconds(connection, queue)

        print(f"{args.workers} workers: {verified:,.0f} verified runs/s; ceiling (no-op jobs) {ceiling:,.0f} jobs/s; "
              f"ratio {verified / ceiling:.2f} (goal >= 0.6)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
