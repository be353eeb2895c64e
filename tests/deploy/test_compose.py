"""docker-compose.yml and the Dockerfile say what the README promises.

There is no Docker engine on the test machines, so these read the files:
the services, their commands, persistence, health checks and scaling.
"""

import shlex
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


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
    assert "8000:8000" in [str(port) for port in api["ports"]]
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
    assert any(line.startswith("RUN pip install .") for line in lines)
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
    credentials = postgres["environment"]
    url = (f"postgresql+psycopg://{credentials['POSTGRES_USER']}:{credentials['POSTGRES_PASSWORD']}"
           f"@postgres:5432/{credentials['POSTGRES_DB']}")
    for name in ("api", "worker"):
        assert services[name]["environment"]["SCOUNDREL_ARCHIVE_URL"] == url, name
        assert float(services[name]["environment"]["SCOUNDREL_HOT_DAYS"]) > 0
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_image_has_the_postgresql_driver():
    text = (ROOT / "Dockerfile").read_text()
    assert "pip install .[postgresql]" in text
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(requirement.startswith("psycopg[binary]") for requirement in extras["postgresql"])


# The "cluster" profile: the data on a Redis Cluster, the queues on a Redis of their own.

def _profiled(services, profile: str) -> dict:
    return {name: service for name, service in services.items() if profile in service.get("profiles", [])}


def _environment(service) -> dict:
    environment = service["environment"]
    return dict(item.split("=", 1) for item in environment) if isinstance(environment, list) else environment


def test_the_services_without_a_profile_are_the_one_redis_stack(services):
    assert {name for name, service in services.items() if not service.get("profiles")} == {
        "redis", "postgres", "api", "worker"}


def test_the_cluster_profile_runs_six_cluster_nodes_each_on_a_volume_of_its_own(compose, services):
    cluster = _profiled(services, "cluster")
    nodes = {name: service for name, service in cluster.items() if name.startswith("redis-node-")}
    assert len(nodes) == 6
    volumes = set()
    for name, node in nodes.items():
        command = _words(node["command"])
        assert node["image"].startswith("redis:7") and command[0] == "redis-server"
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert command[command.index("--port") + 1] == "7000"
        assert command[command.index("--cluster-announce-hostname") + 1] == name
        assert command[command.index("--appendonly") + 1] == "yes"
        assert "-p 7000 ping" in " ".join(_words(node["healthcheck"]["test"]))
        volume, target = node["volumes"][0].split(":")[:2]
        assert target == "/data" and volume in compose["volumes"]
        volumes.add(volume)
    assert len(volumes) == 6


def test_a_one_shot_service_joins_them_as_three_masters_with_a_replica_each(services):
    init = services["cluster-init"]
    assert "cluster" in init["profiles"] and init.get("restart") == "no"
    script = " ".join(_words(init["command"]))
    assert "redis-cli --cluster create" in script
    assert "--cluster-replicas 1" in script and "--cluster-yes" in script
    assert "cluster_state:ok" in script  # joined once: a restart leaves a formed cluster alone
    for n in range(1, 7):
        assert f"redis-node-{n}" in script or "redis-node-$$n" in script
        assert init["depends_on"][f"redis-node-{n}"]["condition"] == "service_healthy"


@pytest.mark.parametrize(("name", "command"), [
    ("api-cluster", ["scoundrel", "api", "--host", "0.0.0.0", "--port", "8000"]),
    ("worker-cluster", ["scoundrel", "worker"]),
])
def test_the_clusters_api_and_worker_use_the_cluster_and_a_queue_redis(services, name, command):
    service = services[name]
    assert "cluster" in service["profiles"] and service["build"] == "."
    assert _words(service["command"]) == command
    environment = _environment(service)
    assert environment["SCOUNDREL_REDIS_CLUSTER"] == "true"
    assert environment["REDIS_URL"].startswith("redis://redis-node-")
    assert environment["SCOUNDREL_QUEUE_URL"] == "redis://queue-redis:6379/0"
    assert environment["SCOUNDREL_ARCHIVE_URL"] == _environment(services["api"])["SCOUNDREL_ARCHIVE_URL"]
    assert service["depends_on"]["cluster-init"]["condition"] == "service_completed_successfully"
    assert service["depends_on"]["queue-redis"]["condition"] == "service_healthy"
    assert service["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_queue_redis_is_a_plain_redis_kept_on_a_volume(compose, services):
    queue = services["queue-redis"]
    command = _words(queue["command"])
    assert "cluster" in queue["profiles"] and "--cluster-enabled" not in command
    assert command[command.index("--appendonly") + 1] == "yes"
    assert queue["volumes"][0].split(":")[0] in compose["volumes"]


def test_the_clusters_api_publishes_a_port_of_its_own_and_its_worker_scales(services):
    assert "8001:8000" in [str(port) for port in services["api-cluster"]["ports"]]
    assert "container_name" not in services["worker-cluster"] and "ports" not in services["worker-cluster"]
