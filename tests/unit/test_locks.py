"""The lock files pin what ships: every requirement is met by a hashed pin, the layers a function
stacks agree on every version, and the base layer does not ship the runtime's own boto3 again.

A requirement edited without ``make lock`` fails here, before a deploy builds a layer from a stale lock.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LAYERS = sorted(p.parent.name for p in (ROOT / "layers").glob("*/requirements.txt"))
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def pins(lock: Path) -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of a lock written by ``uv pip compile``."""
    out: dict[str, tuple[str, int]] = {}
    current = None
    for line in lock.read_text().splitlines():
        found = PIN.match(line)
        if found:
            current = canonicalize_name(found.group(1))
            out[current] = (found.group(2), 0)
        elif current and line.strip().startswith("--hash=sha256:"):
            version, hashes = out[current]
            out[current] = (version, hashes + 1)
        elif not line.startswith(" "):
            current = None
    return out


def requirements(path: Path) -> list[Requirement]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return [Requirement(line) for line in lines if line]


def unmet(reqs: list[Requirement], locked: dict[str, tuple[str, int]]) -> list[str]:
    out = []
    for req in reqs:
        pin = locked.get(canonicalize_name(req.name))
        if pin is None or not req.specifier.contains(pin[0], prereleases=True):
            out.append(f"{req} (locked: {pin[0] if pin else 'missing'})")
    return out


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_lock_meets_its_requirements_with_hashes(layer: str) -> None:
    locked = pins(ROOT / "layers" / layer / "requirements.lock")
    assert unmet(requirements(ROOT / "layers" / layer / "requirements.txt"), locked) == []
    assert [name for name, (_v, hashes) in locked.items() if hashes == 0] == []


def test_the_layers_agree_on_every_version() -> None:
    together = {name: version for name, (version, _h) in pins(ROOT / "layers" / "all.lock").items()}
    for layer in LAYERS:
        locked = pins(ROOT / "layers" / layer / "requirements.lock")
        differ = {n: (v, together.get(n)) for n, (v, _h) in locked.items() if together.get(n) != v}
        assert differ == {}, layer


def test_the_base_layer_leaves_boto3_to_the_lambda_runtime() -> None:
    locked = pins(ROOT / "layers" / "base" / "requirements.lock")
    assert {"boto3", "botocore", "urllib3", "python-dateutil"}.isdisjoint(locked)
    assert "aws-xray-sdk" in locked  # the Tracer's provider ships; its botocore is the runtime's


def test_the_search_layer_keeps_botocores_dateutil() -> None:
    """botocore needs python-dateutil<3; opensearch-py alone would take 4.x."""
    version, _hashes = pins(ROOT / "layers" / "search" / "requirements.lock")["python-dateutil"]
    assert int(version.split(".")[0]) < 3


def test_the_dev_lock_meets_pyproject_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["dev"]]
    locked = pins(ROOT / "requirements" / "dev.lock")
    assert unmet(declared, locked) == []
    assert [name for name, (_v, hashes) in locked.items() if hashes == 0] == []


def test_the_layers_ship_what_the_tests_ran() -> None:
    """A version in a layer is the dev environment's version of that package."""
    dev = {name: version for name, (version, _h) in pins(ROOT / "requirements" / "dev.lock").items()}
    together = pins(ROOT / "layers" / "all.lock")
    differ = {n: (v, dev[n]) for n, (v, _h) in together.items() if n in dev and dev[n] != v}
    assert differ == {}
