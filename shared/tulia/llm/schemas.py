"""The JSON outputs of the classifier and router nodes (Appendix B), validated with pydantic.

A model answer that does not parse or does not validate counts as invalid JSON: the client retries
once with "return valid JSON only", then the caller falls back (spec implementation notes).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tulia.domain.literals import GovernorClass, Intent


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


class SaleReading(_Out):
    """What the message says about a sale: the order frame's slots, only as the customer said them."""

    product: str | None = Field(
        default=None,
        max_length=120,
        description="The product or service the customer names, in their words, without quantities, places, "
        "payment words or codes. null if none.",
    )
    quantity: int | None = Field(default=None, ge=1, le=1000, description="How many, if the customer says so.")
    quantity_change: Literal["set", "add"] = Field(
        default="set", description="'add' when the customer adds to the quantity they had ('one more')."
    )
    options: list[str] = Field(
        default_factory=list, max_length=6, description="Variant options named: colour, size, storage."
    )
    fulfilment: Literal["delivery", "pickup"] | None = None
    zone: str | None = Field(default=None, description="One of the shop's delivery zones, exactly as listed.")
    place: str | None = Field(default=None, max_length=200, description="The area or landmark words for delivery.")
    payment_method: Literal["mpesa_stk", "mpesa_c2b", "pesapal"] | None = None
    coupon_code: str | None = Field(default=None, max_length=32, description="A code exactly as the customer typed.")
    remove_item: str | None = Field(default=None, max_length=120, description="The item the customer removes.")
    add_item: bool = Field(default=False, description="True when the item named is added to the order.")
    wants_to_pay: bool = Field(default=False, description="True when the customer asks to pay now.")


class ClassifyTurnOut(_Out):
    """One reading of a customer message: the three classifier nodes' outputs and the sale's slots."""

    intent_classify: IntentOut
    language_policy: LanguageOut
    governor_spam_casual: GovernorOut
    sale: SaleReading = Field(default_factory=SaleReading)


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
