"""docker-compose.yml and the Dockerfile say what the README promises.

There is no Docker engine on the test machines, so these read the files:
the services, their commands, persistence, health checks and scaling.
"""

import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


# What docs/compose.md has the operator write into .env.
OPERATORS_ENV = {"SCOUNDREL_ARCHIVE_PASSWORD": "Zq3-x_9PkvT0aLw8Ff2mYcHdN1sRe5Ub"}
VARIABLE = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")


def interpolated(text: str, env: dict[str, str]) -> str:
    """``text`` as compose reads it with ``env`` (its .env and environment): ``${NAME}``, ``${NAME:-default}``
    and ``${NAME:?error}``, the last refusing to start (ValueError) when NAME is unset or empty."""
    def value(found: re.Match) -> str:
        name, kind, word = found.groups()
        if env.get(name):
            return env[name]
        if kind == "?":
            raise ValueError(f"{name}: {word}")
        return word if kind == "-" else ""

    return VARIABLE.sub(value, text)


def _words(command) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


def test_compose_runs_redis_the_api_and_workers(services):
    assert {"redis", "api", "worker"} <= set(services)


def test_redis_keeps_an_append_only_file_synced_every_second_on_a_named_volume(compose, services):
    redis = services["redis"]
    assert redis["image"].startswith("redis:7")
    command = _words(redis["command"])
    assert command[0] == "redis-server"
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--appendfsync") + 1] == "everysec"
    volume, target = redis["volumes"][0].split(":")[:2]
    assert target == "/data"
    assert volume in compose["volumes"]


def test_redis_is_healthy_when_it_answers_ping(services):
    assert "redis-cli ping" in " ".join(_words(services["redis"]["healthcheck"]["test"]))


@pytest.mark.parametrize("name, command", [
    ("api", ["scoundrel", "api", "--host", "0.0.0.0", "--port", "8000"]),
    ("worker", ["scoundrel", "worker"]),
])
def test_api_and_worker_run_from_the_project_image_against_the_redis_service(services, name, command):
    service = services[name]
    assert service["build"] == "."
    assert _words(service["command"]) == command
    environment = service["environment"]
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) for item in environment)
    assert environment["REDIS_URL"] == "redis://redis:6379/0"
    assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_api_publishes_port_8000_and_checks_its_health_endpoint_without_curl(services):
    api = services["api"]
    assert "127.0.0.1:8000:8000" in [interpolated(str(port), {}) for port in api["ports"]]
    check = " ".join(_words(api["healthcheck"]["test"]))
    assert "python" in check and "/v1/health" in check and "curl" not in check


def test_worker_can_be_scaled(services):
    worker = services["worker"]
    assert "container_name" not in worker
    assert "ports" not in worker


def test_dockerfile_installs_the_project_as_a_user_without_privileges_and_runs_the_api():
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert lines[0].startswith("FROM python:3.11-slim")
    assert any(line.startswith("RUN pip install --no-deps --no-build-isolation . ") for line in lines)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    cmd = next(line for line in lines if line.startswith("CMD "))
    assert cmd.split(None, 1)[1] == '["scoundrel", "api", "--host", "0.0.0.0", "--port", "8000"]'
    assert not any(line.startswith("ENTRYPOINT") for line in lines)


def test_the_image_gets_every_package_the_project_installs():
    """A package directory left out of the Dockerfile's COPY lines would only fail at run time."""
    text = (ROOT / "Dockerfile").read_text()
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    for pattern in packages:
        path = pattern.rstrip("*").replace(".", "/")  # a package's directory: clients.js.src is clients/js/src
        assert f"COPY {path} ./{path}" in text, path


def test_dockerignore_keeps_local_state_out_of_the_build_context():
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv"} <= set(ignored)


