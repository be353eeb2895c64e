"""Pipeline throughput: verified runs per second against the queue's ceiling, and a run's wait for its verdict.

N distinct games are submitted over HTTP one by one while the workers are
suspended (their dispatchers too: the runs wait in the intake); then the W
workers are resumed and the drain is timed until every run has its verdict,
the dispatchers' work of turning the intake into jobs included. The ceiling
is the same drain of N no-op RQ jobs by the same workers. The batch path
does the same with N other games sent with ``POST /v1/runs/batch`` (1,000 a
request). Goals: single submissions at least 3 times the ceiling, the batch
path at least 5 times it. Also prints Redis bytes per stored (verified)
run, and, on the quiet stack afterwards, the wait from submission to verdict
of single submissions sent one at a time (server times: the run's
submission, taken just before its 202, to its verdict's audit entry).

    .venv/bin/python bench/pipeline.py [--runs 3000] [--workers 2] [--quiet-runs 300]
"""

import argparse
import random
import time

import redis
from rq import Queue
from rq.registry import StartedJobRegistry
from rq.suspension import resume, suspend

from _harness import Client, Service, percentiles, submit_all, verdict_waits_ms
from scoundrel.strategies import play_game
from store.queue.pending import pending_count


def games(count: int) -> list[dict]:
    return [{"seed": f"bench-{n}", "moves": play_game(f"bench-{n}", rng=random.Random(n), strategy="greedy")}
            for n in range(count)]


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
    """Resume the workers and time them until no run is pending and the queue and their hands are empty."""
    started_jobs = StartedJobRegistry(queue=queue)
    started = time.perf_counter()
    resume(connection)
    while pending_count(connection) or queue.count or started_jobs.count:
        time.sleep(0.01)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quiet-runs", type=int, default=300)
    args = parser.parse_args()

    bodies = games(2 * args.runs + args.quiet_runs)
    single, batched, quiet = bodies[: args.runs], bodies[args.runs:2 * args.runs], bodies[2 * args.runs:]
    stack = Service(workers=args.workers,
                        env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        connection = redis.Redis.from_url(stack.redis_url)
        queue = Queue("verify", connection=connection)
        _, token = stack.register("bench")

        memory_before = connection.info("memory")["used_memory"]
        suspend(connection)
        rate = submit_all(stack.base, [token], single)
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
        print(f"single submissions: {verified:,.0f} verified runs/s, {verified / ceiling:.1f} times the ceiling "
              f"(goal >= 3)")
        print(f"batch submissions:  {batch_verified:,.0f} verified runs/s, {batch_verified / ceiling:.1f} times "
              f"the ceiling (goal >= 5)")
        waits = verdict_waits_ms(stack, token, quiet)
        print(f"quiet stack, {len(waits)} single submissions 10 ms apart, submission to verdict: "
              f"{percentiles(waits)} (goal: p99 < 200 ms)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
