"""Every command ends with one clear line and a non-zero status, never a traceback.

Each case runs ``scoundrel`` in the test process (``tests.support.commands``:
the same code from its arguments to its status), with its causes real: a
Redis port nobody listens on, a URL that is not one, a data directory that
is a file, options out of range. An exception that escaped the command would
fail the test here as a traceback would end the process; the installed
console script ending so is ``test_as_processes.py``'s.
"""

import importlib.metadata
import os

import pytest

import scoundrel
from cli.redis_server import free_port
from tests.support.commands import run_command
from tests.support.stores import NO_REDIS_URL


def run_scoundrel(*args: str, env: dict | None = None, tmp_path=None):
    """``scoundrel ARGS`` in this process, in this process's environment but for ``REDIS_URL``, with ``env``."""
    environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    # An empty data directory of the test's own: never the user's, never a running up's.
    environment["SCOUNDREL_DATA_DIR"] = str(tmp_path / "no-up-here")
    environment.update(env or {})
    return run_command(environment, *args)


def assert_one_line_failure(result, *fragments: str, status: int = 1) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == status, (result.returncode, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    last = lines[-1]
    for fragment in fragments:
        assert fragment in last, last
    return last


@pytest.mark.parametrize("args", [["moderator", "add", "alice"], ["moderator", "list"], ["moderator", "revoke", "bob"],
                                  ["check"], ["reverify", "--all"], ["migrate"], ["migrate", "--apply"]])
def test_redis_unreachable_is_one_line(tmp_path, args):
    result = run_scoundrel(*args, env={"REDIS_URL": NO_REDIS_URL}, tmp_path=tmp_path)
    last = assert_one_line_failure(result, f"scoundrel {args[0]}: cannot reach Redis (REDIS_URL)", "Connection refused")
    assert "scoundrel up" in last  # and what to do about it


@pytest.mark.parametrize("args", [["moderator", "list"], ["check"], ["reverify", "--all"], ["worker", "--burst"]])
def test_a_redis_url_that_is_not_one_is_one_line(tmp_path, args):
    result = run_scoundrel(*args, env={"REDIS_URL": "garbage"}, tmp_path=tmp_path)
    assert_one_line_failure(result, "REDIS_URL is not a Redis URL", "redis://HOST:PORT/DB")


def test_a_setting_that_is_not_a_number_is_one_line(tmp_path):
    result = run_scoundrel("check", env={"REDIS_URL": NO_REDIS_URL,
                                                            "SCOUNDREL_JOB_TIMEOUT": "soon"}, tmp_path=tmp_path)
    assert_one_line_failure(result, "SCOUNDREL_JOB_TIMEOUT='soon' is not a whole number")


def test_a_season_that_is_neither_monthly_nor_weekly_is_one_line(tmp_path):
    result = run_scoundrel("check", env={"REDIS_URL": NO_REDIS_URL,
                                                            "SCOUNDREL_SEASON": "yearly"}, tmp_path=tmp_path)
    assert_one_line_failure(result, "SCOUNDREL_SEASON='yearly' is not one of monthly, weekly")


@pytest.mark.parametrize(("issuers", "said"), [
    ("not json", "SCOUNDREL_JWT_ISSUERS is not JSON"),
    ('[{"issuer": "https://s.example", "audience": "a"}]', 'needs a "jwks_url" or a "secret"'),
    ('[{"issuer": "https://s.example", "audience": "a", "secret": "s", "jwks_url": "https://k"}]',
     'has a "jwks_url" and a "secret": it needs one of them, not both'),
    ('[{"issuer": "https://s.example", "secret": "s"}]', 'needs an "audience"'),
    ('[{"issuer": "https://s.example", "audience": "a", "secret": "s", "claims": 1}]', "unknown fields: claims"),
    ('[{"issuer": "s", "audience": "a", "jwks_url": "ftp://k"}]', '"jwks_url" is not an http(s) URL'),
])
def test_a_studio_issuer_that_cannot_be_used_is_one_line(tmp_path, issuers, said):
    result = run_scoundrel("check", env={"REDIS_URL": NO_REDIS_URL,
                                                            "SCOUNDREL_JWT_ISSUERS": issuers}, tmp_path=tmp_path)
    assert_one_line_failure(result, said)


def test_a_data_dir_without_a_running_up_is_one_line_not_some_other_redis(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_scoundrel("check", "--data-dir", str(empty), tmp_path=tmp_path)
    assert_one_line_failure(result, f"no scoundrel up is running on {empty}", "scoundrel up --data-dir")


@pytest.mark.parametrize("args", [["moderator", "add", "mia"], ["moderator", "list"], ["check"], ["worker"]])
def test_no_up_on_the_data_dir_of_the_environment_is_one_line_naming_it(tmp_path, args):
    """SCOUNDREL_DATA_DIR naming a stopped up (its Redis's files there, no redis-url): no talk of a
    Redis at a default URL the person never gave."""
    stopped = tmp_path / "stopped"
    (stopped / "redis").mkdir(parents=True)
    result = run_scoundrel(*args, env={"SCOUNDREL_DATA_DIR": str(stopped)}, tmp_path=tmp_path)
    last = assert_one_line_failure(result, f"scoundrel {args[0]}: no scoundrel up is running on {stopped}",
                                   f"scoundrel up --data-dir {stopped}", "or set REDIS_URL")
    assert "6379" not in result.stderr and result.stderr.strip() == last


def test_version_prints_the_release_and_what_it_verifies_with():
    result = run_command(dict(os.environ), "--version")
    assert result.returncode == 0, result.stderr
    release = importlib.metadata.version("scoundrel-referee")
    assert result.stdout == (f"scoundrel {release} (ruleset {scoundrel.RULESET}, deal {scoundrel.DEAL_VERSION}, "
                             f"engine {scoundrel.ENGINE_VERSION})\n")


def test_up_with_a_data_dir_that_is_a_file(tmp_path):
    not_a_dir = tmp_path / "a-file"
    not_a_dir.write_text("x")
    result = run_scoundrel("up", "--data-dir", str(not_a_dir), "--port", str(free_port()),
                           tmp_path=tmp_path)
    assert_one_line_failure(result, "is a file, not a directory")


@pytest.mark.parametrize("port", ["99999", "0", "http"])
def test_up_with_a_port_out_of_range(tmp_path, port):
    result = run_scoundrel("up", "--port", port, "--data-dir", str(tmp_path / "d"),
                           tmp_path=tmp_path)
    assert_one_line_failure(result, "argument --port", status=2)
    assert not (tmp_path / "d").exists()  # refused before anything started


@pytest.mark.parametrize("limit", ["-5", "0", "soon"])
def test_check_refuses_a_pending_limit_that_is_not_positive(tmp_path, limit):
    result = run_scoundrel("check", "--pending-limit", limit,
                           env={"REDIS_URL": NO_REDIS_URL}, tmp_path=tmp_path)
    assert_one_line_failure(result, "argument --pending-limit", status=2)


def test_a_seed_starting_with_a_dash_gets_a_hint(scoundrel):
    result = scoundrel("deal", "-x1")
    assert result.returncode == 2
    assert "scoundrel deal -- -x1" in result.stderr.decode()
    dealt = scoundrel("deal", "--", "-x1")
    assert dealt.returncode == 0 and len(dealt.stdout.split()) == 44


def test_replay_says_one_move_not_one_moves(scoundrel):
    result = scoundrel("replay", "--ascii", "1", "D4")
    out = result.stdout.decode()
    assert "ends after 1 move but" in out  # R17
    assert "1 moves" not in out
    assert "ends after 2 moves but" in scoundrel("replay", "--ascii", "1", "D4", "S5w").stdout.decode()
