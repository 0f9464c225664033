"""The JSON outputs of the classifier and router nodes (Appendix B), validated with pydantic.

A model answer that does not parse or does not validate counts as invalid JSON: the client retries
once with "return valid JSON only", then the caller falls back (spec implementation notes).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tulia.nlu.types import GovernorClass, Intent


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")


class IntentOut(_Out):
    intent: Intent
    confidence: float = Field(ge=0, le=1)
    notes: str = Field(default="", max_length=300)
    suggested_journey: Literal["sales", "support", "orders", "offers", "prefs", "governance", "unknown"] | None = None


class LanguageOut(_Out):
    response_language: Literal["en", "sw", "sheng", "mixed"]
    confidence: float = Field(ge=0, le=1)
    should_ask_language_question: bool = False


class GovernorOut(_Out):
    classification: GovernorClass
    confidence: float = Field(ge=0, le=1)
    recommended_action: Literal["proceed", "redirect", "limit", "stop", "handoff"] = "proceed"


class ClassifyTurnOut(_Out):
    intent_classify: IntentOut
    language_policy: LanguageOut
    governor_spam_casual: GovernorOut


class SearchFilters(_Out):
    type: Literal["product", "service", "any"] = "any"
    category: str | None = None
    min_price: int | None = Field(default=None, ge=0)
    max_price: int | None = Field(default=None, ge=0)
    tags: list[str] = Field(default_factory=list)


class NarrowOut(_Out):
    action: Literal["search", "clarify"]
    query: str | None = Field(default=None, max_length=200)
    filters: SearchFilters = Field(default_factory=SearchFilters)
    limit: int = Field(default=6, ge=1, le=6)
    question: str | None = Field(default=None, max_length=300)
    options: list[str] = Field(default_factory=list, max_length=6)


class PaymentRouterOut(_Out):
    next_action: Literal["stk", "c2b", "card", "clarify"]
    confirmation_needed: list[str] = Field(default_factory=list)
    message_to_user: str = Field(default="", max_length=1000)
