"""The shape of shared/tulia (issue 32's figures): the largest functions, import circles, arrows up the
layers (the contracts of ``make lint``), and pairs of functions that are near copies of each other.

Usage: .venv/bin/python bench/code_shape.py [TOP]

- Function length: lines from ``def`` to the last line of the body (ast), nested functions counted in their
  parent and on their own.
- Import circles: strongly connected components of grimp's module graph (TYPE_CHECKING imports left out,
  as the lint contracts do).
- Arrows up: what ``lint-imports`` reports broken (0 when ``make lint`` passes).
- Near copies: functions of 8 lines or more whose token 5-gram sets have a Jaccard similarity of 0.8 or
  more (names of variables kept: a copy with renamed names is not counted; a function and one nested in it
  are not a pair).
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import tokenize
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / "shared" / "tulia"


def functions() -> list[tuple[str, int, ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    out = []
    for path in sorted(SHARED.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                text = ast.get_source_segment(source, node) or ""
                out.append((f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", length, node, text))
    return out


def shingles(text: str, n: int = 5) -> set[tuple[str, ...]]:
    toks = [
        t.string
        for t in tokenize.generate_tokens(io.StringIO(text).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        and not (t.type == tokenize.STRING and t.string.lstrip("rbfu").startswith(('"""', "'''")))
    ]
    return {tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)}


def circles() -> list[list[str]]:
    import grimp

    sys.path.insert(0, str(ROOT / "shared"))
    graph = grimp.build_graph("tulia", exclude_type_checking_imports=True)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def main(top: int = 8) -> None:
    funcs = functions()
    print(f"### shared/tulia: {len(funcs)} functions\n")
    print("| largest functions | lines |\n|---|---:|")
    for name, length, _node, _text in sorted(funcs, key=lambda f: -f[1])[:top]:
        print(f"| `{name}` | {length} |")
    found = circles()
    print(f"\nImport circles (modules in a strongly connected component): {len(found)}")
    for component in found:
        print(f"- {' <-> '.join(component)}")
    lint = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True
    )
    broken = re.findall(r"is not allowed to import", lint.stdout)
    kept = re.search(r"Contracts: (\d+) kept, (\d+) broken", lint.stdout)
    print(f"Arrows up the layers: {len(broken)} ({kept.group(0) if kept else lint.stdout[-200:]})")
    big = [(name, node, shingles(text)) for name, length, node, text in funcs if length >= 8]
    pairs = []
    for (a, na, sa), (b, nb, sb) in combinations(big, 2):
        nested = a.split(":")[0] == b.split(":")[0] and (
            na.lineno <= nb.lineno <= (na.end_lineno or 0) or nb.lineno <= na.lineno <= (nb.end_lineno or 0)
        )  # a function and the one defined inside it are not two copies
        if not nested and sa and sb and len(sa & sb) / len(sa | sb) >= 0.8:
            pairs.append((a, b))
    print(f"Near-copy pairs (functions of 8+ lines, token 5-gram Jaccard >= 0.8): {len(pairs)}")
    for a, b in pairs:
        print(f"- `{a}` ~ `{b}`")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
