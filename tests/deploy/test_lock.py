"""requirements.lock, what the image installs (Dockerfile), keeps step with pyproject.toml.

Every dependency pyproject.toml declares (and its postgresql extra, which the
image needs) is pinned in the lock with ``==``, at a version its range allows;
every package a locked one requires is locked too (read from the installed
packages' metadata where they are installed), so ``pip install --no-deps -r
requirements.lock`` is the whole set; and the Dockerfile installs from the lock
alone. .ci/run runs these with the rest of the suite.
"""

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
IMAGE_EXTRAS = ("postgresql",)


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [line for extra in IMAGE_EXTRAS for line in project["optional-dependencies"][extra]]
    return [Requirement(line) for line in [*project["dependencies"], *extras]]


def locked() -> dict[str, Requirement]:
    lines = [line.strip() for line in (ROOT / "requirements.lock").read_text().splitlines()]
    requirements = [Requirement(line) for line in lines if line and not line.startswith("#")]
    by_name = {canonicalize_name(requirement.name): requirement for requirement in requirements}
    assert len(by_name) == len(requirements), "a package is locked twice"
    return by_name


def pinned_version(requirement: Requirement) -> Version:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==" and "*" not in specifier.version, f"{requirement} is not an exact pin"
    return Version(specifier.version)


def test_every_locked_package_is_an_exact_pin():
    for requirement in locked().values():
        pinned_version(requirement)


def test_every_declared_dependency_is_locked_at_a_version_its_range_allows():
    lock = locked()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in lock, f"{requirement.name} (pyproject.toml) is not in requirements.lock"
        version = pinned_version(lock[name])
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {name} {version}, outside pyproject.toml's {requirement.specifier}")
        assert lock[name].marker == requirement.marker, f"{name}: the lock's platform marker is pyproject.toml's"


def test_what_a_locked_package_requires_is_locked_too():
    """Read from the installed packages' metadata (the lock's versions may differ a little from the test
    environment's; a requirement added or renamed upstream shows as a name missing here)."""
    lock = locked()
    wanted_extras = {canonicalize_name(r.name): r.extras for r in declared()}
    missing = set()
    for name in lock:
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for line in requires:
            requirement = Requirement(line)
            extras = wanted_extras.get(name, set()) or {""}
            if requirement.marker is None or any(requirement.marker.evaluate({"extra": extra}) for extra in extras):
                if canonicalize_name(requirement.name) not in lock:
                    missing.add(f"{requirement.name} (for {name})")
    assert sorted(missing) == []


def test_the_image_installs_the_lock_and_nothing_resolved():
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.strip().startswith(("RUN pip", "COPY requirements.lock"))]
    assert lines[:2] == ["COPY requirements.lock ./", "RUN pip install --no-deps -r requirements.lock"]
    assert all("--no-deps" in line for line in lines if line.startswith("RUN pip install"))
