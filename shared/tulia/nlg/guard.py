"""The fact guard: model-written text may only contain facts that a tool returned this turn.

Every number (prices, amounts, quantities, percentages, dates, times), every order or ticket
reference and every code-like token in the text must appear in the tool output; otherwise the
template wording is used instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_TOKEN = re.compile(r"\b(?:[A-Z]{2,}[-_]?[A-Z0-9]*\d[A-Z0-9]*|[A-Z0-9]{2,}-[A-Z0-9]{3,}|ws_CO_\w+)\b")


def _numbers(text: str) -> set[str]:
    out = set()
    for m in _NUMBER.findall(text):
        plain = m.replace(",", "")
        if plain.endswith(".0"):
            plain = plain[:-2]
        out.add(plain)
    return out


def facts_of(*tool_outputs: Any) -> tuple[set[str], set[str]]:
    blob = json.dumps(tool_outputs, default=str, ensure_ascii=False)
    return _numbers(blob), {t.upper() for t in re.findall(r"[A-Za-z0-9_-]{3,}", blob)}


def unsupported_facts(text: str, *tool_outputs: Any, allowed_numbers: set[str] | None = None) -> list[str]:
    """The numbers and reference-like tokens in ``text`` that no tool output contains."""
    numbers, tokens = facts_of(*tool_outputs)
    numbers |= allowed_numbers or set()
    missing = [n for n in _numbers(text) if n not in numbers]
    missing += [t for t in _TOKEN.findall(text) if t.upper() not in tokens]
    return missing


def passes(text: str, *tool_outputs: Any, allowed_numbers: set[str] | None = None) -> bool:
    return not unsupported_facts(text, *tool_outputs, allowed_numbers=allowed_numbers)
