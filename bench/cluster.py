"""One Redis against a Redis Cluster: submissions and verdicts per second, what a run costs each
Redis (commands, CPU, bytes), and how evenly the keys spread over the cluster's masters.

The same N distinct games are submitted over HTTP (8 threads, keep-alive) by P players to the
real service: on one Redis (``scoundrel up``'s own); with the data on a cluster of M masters and
the queues on a Redis of their own; and on M masters with a replica each, a new run acknowledged
only once its replica has it (``SCOUNDREL_WAIT_REPLICAS=1``: what makes a master lost mid-burst
lose no acknowledged run). The workers are suspended while the runs are submitted, then resumed
and timed until every run has its verdict and its board places. Every Redis's ``INFO
commandstats`` and ``INFO cpu`` before and after give the commands and the Redis CPU a run costs,
summed over the servers; ``used_memory`` the bytes it keeps. The keys per master
(``DBSIZE``) give the spread: the goal is every master within 20 % of their mean.

On this machine one pair of cores runs the API, the workers and every Redis process, so the
cluster cannot show more throughput than one Redis here: it shows what the cluster costs (the
steps a run takes across shards), and the per-run costs from which ``docs/cluster.md``'s
capacity model is worked out. Run it on machines of their own to see scaling.

    .venv/bin/python bench/cluster.py [--runs 2000] [--players 40] [--workers 2] [--masters 3] [--without-replicas]
"""

import argparse
import random
import tempfile
import time
from dataclasses import dataclass

import redis
from rq.suspension import resume, suspend

from _harness import Service, percentiles, submit_all
from cli.redis_server import RedisServer
from scoundrel.strategies import play_game
from store.placing import settled
from throwaway.redis_cluster import RedisClusterServer


def games(count: int) -> list[dict]:
    return [{"seed": f"cluster-{n}", "moves": play_game(f"cluster-{n}", rng=random.Random(n), strategy="greedy")}
            for n in range(count)]


@dataclass
class Usage:
    """What the data's servers have done so far: commands, CPU seconds, bytes in use."""

    commands: int
    cpu: float
    memory: int

    @classmethod
    def of(cls, servers: list[redis.Redis]) -> "Usage":
        commands = cpu = memory = 0
        for server in servers:
            commands += sum(stats["calls"] for stats in server.info("commandstats").values())
            usage = server.info("cpu")
            cpu += usage["used_cpu_user"] + usage["used_cpu_sys"]
            memory += server.info("memory")["used_memory"]
        return cls(int(commands), float(cpu), int(memory))


def measure(label: str, service: Service, data: list[redis.Redis], queue: redis.Redis, players: int,
            bodies: list[dict]) -> dict:
    tokens = [service.register(f"bench-{index}")[1] for index in range(players)]
    db = service.database()
    try:
        suspend(queue)
        before = Usage.of(data)
        submitted = submit_all(service.base, tokens, bodies)
        started = time.perf_counter()
        resume(queue)
        while not settled(db):
            time.sleep(0.02)
        verified = len(bodies) / (time.perf_counter() - started)
        after = Usage.of(data)
    finally:
        db.close()
    runs = len(bodies)
    figures = {"label": label, "submitted": submitted, "verified": verified,
               "commands": (after.commands - before.commands) / runs,
               "cpu_us": (after.cpu - before.cpu) / runs * 1e6, "bytes": (after.memory - before.memory) / runs}
    acceptance = percentiles(service.server_times(lambda path: path == "/v1/runs"))
    print(f"{label}: {submitted:,.0f} submissions/s (server time {acceptance}), {verified:,.0f} verdicts/s; "
          f"per run {figures['commands']:.1f} Redis commands, {figures['cpu_us']:.0f} µs of Redis CPU, "
          f"{figures['bytes']:,.0f} bytes (the data's servers summed)")
    return figures


def spread(masters: list[redis.Redis]) -> str:
    """Keys per master, and the farthest from their mean."""
    sizes = [master.dbsize() for master in masters]
    mean = sum(sizes) / len(sizes)
    farthest = max(abs(size - mean) / mean for size in sizes)
    return f"keys per master {sizes}: farthest {farthest:.0%} from the mean (goal <= 20 %)"


def on_cluster(args, bodies: list[dict], env: dict, replicas: int) -> tuple[dict, str]:
    """The figures on a throwaway cluster of ``args.masters`` masters with ``replicas`` replicas each
    (their servers' usage summed with the masters'), and the keys' spread over the masters."""
    root = tempfile.mkdtemp(prefix="scoundrel-bench-cluster-")
    cluster = RedisClusterServer(f"{root}/cluster", masters=args.masters, replicas=replicas).start()
    queue_server = RedisServer(f"{root}/queue").start()
    try:
        service = Service(workers=args.workers, env={
            **env, "REDIS_URL": cluster.url, "SCOUNDREL_REDIS_CLUSTER": "true",
            "SCOUNDREL_QUEUE_URL": queue_server.url})
        try:
            label = f"cluster of {args.masters} masters" + (
                f", {replicas} replica each, WAIT {env['SCOUNDREL_WAIT_REPLICAS']}" if replicas else "")
            servers = [node.client() for node in cluster.nodes]
            figures = measure(label, service, servers, redis.Redis.from_url(queue_server.url), args.players, bodies)
            return figures, spread([node.client() for node in cluster.nodes[:args.masters]])
        finally:
            service.stop()
    finally:
        cluster.stop()
        queue_server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--masters", type=int, default=3)
    parser.add_argument("--without-replicas", action="store_true",
                        help="skip the cluster with a replica per master and WAIT 1")
    args = parser.parse_args()
    bodies = games(args.runs)
    unlimited = {"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""}

    service = Service(workers=args.workers, env=unlimited)
    try:
        one = redis.Redis.from_url(service.redis_url)
        single = measure("one Redis", service, [one], one, args.players, bodies)
    finally:
        service.stop()
    clustered, spread_line = on_cluster(args, bodies, unlimited, replicas=0)
    print(spread_line)
    print(f"cluster / one Redis: submissions {clustered['submitted'] / single['submitted']:.2f}, "
          f"verdicts {clustered['verified'] / single['verified']:.2f}, "
          f"commands per run {clustered['commands'] / single['commands']:.2f}, "
          f"Redis CPU per run {clustered['cpu_us'] / single['cpu_us']:.2f} "
          f"(one machine of 2 cores for everything: no scaling can show here)")
    if not args.without_replicas:
        waited, _ = on_cluster(args, bodies, {**unlimited, "SCOUNDREL_WAIT_REPLICAS": "1"}, replicas=1)
        print(f"WAIT 1 / no WAIT (replicas' usage included): submissions "
              f"{waited['submitted'] / clustered['submitted']:.2f}, Redis CPU per run "
              f"{waited['cpu_us'] / clustered['cpu_us']:.2f}")


if __name__ == "__main__":
    main()