def test_the_archive_is_postgresql_on_a_named_volume_and_the_workers_archive(compose, services):
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    volume, target = postgres["volumes"][0].split(":")[:2]
    assert target == "/var/lib/postgresql/data" and volume in compose["volumes"]
    assert "pg_isready" in " ".join(_words(postgres["healthcheck"]["test"]))
    credentials = {name: interpolated(value, OPERATORS_ENV) for name, value in postgres["environment"].items()}
    url = (f"postgresql+psycopg://{credentials['POSTGRES_USER']}:{credentials['POSTGRES_PASSWORD']}"
           f"@postgres:5432/{credentials['POSTGRES_DB']}")
    for name in ("api", "worker"):
        assert interpolated(services[name]["environment"]["SCOUNDREL_ARCHIVE_URL"], OPERATORS_ENV) == url, name
        assert float(services[name]["environment"]["SCOUNDREL_HOT_DAYS"]) > 0
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_image_has_the_postgresql_driver():
    """The lock the image installs (tests/deploy/test_lock.py) holds the postgresql extra's driver."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(requirement.startswith("psycopg[binary]") for requirement in extras["postgresql"])
    locked = (ROOT / "requirements.lock").read_text().lower().split()
    assert any(line.startswith("psycopg==") for line in locked) and any(
        line.startswith("psycopg-binary==") for line in locked)


# The "sentinel" profile: the data's Redis with failover, a primary, a replica and three sentinels.

SENTINELS = ("sentinel-1", "sentinel-2", "sentinel-3")


def _profiled(services, profile: str) -> dict:
    return {name: service for name, service in services.items() if profile in service.get("profiles", [])}


def _environment(service) -> dict:
    environment = service["environment"]
    return dict(item.split("=", 1) for item in environment) if isinstance(environment, list) else environment


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_services_without_a_profile_are_the_one_redis_stack(services):
    assert {name for name, service in services.items() if not service.get("profiles")} == {
        "redis", "postgres", "api", "worker"}


def test_no_service_runs_a_redis_cluster(services):
    """The data lives on one Redis; a cluster's setting is refused by every process."""
    for name, service in services.items():
        assert "--cluster-enabled" not in _words(service.get("command", [])), name
        assert "SCOUNDREL_REDIS_CLUSTER" not in (_environment(service) if "environment" in service else {}), name


def test_the_sentinel_profile_is_a_primary_a_replica_three_sentinels_the_api_and_workers(services):
    assert set(_profiled(services, "sentinel")) == {"redis-primary", "redis-replica", *SENTINELS,
                                                     "api-sentinel", "worker-sentinel"}


@pytest.mark.parametrize("name", ["redis-primary", "redis-replica"])
def test_the_primary_and_the_replica_are_kept_like_the_one_redis_each_on_a_volume(compose, services, name):
    server = services[name]
    command = _words(server["command"])
    assert server["image"].startswith("redis:7") and command[0] == "redis-server"
    assert _option(command, "--appendonly") == "yes" and _option(command, "--appendfsync") == "everysec"
    one_redis = _words(services["redis"]["command"])
    assert _option(command, "--hash-max-listpack-value") == _option(one_redis, "--hash-max-listpack-value")
    assert _option(command, "--zset-max-listpack-entries") == _option(one_redis, "--zset-max-listpack-entries")
    assert _option(command, "--replica-announce-ip") == name  # either may be the primary after a failover
    assert "redis-cli ping" in " ".join(_words(server["healthcheck"]["test"]))
    volume, target = server["volumes"][0].split(":")[:2]
    assert target == "/data" and volume in compose["volumes"]


