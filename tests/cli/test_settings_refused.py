"""Every setting that can be malformed is refused where every process reads it (``Settings.from_env``): one
line naming the variable and what it should be, a non-zero exit, never a traceback, never a silent fallback
to something else (a rate limit the limiter cannot read limited nothing, and logged a traceback a request).

The settings are read from the source: a setting added with a reader that lets garbage through fails here."""

import re
from pathlib import Path

import pytest

from settings import Settings, SettingsError

from .test_cli_errors import assert_one_line_failure, run_scoundrel

SOURCE = (Path(__file__).resolve().parents[2] / "settings" / "__init__.py").read_text()
# Settings whose every value means something: names, secrets, paths (an access log's directory is checked below).
FREE_FORM = {"SCOUNDREL_DATA_DIR", "SCOUNDREL_QUEUE", "SCOUNDREL_SENTINEL_MASTER", "SCOUNDREL_DAILY_SECRET",
             "SCOUNDREL_SEALED_SECRET", "SCOUNDREL_ADDRESS_SECRET", "SCOUNDREL_ACCESS_LOG"}
CHECKED = sorted(set(re.findall(r'"(SCOUNDREL_[A-Z_]+)"', SOURCE)) - FREE_FORM | {"REDIS_URL"})


@pytest.fixture
def environment(monkeypatch, tmp_path):
    """An environment of no settings but a data directory of the test's own."""
    for name in [*CHECKED, *FREE_FORM]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCOUNDREL_DATA_DIR", str(tmp_path))
    return monkeypatch


def refusal(environment, name: str, value: str) -> str:
    environment.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        Settings.from_env()
    said = str(refused.value)
    assert "\n" not in said and name in said, said
    return said


def test_the_settings_are_found_in_the_source():
    assert {"SCOUNDREL_RATE_LIMIT_TOKEN", "SCOUNDREL_PORT", "SCOUNDREL_LOG_LEVEL", "SCOUNDREL_JWT_ISSUERS"} \
        <= set(CHECKED)


@pytest.mark.parametrize("name", CHECKED)
def test_every_setting_refuses_garbage_naming_itself(environment, name):
    refusal(environment, name, "banana%")


