"""A throwaway Redis that picked its own port and finds it taken, by another Redis or by any other
listener (on the port or on a cluster node's bus port), starts on another one; one given its port
fails with ``PortTaken`` (``cli.redis_server``; a cluster node, ``tests.support.redis_cluster``, is
``test_move_off_cluster.py``'s). Many processes pick free ports side by side (the suite's test
processes, ``scoundrel up`` beside them), so two can pick the same before either binds it."""

import socket

import pytest
import redis

from cli.redis_server import PortTaken, RedisServer, free_port


def listening(port: int) -> socket.socket:
    """A plain listener (not a Redis) holding ``port``."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    holder.listen()
    return holder


def pid_on(port: int) -> int:
    return redis.Redis(port=port).info("server")["process_id"]


def test_a_port_another_redis_took_first_is_given_up_for_another(tmp_path):
    first = RedisServer(tmp_path / "first", persistent=False).start()
    late = RedisServer(tmp_path / "late", persistent=False)
    late.port = first.port  # picked by both before either bound it
    try:
        late.start()
        assert late.port != first.port
        assert pid_on(late.port) == late.process.pid and pid_on(first.port) == first.process.pid
    finally:
        late.stop()
        first.stop()


def test_a_port_any_other_listener_holds_is_given_up_for_another(tmp_path):
    server = RedisServer(tmp_path / "redis", persistent=False)
    holder = listening(server.port)
    try:
        server.start()
        assert server.port != holder.getsockname()[1] and pid_on(server.port) == server.process.pid
    finally:
        server.stop()
        holder.close()


def test_a_port_given_is_not_changed(tmp_path):
    port = free_port()
    holder = listening(port)
    try:
        server = RedisServer(tmp_path / "redis", port=port, persistent=False)
        with pytest.raises(PortTaken, match=str(port)):
            server.start()
        assert server.port == port and server.process.poll() is not None
    finally:
        holder.close()
