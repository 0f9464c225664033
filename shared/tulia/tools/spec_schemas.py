"""Read the tool schemas of Appendix A out of the product spec (used by tests and to refresh the
pinned copy ``tests/fixtures/spec_tool_schemas.json``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

FULL_APPENDIX_HEADING = "### Appendix A — Tool Schemas (Full)"


def parse_spec_tool_schemas(spec_text: str) -> list[dict[str, Any]]:
    start = spec_text.index(FULL_APPENDIX_HEADING)
    end = spec_text.find("\n### Appendix B", start)
    section = spec_text[start : end if end != -1 else None]
    blocks = re.findall(r"```json\s*\n(.*?)```", section, flags=re.S)
    return [json.loads(b) for b in blocks]


def load_spec_tool_schemas(spec_path: Path) -> list[dict[str, Any]]:
    return parse_spec_tool_schemas(spec_path.read_text(encoding="utf-8"))
