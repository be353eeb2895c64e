"""A throwaway Redis Cluster on free ports: the source of ``scoundrel move-off-cluster``'s tests, filled
as a deployment of the older cluster layout left it (the service itself runs on one Redis).

``masters`` nodes share the 16,384 slots in equal ranges (as ``redis-cli
--cluster create`` gives them), each with ``replicas`` replicas. The nodes are
joined over redis-py (CLUSTER MEET, ADDSLOTSRANGE, REPLICATE), the steps
``redis-cli --cluster create`` takes, so no ``redis-cli`` is needed.

A node's cluster bus listens on its port + 10,000, so every port is at most
55,535 and its bus port is free too.
"""

import socket
import time
from pathlib import Path

import redis
from redis.crc import key_slot

from cli.redis_server import RedisServer

SLOTS = 16384
HIGHEST_PORT = 65535 - 10_000  # a node's bus port is its port + 10,000


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_port() -> int:
    """A free port whose bus port (+ 10,000) is free too."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port <= HIGHEST_PORT and _free(port + 10_000):
            return port


class ClusterNode(RedisServer):
    """One ``redis-server --cluster-enabled yes``; ``node_timeout``: ms before its peers call it failed."""

    def __init__(self, data_dir: Path, node_timeout: int, persistent: bool):
        super().__init__(data_dir, persistent=persistent)
        self.node_timeout = node_timeout

    @staticmethod
    def pick_port() -> int:
        return cluster_port()

    def command(self) -> list[str]:
        return [*super().command(), "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(self.node_timeout)]

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=2)


class RedisClusterServer:
    """``masters`` × (1 + ``replicas``) nodes under ``root``, joined into one cluster."""

    def __init__(self, root: Path, masters: int = 3, replicas: int = 0, node_timeout: int = 1000,
                 persistent: bool = True):
        self.root = Path(root)
        self.masters = masters
        self.replicas = replicas
        self.nodes = [ClusterNode(self.root / f"node-{index}", node_timeout, persistent)
                      for index in range(masters * (1 + replicas))]

    @property
    def url(self) -> str:
        """The first node's URL: a cluster client finds the others from any one."""
        return self.nodes[0].url

    def start(self, timeout: float = 30.0) -> "RedisClusterServer":
        for node in self.nodes:
            node.start()
        try:
            self._join()
            self.wait_ok(timeout)
            self.wait_replicas_synced(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _join(self) -> None:
        first = self.nodes[0].client()
        for node in self.nodes[1:]:
            first.execute_command("CLUSTER MEET", "127.0.0.1", node.port)
        width = SLOTS // self.masters
        for index, node in enumerate(self.nodes[:self.masters]):
            last = SLOTS - 1 if index == self.masters - 1 else (index + 1) * width - 1
            node.client().execute_command("CLUSTER ADDSLOTSRANGE", index * width, last)
        self._wait(lambda: all(len(_nodes(node)) == len(self.nodes) and all(
            "handshake" not in peer["flags"] for peer in _nodes(node).values()) for node in self.nodes),
            20, "the nodes did not meet")
        masters = [node.client().execute_command("CLUSTER MYID") for node in self.nodes[:self.masters]]
        for index, replica in enumerate(self.nodes[self.masters:]):
            replica.client().execute_command("CLUSTER REPLICATE", masters[index % self.masters])

    @staticmethod
    def _wait(ready, timeout: float, failure: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.05)
        raise RuntimeError(failure)

    def wait_replicas_synced(self, timeout: float = 30.0) -> None:
        """Until every running replica has synced with its master: one that has not synced once may
        not take over (its data's age is unknown), nor acknowledge a WAIT."""
        self._wait(lambda: all(node.client().info("replication").get("master_link_status") == "up"
                               for node in self.running() if node.client().execute_command("ROLE")[0] == "slave"),
                   timeout, "the replicas did not sync")

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every running node says the cluster is ok and every slot is served."""
        def ok() -> bool:
            for node in self.running():
                info = node.client().execute_command("CLUSTER INFO")
                if info["cluster_state"] != "ok" or int(info["cluster_slots_ok"]) != SLOTS:
                    return False
            return True

        self._wait(ok, timeout, "the cluster did not come up")

    def running(self) -> list[ClusterNode]:
        return [node for node in self.nodes if node.process is not None and node.process.poll() is None]

    def master_of(self, key: str) -> ClusterNode:
        """The running master that serves ``key``'s slot now."""
        slot = key_slot(key.encode())
        for node in self.running():
            if node.client().execute_command("ROLE")[0] == "master" and any(
                    start <= slot <= end for start, end in _slot_ranges(node)):
                return node
        raise RuntimeError(f"no running master serves slot {slot}")

    def kill_master(self, master: ClusterNode) -> list[tuple[int, int]]:
        """SIGKILL ``master``: its slots' ranges, for ``wait_failover``."""
        ranges = _slot_ranges(master)
        master.kill()
        return ranges

    def wait_failover(self, ranges: list[tuple[int, int]], timeout: float = 30.0) -> None:
        """Until a running master (a promoted replica) serves each of ``ranges`` and the cluster is ok."""
        self._wait(lambda: all(any(served == wanted for master in self.running_masters()
                                   for served in _slot_ranges(master)) for wanted in ranges),
                   timeout, "no replica took over the killed master's slots")
        self.wait_ok(timeout)

    def running_masters(self) -> list[ClusterNode]:
        return [node for node in self.running() if node.client().execute_command("ROLE")[0] == "master"]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def _nodes(node: ClusterNode) -> dict:
    """What ``node`` knows of the cluster's nodes (CLUSTER NODES, as redis-py parses it)."""
    return node.client().execute_command("CLUSTER NODES")


def _slot_ranges(node: ClusterNode) -> list[tuple[int, int]]:
    """The slot ranges ``node`` serves, as it says itself."""
    for peer in _nodes(node).values():
        if "myself" in peer["flags"]:
            return [(int(low), int(high)) for low, high in peer["slots"]]
    return []
