"""The C# client (``clients/csharp``), built with Mono's ``mcs`` and run under ``mono``.

``build.sh`` compiles the library, its test runner, the conformance adapter, and the Unity and Godot
samples against stand-ins of the engines' types. The runner checks the engine against the Python
engine's answers (the JS client's cross-check data, every case and variant; the deal vectors) and the
netstandard 2.0 surface; ``scoundrel conformance`` checks it through the adapter; and against a real
service the client plays dealt games to their end, submits a run that gets verified, signs in with a
studio's JWT, and reads boards, a tournament and the week's league. Without Mono the module is one
skipped line.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import jwt
import pytest

import scoundrel
from cli.conformance import golden_cases
from scoundrel.deal import SEED_RULE
from tests.support.stack import Stack

from .conftest import AUDIENCE, SECRET, STUDIO

if shutil.which("mcs") is None or shutil.which("mono") is None:
    pytest.skip("Mono (mcs, mono) is not installed: .ci/run installs Debian's mono-devel", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "csharp"
BUILT = CLIENT / "build~"


def mono(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["mono", str(BUILT / "tests.exe"), *args], capture_output=True, text=True, timeout=600,
                          env=env, check=False)


def passed(run: subprocess.CompletedProcess, checks: int) -> None:
    """Every check of the runner passed, and as many ran as it names."""
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert run.stdout.count("ok - ") - run.stdout.count("not ok - ") == checks, report
    assert "all passed" in run.stdout, report


@pytest.fixture(scope="module")
def built() -> Path:
    build = subprocess.run([str(CLIENT / "build.sh")], capture_output=True, text=True, timeout=600, check=False)
    assert build.returncode == 0, build.stdout + build.stderr
    return BUILT


def test_the_engine_agrees_with_the_python_engine_on_the_cross_check_data_and_the_deal_vectors(built):
    passed(mono("engine", str(ROOT)), checks=13)


def test_the_library_states_the_python_engines_versions_and_seed_rule():
    source = (CLIENT / "Runtime" / "EngineInfo.cs").read_text(encoding="utf-8")
    stated = dict(re.findall(r'public const string (\w+) = "([^"]*)";', source))
    assert stated == {"Ruleset": scoundrel.RULESET, "EngineVersion": scoundrel.ENGINE_VERSION,
                      "DealVersion": scoundrel.DEAL_VERSION, "SeedRule": SEED_RULE}


def test_scoundrel_conformance_passes_every_case_through_the_csharp_adapter(built):
    cases = len(list(golden_cases()))
    result = subprocess.run([sys.executable, "-m", "cli.main", "conformance", "--engine",
                             str(CLIENT / "conformance-adapter")], capture_output=True, text=True, timeout=300,
                            cwd=ROOT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{cases} of {cases} cases passed" in result.stdout


@pytest.fixture(scope="module")
def stack(served_stack) -> Stack:
    """A stack that trusts the studio's tokens (``conftest.served_stack``)."""
    return served_stack


def studio_token(subject: str) -> str:
    return jwt.encode({"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600}, SECRET,
                      algorithm="HS256")


def test_the_client_plays_dealt_games_submits_runs_and_reads_boards_against_the_service(built, stack, moderator):
    _, token = stack.register()
    _, other = stack.register()
    now = datetime.now(UTC).timestamp()
    tournament = stack.post("/v1/tournaments", headers={"Authorization": f"Bearer {moderator}"}, json={
        "title": "C# cup", "starts_at": datetime.fromtimestamp(now, UTC).isoformat(),
        "ends_at": datetime.fromtimestamp(now + 3600, UTC).isoformat(), "join_required": True})
    assert tournament.status_code == 201, tournament.text
    env = {"SCOUNDREL_URL": stack.base, "SCOUNDREL_TOKEN": token, "SCOUNDREL_OTHER_TOKEN": other,
           "SCOUNDREL_STUDIO_TOKEN": studio_token("csharp-account"), "SCOUNDREL_TOURNAMENT": tournament.json()["id"]}
    passed(mono("api", env={**os.environ, **env}), checks=10)


def test_the_unity_and_godot_samples_play_a_dealt_game_against_the_service(built, stack):
    _, token = stack.register()
    passed(mono("samples", env={**os.environ, "SCOUNDREL_URL": stack.base, "SCOUNDREL_TOKEN": token}), checks=2)


def test_the_deals_sha256_is_what_its_generator_writes():
    spec = importlib.util.spec_from_file_location("make_sha256", CLIENT / "Tools~" / "make_sha256.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert generator.TARGET.read_text(encoding="utf-8") == generator.sha256_module()


def test_the_docs_complete_example_is_the_unity_sample():
    page = (ROOT / "docs" / "csharp-client.md").read_text(encoding="utf-8")
    example = page.split("## A complete example", 1)[1].split("```csharp\n", 1)[1].split("```\n", 1)[0]
    assert example == (CLIENT / "Samples~" / "Unity" / "PlayDealtGame.cs").read_text(encoding="utf-8")