def test_the_replica_replicates_the_primary(services):
    command = _words(services["redis-replica"]["command"])
    assert command[command.index("--replicaof") + 1:command.index("--replicaof") + 3] == ["redis-primary", "6379"]
    assert "--replicaof" not in _words(services["redis-primary"]["command"])
    assert services["redis-replica"]["depends_on"]["redis-primary"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", SENTINELS)
def test_each_sentinel_watches_the_primary_by_the_master_name_the_service_uses(compose, services, name):
    sentinel = services[name]
    assert sentinel["image"].startswith("redis:7")
    script = " ".join(_words(sentinel["command"]))
    master = _environment(services["api-sentinel"])["SCOUNDREL_SENTINEL_MASTER"]
    assert f"sentinel monitor {master} redis-primary 6379 2" in script  # two of the three agree it is down
    assert f"sentinel down-after-milliseconds {master} " in script
    assert "sentinel resolve-hostnames yes" in script and "sentinel announce-hostnames yes" in script
    assert "sentinel announce-ip $$SENTINEL_NAME" in script and _environment(sentinel)["SENTINEL_NAME"] == name
    assert "port 26379" in script and script.endswith("redis-server /data/sentinel.conf --sentinel")
    assert script.startswith("sh -c test -f /data/sentinel.conf ||")  # its learnt state kept over a restart
    volume, target = sentinel["volumes"][0].split(":")[:2]
    assert target == "/data" and volume in compose["volumes"]
    assert "-p 26379 ping" in " ".join(_words(sentinel["healthcheck"]["test"]))


def test_the_sentinels_keep_their_state_on_volumes_of_their_own(services):
    assert len({services[name]["volumes"][0].split(":")[0] for name in SENTINELS}) == len(SENTINELS)


@pytest.mark.parametrize(("name", "command"), [
    ("api-sentinel", ["scoundrel", "api", "--host", "0.0.0.0", "--port", "8000"]),
    ("worker-sentinel", ["scoundrel", "worker"]),
])
def test_the_api_and_worker_find_the_primary_through_the_three_sentinels(services, name, command):
    service = services[name]
    assert "sentinel" in service["profiles"] and service["build"] == "."
    assert _words(service["command"]) == command
    environment = _environment(service)
    assert environment["SCOUNDREL_SENTINELS"].split(",") == [f"{sentinel}:26379" for sentinel in SENTINELS]
    assert environment["SCOUNDREL_WAIT_REPLICAS"] == "1"  # a run acknowledged only once the replica has it
    assert "REDIS_URL" not in environment and "SCOUNDREL_QUEUE_URL" not in environment
    assert environment["SCOUNDREL_ARCHIVE_URL"] == _environment(services["api"])["SCOUNDREL_ARCHIVE_URL"]
    for sentinel in SENTINELS:
        assert service["depends_on"][sentinel]["condition"] == "service_healthy"
    assert service["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_sentinel_profiles_api_publishes_a_port_of_its_own_and_its_worker_scales(services):
    assert "127.0.0.1:8001:8000" in [interpolated(str(port), {}) for port in services["api-sentinel"]["ports"]]
    assert "container_name" not in services["worker-sentinel"] and "ports" not in services["worker-sentinel"]


def test_the_sentinel_settings_in_compose_are_ones_the_service_accepts(services, monkeypatch):
    from settings import Settings

    for name, value in _environment(services["api-sentinel"]).items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("REDIS_URL", raising=False)
    settings = Settings.from_env()
    assert settings.sentinels == tuple((sentinel, 26379) for sentinel in SENTINELS)
    assert settings.sentinel_master == "scoundrel" and settings.wait_replicas == 1


# Secrets, exposure, health and reproducible builds.

def _texts(value) -> list[str]:
    """Every string in a parsed compose value (an environment, a command, a port list)."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in _texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return [value] if isinstance(value, str) else []


def test_the_archive_password_is_written_nowhere_but_the_operators_env_file(services):
    """No password in the file: compose takes it from .env (docs/compose.md), and refuses to start without it."""
    for name in ("postgres", "api", "worker", "api-sentinel", "worker-sentinel"):
        environment = _environment(services[name])
        secret = environment.get("POSTGRES_PASSWORD") or environment["SCOUNDREL_ARCHIVE_URL"]
        assert "${SCOUNDREL_ARCHIVE_PASSWORD:?" in secret, name
        with pytest.raises(ValueError, match="SCOUNDREL_ARCHIVE_PASSWORD"):
            interpolated(secret, {})
    assert OPERATORS_ENV["SCOUNDREL_ARCHIVE_PASSWORD"] not in (ROOT / "docker-compose.yml").read_text()


def test_the_env_file_stays_out_of_git_and_the_image():
    assert ".env" in (ROOT / ".gitignore").read_text().split()
    assert ".env" in (ROOT / ".dockerignore").read_text().split()


def test_the_docs_tell_the_operator_to_write_the_env_file():
    guide = (ROOT / "docs" / "compose.md").read_text()
    assert "SCOUNDREL_ARCHIVE_PASSWORD=" in guide and "> .env" in guide and "SCOUNDREL_PUBLISH" in guide


@pytest.mark.parametrize("name", ["api", "api-sentinel"])
def test_the_api_is_published_on_127_0_0_1_unless_the_operator_says_otherwise(services, name):
    for port in services[name]["ports"]:
        host = interpolated(str(port), {}).rsplit(":", 2)[0]
        assert host == "127.0.0.1", port
        assert interpolated(str(port), {"SCOUNDREL_PUBLISH": "0.0.0.0"}).startswith("0.0.0.0:")


def test_no_service_publishes_a_port_on_every_interface_by_default(services):
    for name, service in services.items():
        for port in service.get("ports", []):
            assert interpolated(str(port), {}).count(":") == 2, (name, port)  # host:published:container


@pytest.mark.parametrize("name", ["worker", "worker-sentinel"])
def test_each_worker_is_healthy_while_it_beats_in_redis(services, name):
    check = services[name]["healthcheck"]
    assert _words(check["test"]) == ["CMD", "scoundrel", "worker", "--check"]
    from settings import Settings

    ttl = Settings.worker_ttl  # a worker beats every third of it: two beats may be missed before it fails
    seconds = {key: int(str(check[key]).removesuffix("s")) for key in ("interval", "timeout", "start_period")}
    assert seconds["interval"] <= ttl and seconds["timeout"] < seconds["interval"] and check["retries"] >= 2
