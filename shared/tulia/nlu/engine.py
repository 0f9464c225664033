"""One interface for understanding engines (``rules`` now; ``bedrock`` behind the same shape)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from tulia.nlu.types import Understanding


class UnderstandingEngine(Protocol):
    name: str

    def understand(self, text: str, *, is_catalog_word: Callable[[str], bool] | None = None) -> Understanding: ...


def build_engine(kind: str) -> UnderstandingEngine:
    if kind == "rules":
        from tulia.nlu.rules import RulesEngine

        return RulesEngine()
    raise ValueError(f"TULIA_LLM={kind!r} is not available yet; use 'rules'")
