"""The console's types are the admin API's: ``console/openapi.json`` is the document ``GET /admin/openapi.json``
serves, and ``console/src/api-schema.ts`` is openapi-typescript's output for it (``console/src/types.ts`` names
the shapes the console uses from there). A route or model changed without ``make console-types`` fails here; the
console's type check (``tsc`` in ``make console``) then fails where the console reads a shape the API changed."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def console_types() -> ModuleType:
    return load_script("console_types")


def test_the_committed_document_is_what_the_api_serves(console_types: ModuleType) -> None:
    committed = (ROOT / "console" / "openapi.json").read_text(encoding="utf-8")
    assert console_types.spec_text() == committed, "the admin API changed: run `make console-types`"
    document = json.loads(committed)
    assert "/admin/orders" in document["paths"]
    order = document["components"]["schemas"]["Order"]
    assert "delivery" in order["required"]  # answered with every field: a field with a default is required


def test_the_generated_types_are_openapi_typescripts_output_for_it(console_types: ModuleType) -> None:
    if not console_types.CODEGEN.exists():
        pytest.fail("openapi-typescript is not installed: `make console` installs console/codegen")
    committed = (ROOT / "console" / "src" / "api-schema.ts").read_text(encoding="utf-8")
    assert console_types.schema_ts(ROOT / "console" / "openapi.json") == committed, "run `make console-types`"


def test_a_changed_model_shows_as_drift(console_types: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    from tulia.admin import api

    real = api.openapi_document

    def with_a_new_field() -> dict[str, object]:
        document = real()
        schemas = document["components"]["schemas"]  # type: ignore[index]
        schemas["Order"]["properties"]["rider_phone"] = {"type": "string"}  # type: ignore[index]
        return document

    monkeypatch.setattr(api, "openapi_document", with_a_new_field)
    assert console_types.spec_text() != (ROOT / "console" / "openapi.json").read_text(encoding="utf-8")
