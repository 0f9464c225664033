"""One interface for understanding engines, chosen by ``TULIA_LLM``: ``rules`` (deterministic, the
embedded default and the fallback) and ``bedrock`` (a chat model with validated JSON output)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tulia.nlu.types import CatalogWords, Understanding

if TYPE_CHECKING:
    from tulia.config import Settings
    from tulia.llm.client import LlmResult
    from tulia.llm.prompts import PromptContext
    from tulia.llm.schemas import NarrowOut


class UnderstandingEngine(Protocol):
    name: str

    def understand(
        self,
        text: str,
        *,
        catalog: CatalogWords | None = None,
        context: PromptContext | None = None,
    ) -> Understanding: ...

    def narrow(self, text: str, *, context: PromptContext) -> LlmResult[NarrowOut] | None:
        """sales_narrow_query: a search request or one clarifying question; ``None`` without a model."""
        ...

    def write(self, node: str, *, context: PromptContext, values: dict[str, Any]) -> LlmResult[Any] | None:
        """A text node's wording; ``None`` without a model. The caller applies the fact guard."""
        ...

    def describe_photo(
        self, data: bytes, mime_type: str, *, caption: str, context: PromptContext
    ) -> LlmResult[Any] | None:
        """A customer's photo as the words of a search (``text`` None: not a product); ``None`` without a model."""
        ...


def build_engine(kind: str, settings: Settings | None = None) -> UnderstandingEngine:
    if kind == "rules":
        from tulia.nlu.rules import RulesEngine

        return RulesEngine()
    if kind == "bedrock":
        from tulia.config import get_settings
        from tulia.nlu.bedrock import bedrock_engine

        return bedrock_engine(settings or get_settings())
    raise ValueError(f"TULIA_LLM={kind!r} is not an engine; use 'rules' or 'bedrock'")
