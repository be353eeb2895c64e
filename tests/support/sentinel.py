"""A throwaway Redis Sentinel setup on free ports: a primary, one replica and three sentinels.

What a deployment with ``SCOUNDREL_SENTINELS`` runs, small enough for a
test: the sentinels watch the primary under one master name (``sentinel
monitor NAME 127.0.0.1 PORT 2``: two of the three must agree it is down),
call it down after ``down_after_ms`` without an answer, and promote the
replica. A test kills the primary (``kill_primary``, SIGKILL) and waits
for the promotion the way a client sees it: the sentinels naming another
address (``wait_promotion``). Never on 6379: every server picks a free port
(``cli.redis_server``), a sentinel's written into its config file, which
Sentinel requires and rewrites as it learns the replicas and its peers.
"""

from pathlib import Path

import redis

from cli.redis_server import RedisServer, find_redis_server
from tests.support.waiting import until

MASTER_NAME = "scoundrel"
QUORUM = 2  # sentinels that must agree the primary is down before a failover
SENTINELS = 3


class WatchedServer(RedisServer):
    """A Redis the sentinels watch: one that syncs a replica at once (Redis's default waits 5 s for
    more replicas to share the transfer)."""

    def command(self) -> list[str]:
        return [*super().command(), "--repl-diskless-sync-delay", "0"]


class ReplicaServer(WatchedServer):
    """A redis-server started as the replica of the Redis on ``primary_port``."""

    def __init__(self, data_dir: Path, primary_port: int, port: int | None = None):
        super().__init__(data_dir, port=port, persistent=True)
        self.primary_port = primary_port

    def command(self) -> list[str]:
        return [*super().command(), "--replicaof", "127.0.0.1", str(self.primary_port)]


class SentinelServer(RedisServer):
    """One ``redis-server --sentinel``, watching the master at ``primary_port`` as ``master_name``."""

    def __init__(self, data_dir: Path, master_name: str, primary_port: int, down_after_ms: int,
                 failover_timeout_ms: int):
        super().__init__(data_dir, persistent=False)
        self.master_name = master_name
        self.primary_port = primary_port
        self.down_after_ms = down_after_ms
        self.failover_timeout_ms = failover_timeout_ms

    @property
    def config(self) -> Path:
        return self.data_dir / "sentinel.conf"

    def command(self) -> list[str]:
        """Written afresh at each start attempt: the port may have changed (``RedisServer.start``)."""
        name = self.master_name
        self.config.write_text("\n".join([
            "bind 127.0.0.1", f"port {self.port}", f"dir {self.data_dir}", "protected-mode yes",
            f"sentinel monitor {name} 127.0.0.1 {self.primary_port} {QUORUM}",
            f"sentinel down-after-milliseconds {name} {self.down_after_ms}",
            f"sentinel failover-timeout {name} {self.failover_timeout_ms}",
            f"sentinel parallel-syncs {name} 1",
        ]) + "\n")
        return [self.binary or find_redis_server(), str(self.config), "--sentinel", "--loglevel", "warning"]


