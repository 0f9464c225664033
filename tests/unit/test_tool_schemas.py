"""The registry's schemas are the spec's Appendix A, exactly."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SPEC
from tulia.tools.registry import TOOLS, schemas
from tulia.tools.spec_schemas import load_spec_tool_schemas

PINNED = Path(__file__).parents[1] / "fixtures" / "spec_tool_schemas.json"


def expected() -> list[dict]:
    return load_spec_tool_schemas(SPEC) if SPEC.is_file() else json.loads(PINNED.read_text())


def test_registry_has_the_fifteen_spec_tools_in_order() -> None:
    assert [t.name for t in TOOLS] == [s["name"] for s in expected()]
    assert len(TOOLS) == 15


@pytest.mark.parametrize("position", range(15))
def test_each_tool_schema_equals_appendix_a(position: int) -> None:
    assert schemas()[position] == expected()[position]


@pytest.mark.skipif(not SPEC.is_file(), reason="the product spec is not beside the repository")
def test_pinned_copy_matches_the_spec() -> None:
    assert json.loads(PINNED.read_text()) == load_spec_tool_schemas(SPEC)


def test_schemas_command_prints_the_same_json_array() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tulia.tools", "--schemas"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert json.loads(out.stdout) == expected()
