"""Regenerate the README's sample Swahili conversation from the engine itself.

Runs ``tulia chat --markdown`` on ``scripts/sample_chat_sw.txt`` against the demo shop and replaces
the README text between the ``sample-conversation`` markers.

    .venv/bin/python scripts/readme_sample.py      (or: make readme-sample)
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))

from tulia.local.chat import run_chat  # noqa: E402
from tulia.packs.loader import load_pack  # noqa: E402

START, END = "<!-- sample-conversation:start -->", "<!-- sample-conversation:end -->"


def main() -> int:
    lines = (ROOT / "scripts" / "sample_chat_sw.txt").read_text(encoding="utf-8").splitlines()
    out = io.StringIO()
    run_chat([load_pack(ROOT / "packs" / "demo-shop")], lines, out=out, markdown=True)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    if START not in readme or END not in readme:
        print(f"README.md has no {START} ... {END} section", file=sys.stderr)
        return 1
    body = out.getvalue().rstrip().rstrip(">").rstrip()
    updated = re.sub(re.escape(START) + r".*?" + re.escape(END), f"{START}\n{body}\n{END}", readme, flags=re.S)
    (ROOT / "README.md").write_text(updated, encoding="utf-8")
    print(f"README.md: sample conversation of {len(lines)} customer messages regenerated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