class SentinelSetup:
    """The primary, its replica and three sentinels under ``root``; ``servers`` holds the two Redis,
    whichever of them the sentinels name the master now (``primary``)."""

    def __init__(self, root: Path, master_name: str = MASTER_NAME, down_after_ms: int = 1000,
                 failover_timeout_ms: int = 3000):
        self.root = Path(root)
        self.master_name = master_name
        first = WatchedServer(self.root / "primary", persistent=True)
        self.servers = [first, ReplicaServer(self.root / "replica", first.port)]
        self.sentinels = [SentinelServer(self.root / f"sentinel-{index}", master_name, first.port, down_after_ms,
                                         failover_timeout_ms) for index in range(SENTINELS)]

    # what a process of the service is given

    @property
    def endpoints(self) -> tuple[tuple[str, int], ...]:
        """The sentinels' addresses, as ``Settings.sentinels`` holds them."""
        return tuple(("127.0.0.1", sentinel.port) for sentinel in self.sentinels)

    def env(self) -> dict[str, str]:
        """``SCOUNDREL_SENTINELS`` (``127.0.0.1:PORT,...``) and ``SCOUNDREL_SENTINEL_MASTER``."""
        return {"SCOUNDREL_SENTINELS": ",".join(f"{host}:{port}" for host, port in self.endpoints),
                "SCOUNDREL_SENTINEL_MASTER": self.master_name}

    # starting and stopping

    def start(self, timeout: float = 20.0) -> "SentinelSetup":
        """The primary, its replica synced, then the sentinels, each naming the primary: a client
        finds the master at once (a failover needs ``wait_ready_to_fail_over`` too)."""
        primary, replica = self.servers
        primary.start()
        replica.primary_port = primary.port  # the port it took, had the first been taken meanwhile
        replica.start()
        for sentinel in self.sentinels:
            sentinel.primary_port = primary.port
            sentinel.start()
        try:
            self._wait(lambda: self._synced(replica) and self.named_by_all() == ("127.0.0.1", primary.port),
                       timeout, "the replica synced and every sentinel naming the primary")
        except AssertionError:
            self.stop()
            raise
        return self

    def wait_ready_to_fail_over(self, timeout: float = 30.0) -> None:
        """Until every sentinel knows the replica and its two peers (they find them through the
        primary's INFO and its hello channel, every 2 s) and finds the quorum reachable
        (``SENTINEL CKQUORUM``): only then can a lost primary be replaced."""
        def ready(sentinel: SentinelServer) -> bool:
            replicas = _ask(sentinel.port, "SENTINEL", "REPLICAS", self.master_name)
            peers = _ask(sentinel.port, "SENTINEL", "SENTINELS", self.master_name)
            _ask(sentinel.port, "SENTINEL", "CKQUORUM", self.master_name)  # raises while it is not
            return len(replicas) == len(self.servers) - 1 and len(peers) == SENTINELS - 1

        self._wait(lambda: all(ready(sentinel) for sentinel in self.sentinels), timeout,
                   "every sentinel knowing the replica and its peers")

    def stop(self) -> None:
        for server in [*self.sentinels, *self.servers]:
            server.stop()

    def processes(self) -> list:
        return [server.process for server in [*self.servers, *self.sentinels]]

    # the master, as the sentinels name it

    def named_by_all(self) -> tuple[str, int] | None:
        """The master's address if every sentinel names the same one, else None."""
        named = set()
        for sentinel in self.sentinels:
            try:
                host, port = _ask(sentinel.port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.master_name)
            except (redis.RedisError, TypeError):  # no answer, or no address (None)
                return None
            named.add((host.decode(), int(port)))
        return named.pop() if len(named) == 1 else None

    @property
    def primary(self) -> RedisServer:
        """The Redis the sentinels name the master now."""
        address = self.named_by_all()
        assert address is not None, "the sentinels do not agree on a master"
        return next(server for server in self.servers if server.port == address[1])

    def kill_primary(self) -> RedisServer:
        """SIGKILL the master the sentinels name: no shutdown, nothing flushed. Returns it."""
        victim = self.primary
        victim.kill()
        return victim

    def wait_promotion(self, lost: RedisServer, timeout: float = 30.0) -> RedisServer:
        """Until every sentinel names another master than ``lost`` and that Redis says it is one
        (its replication role): the failover as a client sees it. Returns the promoted Redis."""
        def promoted() -> bool:
            address = self.named_by_all()
            return (address is not None and address[1] != lost.port
                    and _replication(address[1])["role"] == "master")

        self._wait(promoted, timeout, f"a replica promoted in place of the Redis on port {lost.port}")
        return self.primary

    def rejoin(self, lost: RedisServer, timeout: float = 20.0) -> None:
        """``lost`` started again as the replica of the promoted master, and synced with it: as an
        operator brings a failed node back (Sentinel would make it a replica on its own, after
        seeing it answer as a master for 8 s)."""
        promoted = self.primary
        replica = ReplicaServer(lost.data_dir, promoted.port, port=lost.port)  # where the sentinels know it
        self.servers[self.servers.index(lost)] = replica.start()
        self._wait(lambda: self._synced(replica), timeout, f"the Redis on port {lost.port} synced as a replica")

    # waiting

    @staticmethod
    def _synced(replica: RedisServer) -> bool:
        return _replication(replica.port).get("master_link_status") == "up"

    @staticmethod
    def _wait(condition, timeout: float, what: str) -> None:
        """Until ``condition()`` holds, a server that does not answer meanwhile (killed, starting) as not yet."""
        def holds() -> bool:
            try:
                return condition()
            except redis.RedisError:
                return False

        until(holds, what, timeout)


def _ask(port: int, *command):
    """One command to the server on ``port``, on a connection of its own: a short timeout and no retry,
    since a server being killed may never answer."""
    with redis.Redis(port=port, socket_connect_timeout=0.5, socket_timeout=0.5) as client:
        return client.execute_command(*command)


def _replication(port: int) -> dict:
    """The ``INFO replication`` of the Redis on ``port``."""
    with redis.Redis(port=port, socket_connect_timeout=0.5, socket_timeout=0.5) as client:
        return client.info("replication")
