"""The operator commands say which Redis they use, and refuse one holding none of the service's data.

A new shell without ``REDIS_URL`` (or a mistyped one) reaches some other
Redis: there ``check`` would find every board consistent and ``moderator
add`` would write where the service never looks. Each case runs
``scoundrel`` in the test process (``tests.support.commands``) against a
throwaway Redis of its own (never the one
on 6379), empty until a worker or the API has started on it
(``store.base.service_mark``).
"""

import pytest
import redis

from cli.redis_server import RedisServer

from .test_cli_errors import assert_one_line_failure, run_scoundrel

OPERATOR_COMMANDS = [["check"], ["moderator", "list"], ["moderator", "add", "mia"], ["reverify", "--all"],
                     ["archive", "--older-than", "0"]]


@pytest.fixture(scope="module")
def empty_redis(tmp_path_factory):
    """A Redis no API or worker has started on, shared by the tests that leave it so."""
    server = RedisServer(tmp_path_factory.mktemp("redis"), persistent=False).start()
    yield server
    server.stop()


@pytest.fixture
def fresh_redis(tmp_path):
    """A Redis of the test's own, for a test that marks it."""
    server = RedisServer(tmp_path / "redis", persistent=False).start()
    yield server
    server.stop()


def on(server: RedisServer, tmp_path, url: str | None = None) -> dict:
    return {"REDIS_URL": url or server.url, "SCOUNDREL_ARCHIVE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"}


@pytest.mark.parametrize("args", OPERATOR_COMMANDS)
def test_a_redis_without_the_services_data_is_refused_and_left_alone(tmp_path, empty_redis,
                                                                      args):
    result = run_scoundrel(*args, env=on(empty_redis, tmp_path), tmp_path=tmp_path)
    last = assert_one_line_failure(result, f"scoundrel {args[0]}: the Redis at {empty_redis.url} (REDIS_URL) "
                                           f"holds no Scoundrel Referee data", "--any-redis")
    assert result.stderr.strip() == last and result.stdout == ""
    assert redis.Redis.from_url(empty_redis.url).dbsize() == 0  # nothing written there


def test_the_default_redis_is_refused_too_when_it_is_not_the_services(tmp_path, empty_redis):
    """No REDIS_URL, no running up: the commands used to go quietly to 127.0.0.1:6379. Here the
    data directory's ``redis-url`` names the empty Redis, as a finished ``up`` might leave it."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "redis-url").write_text(empty_redis.url + "\n")
    result = run_scoundrel("check", "--data-dir", str(data), tmp_path=tmp_path,
                           env={"SCOUNDREL_ARCHIVE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"})
    assert_one_line_failure(result, f"the Redis at {empty_redis.url} ({data}/redis-url, left by scoundrel up) "
                                    f"holds no Scoundrel Referee data")


def test_any_redis_uses_it_and_says_so(tmp_path, empty_redis):
    listed = run_scoundrel("moderator", "list", "--any-redis", env=on(empty_redis, tmp_path),
                           tmp_path=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr == (f"scoundrel moderator: Redis {empty_redis.url} (REDIS_URL), "
                             f"holding no Scoundrel Referee data yet\n")


def test_the_line_naming_the_redis_hides_its_password(tmp_path, fresh_redis):
    redis.Redis.from_url(fresh_redis.url).config_set("requirepass", "hunter2")
    url = f"redis://:hunter2@127.0.0.1:{fresh_redis.port}/0"
    refused = run_scoundrel("check", env=on(fresh_redis, tmp_path, url), tmp_path=tmp_path)
    assert_one_line_failure(refused, f"the Redis at redis://:***@127.0.0.1:{fresh_redis.port}/0 (REDIS_URL)")
    listed = run_scoundrel("moderator", "list", "--any-redis",
                           env=on(fresh_redis, tmp_path, url), tmp_path=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "hunter2" not in refused.stderr + listed.stderr and ":***@" in listed.stderr


def test_a_worker_marks_its_redis_and_the_commands_then_use_it(tmp_path, fresh_redis):
    env = on(fresh_redis, tmp_path)
    worked = run_scoundrel("worker", "--burst", env=env, tmp_path=tmp_path)
    assert worked.returncode == 0, worked.stderr
    assert "Running upgrade" in worked.stderr  # a new archive's migrations, logged
    assert "alembic.runtime.plugins" not in worked.stderr  # but not Alembic naming its plugins (log_lines.QUIET)
    added = run_scoundrel("moderator", "add", "mia", env=env, tmp_path=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stderr == f"scoundrel moderator: Redis {fresh_redis.url} (REDIS_URL)\n"
    checked = run_scoundrel("check", env=env, tmp_path=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == f"scoundrel check: Redis {fresh_redis.url} (REDIS_URL)\n"


def test_a_cluster_setting_is_refused_in_one_line_with_the_way_off(tmp_path, fresh_redis):
    """The data lives on one Redis: a deployment still configured for a Redis Cluster is told how to move,
    before anything connects."""
    env = {"REDIS_URL": fresh_redis.url, "SCOUNDREL_REDIS_CLUSTER": "true",
           "SCOUNDREL_ARCHIVE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"}
    for args in (["check"], ["moderator", "list"]):
        result = run_scoundrel(*args, env=env, tmp_path=tmp_path)
        assert_one_line_failure(result, "SCOUNDREL_REDIS_CLUSTER is not supported")
        assert "scoundrel move-off-cluster" in result.stderr
