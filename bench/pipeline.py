"""Pipeline throughput: verified runs per second against the queue's ceiling.

N distinct games are submitted over HTTP while the workers are suspended;
then the W workers are resumed and the drain is timed until every run has
its verdict. The ceiling is the same drain of N no-op RQ jobs by the same
workers. The batch path does the same with N other games sent with
``POST /v1/runs/batch`` (1,000 a request). Goals: single
submissions at least 0.6 of the ceiling, the batch path at least 5 times it.
Also prints Redis bytes per stored (verified) run.

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

from _harness import Client, Service
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


def submit_batches(base: str, token: str, bodies: list[dict], size: int = 1000) -> float:
    """Submit in batches of ``size`` over one connection; returns submissions/s."""
    client = Client(base)
    started = time.perf_counter()
    for first in range(0, len(bodies), size):
        status, text = client.request("POST", "/v1/runs/batch", {"runs": bodies[first:first + size]},
                                      {"Authorization": f"Bearer {token}"})
        assert status == 200 and b'"invalid":0' in text.replace(b" ", b""), (status, text[:200])
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

    bodies = games(2 * args.runs)
    single, batched = bodies[: args.runs], bodies[args.runs:]
    stack = Service(workers=args.workers,
                        env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        connection = redis.Redis.from_url(stack.redis_url)
        queue = Queue("verify", connection=connection)
        _, token = stack.register("bench")

        memory_before = connection.info("memory")["used_memory"]
        suspend(connection)
        rate = submit_all(stack.base, token, single)
        print(f"submitted {args.runs:,} runs over HTTP one by one: {rate:,.0f} submissions/s")
        verified = args.runs / drain_seconds(connection, queue)
        per_run = (connection.info("memory")["used_memory"] - memory_before) / args.runs
        print(f"Redis memory: {per_run:,.0f} bytes per stored verified run (run, audit log, indexes)")

        suspend(connection)
        rate = submit_batches(stack.base, token, batched)
        print(f"submitted {args.runs:,} runs over HTTP in batches of 1,000: {rate:,.0f} submissions/s")
        batch_verified = args.runs / drain_seconds(connection, queue)

        suspend(connection)
        queue.enqueue_many([Queue.prepare_data("time.sleep", (0,), result_ttl=0) for _ in range(args.runs)])
        ceiling = args.runs / drain_seconds(connection, queue)

        print(f"{args.workers} workers, ceiling (no-op jobs): {ceiling:,.0f} jobs/s")
        print(f"single submissions: {verified:,.0f} verified runs/s, {verified / ceiling:.2f} of the ceiling "
              f"(goal >= 0.6)")
        print(f"batch submissions:  {batch_verified:,.0f} verified runs/s, {batch_verified / ceiling:.1f} times "
              f"the ceiling (goal >= 5)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
