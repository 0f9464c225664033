"""What the understanding layer tells the graph about one customer message."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from tulia.domain.literals import DetectedLang, GovernorClass, Intent, Journey

if TYPE_CHECKING:
    from tulia.llm.schemas import SaleReading


JOURNEY_OF: dict[str, Journey] = {
    "sales_discovery": "sales",
    "product_question": "sales",
    "payment_help": "sales",
    "support_question": "support",
    "order_status": "orders",
    "discounts_offers": "offers",
    "preferences_consent": "prefs",
    "human_request": "governance",
    "spam_casual": "governance",
    "unknown": "unknown",
}


class CatalogWords(Protocol):
    """A shop's words, as its catalog index knows them (``tulia.search.catalog_index.CatalogIndex``)."""

    product_terms: set[str]  # terms that name things the shop sells
    kinds: set[str]  # terms that name a kind of thing it sells (its categories' head words)
    service_terms: set[str]  # terms of its services' names: what it does to a customer's own things

    def terms(self, text: str) -> list[str]:
        """``text``'s search terms in the shop's words (its vocabulary folded in)."""
        ...

    def own_word(self, term: str) -> str:
        """The shop's own form of a term ("dumu" of "madumu", "chapati" of "chapatis"), else the term."""
        ...


@dataclass(frozen=True)
class Slots:
    """Facts lifted from the message text; never prices or stock, only what the customer said."""

    query: str | None = None  # the product words, fillers removed
    budget_max: int | None = None
    budget_min: int | None = None
    quantity: int | None = None
    order_ref: str | None = None
    coupon_code: str | None = None
    phone: str | None = None
    wants_delivery: bool | None = None  # True delivery, False pickup, None unsaid
    place: str | None = None  # an address or area, when the message gives one
    asked_for_everything: bool = False


@dataclass(frozen=True)
class Signals:
    """Escalation and safety signals of spec 4.5."""

    payment_dispute: bool = False
    refund_request: bool = False
    delivery_complaint: bool = False
    frustrated: bool = False
    sensitive: bool = False


@dataclass(frozen=True)
class Understanding:
    intent: Intent
    intent_confidence: float
    journey: Journey
    language: DetectedLang
    language_confidence: float
    governor: GovernorClass
    governor_confidence: float
    slots: Slots = field(default_factory=Slots)
    signals: Signals = field(default_factory=Signals)
    notes: str = ""
    llm_calls: tuple[dict[str, Any], ...] = ()  # accounting records of the model calls made for this
    fallback: Literal["rules", "clarify"] | None = None  # the model failed: rules engine / clarifying question
    sale: SaleReading | None = (
        None  # the model's reading of the sale's slots (the rules engine reads them in the journey)
    )
