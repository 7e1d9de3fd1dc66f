"""The lock (constraints.txt) holds every package the app and its tests install, at a version
pyproject.toml allows, and the packages whose internals the compiled solver uses are bounded
above (docs/dependencies.md)."""
import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
INSTALLED = [Requirement(r) for r in PROJECT["project"]["dependencies"]
             + PROJECT["project"]["optional-dependencies"]["dev"]]
BUILD = [Requirement(r) for r in PROJECT["build-system"]["requires"]]     # the build backend


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            m = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line.strip())
            assert m, f"constraints.txt: not a pin: {line!r} (scripts/lock writes name==version)"
            out[canonicalize_name(m[1])] = m[2]
    return out


def test_every_package_pyproject_names_is_pinned_at_a_version_it_allows():
    lock = pins()
    for req in INSTALLED + BUILD:
        name = canonicalize_name(req.name)
        assert name in lock, f"{req.name} is not in constraints.txt: run scripts/lock"
        assert req.specifier.contains(lock[name], prereleases=True), \
            f"constraints.txt pins {req.name}=={lock[name]}, pyproject.toml asks {req}"


def test_the_packages_whose_internals_the_solver_uses_are_bounded_above():
    for name in ("numba", "llvmlite"):
        req = next((r for r in INSTALLED if canonicalize_name(r.name) == name), None)
        assert req is not None, f"{name} is not listed in pyproject.toml"
        assert any(s.operator in ("<", "<=", "==", "~=") for s in req.specifier), \
            f"{req}: no upper bound"


def test_every_package_installed_for_the_app_and_its_tests_is_pinned():
    # The packages pyproject.toml asks for and, through their installed metadata, everything
    # they bring (with their extras): what scripts/setup --dev installed. One missing from the
    # lock would come at whatever version is newest on the day of a fresh install.
    lock, seen = pins(), set()
    todo = [(r, r.extras, "pyproject.toml") for r in INSTALLED]
    while todo:
        req, extras, wanted_by = todo.pop()
        name = canonicalize_name(req.name)
        if (name, frozenset(extras)) in seen:
            continue
        seen.add((name, frozenset(extras)))
        assert name in lock, f"{req.name} (wanted by {wanted_by}) is not in constraints.txt: " \
                             "run scripts/lock"
        for text in metadata.requires(req.name) or []:
            sub = Requirement(text)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e})
                                         for e in (extras or {""})):
                todo.append((sub, sub.extras, req.name))
    assert len({n for n, _ in seen}) >= 20, "found too few packages to check"