@pytest.mark.parametrize(("name", "value", "said"), [
    ("SCOUNDREL_RATE_LIMIT_TOKEN", "banana", "is not a list of rate limits such as 10/second;300/minute"),
    ("SCOUNDREL_RATE_LIMIT_TOKEN", "10/second;", "is not a list of rate limits"),
    ("SCOUNDREL_RATE_LIMIT_ADDRESS", "10/fortnight", "is not a list of rate limits"),
    ("SCOUNDREL_RATE_LIMIT_SERVER_KEY", "0/second", "a limit of 0 would refuse every request"),
    ("SCOUNDREL_GAME_IDLE", "nan", "is not a finite number"),
    ("SCOUNDREL_REDIS_TIMEOUT", "inf", "is not a finite number"),
    ("SCOUNDREL_SWEEP_INTERVAL", "0", "is not a number above 0"),
    ("SCOUNDREL_PENDING_TIMEOUT", "-5", "is not a number above 0"),
    ("SCOUNDREL_HOT_DAYS", "-1", "is not a number of 0 or more"),
    ("SCOUNDREL_JWT_MAX_LIFETIME", "0", "is not a number above 0"),
    ("SCOUNDREL_DESK_SESSION_HOURS", "0", "is not a number above 0"),
    ("SCOUNDREL_DESK_SESSION_HOURS", "-8", "is not a number above 0"),
    ("SCOUNDREL_JOB_TIMEOUT", "0", "is below 1"),
    ("SCOUNDREL_WAIT_REPLICAS", "-1", "is below 0"),
    ("SCOUNDREL_PORT", "0", "is below 1"),
    ("SCOUNDREL_PORT", "70000", "is above 65535"),
    ("SCOUNDREL_API_WORKERS", "0", "is below 1"),
    ("SCOUNDREL_MAX_BODY_BYTES", "0", "is below 1"),
    ("SCOUNDREL_LEAGUE_COHORT", "1", "is below 2"),
    ("SCOUNDREL_LOG_LEVEL", "loud", "is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
    ("SCOUNDREL_LOG_FORMAT", "yaml", "is not one of auto, json, text"),
    ("SCOUNDREL_HOST", "a host", "is neither an address nor a host name"),
    ("SCOUNDREL_CORS_ORIGINS", "https://game.example,game.example", "'game.example' is neither * nor an origin"),
    ("SCOUNDREL_ARCHIVE_URL", "mysql://user:hunter2@db/archive", "is not an archive URL"),
    ("SCOUNDREL_ACCESS_LOG", "/nonexistent/access.log", "there is no directory /nonexistent to write it in"),
    ("REDIS_URL", "redis://:hunter2@127.0.0.1:abc/0", "its port is not one (1-65535)"),
    ("REDIS_URL", "redis://:hunter2@127.0.0.1:99999/0", "its port is not one (1-65535)"),
    ("REDIS_URL", "redis://:hunter2@127.0.0.1:6379/zero", "its database (after the /) is not a number"),
    ("REDIS_URL", "redis://:hunter2@127.0.0.1:6379/¹", "its database (after the /) is not a number"),
    ("SCOUNDREL_SENTINELS", "127.0.0.1:26379,127.0.0.1:²6379", "'127.0.0.1:²6379' is not HOST:PORT"),
    ("SCOUNDREL_QUEUE_URL", "redis://:hunter2@127.0.0.1:abc/0", "its port is not one"),
])
def test_a_malformed_setting_is_one_line_saying_what_it_should_be(environment, name, value, said):
    message = refusal(environment, name, value)
    assert said in message and "hunter2" not in message, message


@pytest.mark.parametrize(("issuers", "said"), [
    ('[{"issuer": "x"}]', 'SCOUNDREL_JWT_ISSUERS[0] needs an "audience" and a "jwks_url" or a "secret"'),
    ('[{"issuer": "x", "secret": "s"}]', 'SCOUNDREL_JWT_ISSUERS[0] needs an "audience"'),
    ('[{"audience": "a", "secret": "s"}]', 'SCOUNDREL_JWT_ISSUERS[0] needs an "issuer"'),
    ('[{"issuer": "x", "audience": "a", "secret": "s", "jwks_url": "https://k"}]',
     'SCOUNDREL_JWT_ISSUERS[0] has a "jwks_url" and a "secret": it needs one of them, not both'),
    ('[{"issuer": "x", "audience": "a", "secret": "s", "moderator_claim": ["roles"]}]',
     "SCOUNDREL_JWT_ISSUERS[0]: every field is a string"),
])
def test_a_studio_issuer_names_exactly_what_it_lacks(environment, issuers, said):
    assert refusal(environment, "SCOUNDREL_JWT_ISSUERS", issuers) == said


@pytest.mark.parametrize(("name", "value", "read"), [
    ("SCOUNDREL_RATE_LIMIT_TOKEN", "10 per second, 300/minute", "10 per second, 300/minute"),
    ("SCOUNDREL_RATE_LIMIT_TOKEN", "", ""),  # no limit, as documented
    ("SCOUNDREL_LOG_LEVEL", "debug", "DEBUG"),
    ("SCOUNDREL_HOST", "::", "::"),
    ("SCOUNDREL_HOST", "api.internal", "api.internal"),
    ("SCOUNDREL_CORS_ORIGINS", "*", "*"),
    ("SCOUNDREL_ARCHIVE_URL", "postgresql+psycopg://u:p@db:5432/archive", "postgresql+psycopg://u:p@db:5432/archive"),
    ("SCOUNDREL_HOT_DAYS", "0", 0.0),
    ("SCOUNDREL_DESK_SESSION_HOURS", "0.5", 0.5),
    ("REDIS_URL", "redis://:p@127.0.0.1:6380/3", "redis://:p@127.0.0.1:6380/3"),
    ("REDIS_URL", "unix:///run/redis.sock?db=2", "unix:///run/redis.sock?db=2"),
])
def test_a_well_formed_setting_is_read(environment, name, value, read):
    environment.setenv(name, value)
    assert getattr(Settings.from_env(), name.removeprefix("SCOUNDREL_").lower()) == read


@pytest.mark.parametrize("command", [["up"], ["check"], ["api"], ["worker", "--burst"]])
def test_a_rate_limit_that_does_not_parse_stops_the_command_with_one_line(tmp_path, command):
    result = run_scoundrel(*command, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "banana"},
                           tmp_path=tmp_path)
    assert_one_line_failure(result, "SCOUNDREL_RATE_LIMIT_TOKEN='banana' is not a list of rate limits")
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "no-up-here").exists()  # refused before anything started
