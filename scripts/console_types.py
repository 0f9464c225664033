"""Write the console's types from the admin API: ``console/openapi.json`` (the document ``GET /admin/openapi.json``
serves) and ``console/src/api-schema.ts`` (openapi-typescript over it, from ``console/codegen``'s own lock).
``console/src/types.ts`` names the shapes the console uses from it; ``tests/unit/test_console_types.py`` fails when
either file no longer matches the API.

    make console-types
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))

SPEC = ROOT / "console" / "openapi.json"
SCHEMA_TS = ROOT / "console" / "src" / "api-schema.ts"
CODEGEN = ROOT / "console" / "codegen" / "node_modules" / "openapi-typescript" / "bin" / "cli.js"
PINNED_NODE = ROOT / "infra" / "cli" / "node_modules" / ".bin" / "node"  # the Node.js 22 of `make cdk-cli`


def spec_text() -> str:
    from tulia.admin.api import openapi_document

    return json.dumps(openapi_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_ts(spec_path: Path) -> str:
    """openapi-typescript's output for the document at ``spec_path``."""
    node = str(PINNED_NODE) if PINNED_NODE.exists() else "node"
    done = subprocess.run(
        [node, str(CODEGEN), str(spec_path)], capture_output=True, text=True, check=True, cwd=ROOT / "console"
    )
    return done.stdout


def main() -> None:
    SPEC.write_text(spec_text(), encoding="utf-8")
    SCHEMA_TS.write_text(schema_ts(SPEC), encoding="utf-8")
    print(f"{SPEC.relative_to(ROOT)}, {SCHEMA_TS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
