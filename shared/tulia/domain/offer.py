"""Offers and coupons, and the pure rules that decide whether one applies."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal, get_args

from pydantic import Field, field_validator, model_validator

from tulia.domain.common import Model

OfferKind = Literal["percent", "fixed"]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WEEKDAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class Offer(Model):
    tenant_id: str
    offer_id: str = Field(min_length=1, max_length=64)
    code: str | None = Field(default=None, min_length=3, max_length=32, pattern=r"^[A-Z0-9_-]+$")
    title: str = Field(min_length=1, max_length=120)
    description: str = ""
    kind: OfferKind
    value: int = Field(gt=0)
    valid_from: date
    valid_to: date
    min_order: int = Field(default=0, ge=0)
    max_discount: int | None = Field(default=None, gt=0)
    usage_limit: int | None = Field(default=None, gt=0)  # across all customers
    per_customer_limit: int = Field(default=1, ge=1)
    first_order_only: bool = False
    requires_opt_in: bool = False
    categories: list[str] = Field(default_factory=list)  # empty: the whole catalog
    days: list[Weekday] = Field(default_factory=list)  # empty: every day (Nairobi calendar)
    redemptions: int = 0
    active: bool = True

    @field_validator("days", mode="before")
    @classmethod
    def _short_days(cls, v: object) -> object:
        return [str(d).strip().lower()[:3] for d in v] if isinstance(v, list) else v

    @field_validator("code", mode="before")
    @classmethod
    def _upper(cls, v: object) -> object:
        return v.strip().upper() if isinstance(v, str) else v

    @model_validator(mode="after")
    def _consistent(self) -> Offer:
        if self.valid_to < self.valid_from:
            raise ValueError("valid_to is before valid_from")
        if self.kind == "percent" and self.value > 100:
            raise ValueError("a percent offer cannot exceed 100")
        return self

    def discount_on(self, eligible_amount: int) -> int:
        if self.kind == "percent":
            discount = eligible_amount * self.value // 100
        else:
            discount = self.value
        if self.max_discount is not None:
            discount = min(discount, self.max_discount)
        return max(0, min(discount, eligible_amount))


OfferState = Literal["live", "upcoming", "used_up", "ended", "off"]
OFFER_STATES: tuple[OfferState, ...] = get_args(OfferState)


def offer_state(offer: Offer, today: date) -> OfferState:
    """Where an offer stands today (the shop's calendar): running, not started, used up, ended or switched off."""
    if not offer.active:
        return "off"
    if today < offer.valid_from:
        return "upcoming"
    if today > offer.valid_to:
        return "ended"
    if offer.usage_limit is not None and offer.redemptions >= offer.usage_limit:
        return "used_up"
    return "live"


@dataclass(frozen=True)
class OfferCheck:
    """Facts about the customer and order that the rules need; no I/O."""

    today: date
    opted_in: bool
    paid_orders: int
    customer_redemptions: int  # how often this customer used this offer
    subtotal: int | None  # None when there is no order yet
    category_subtotals: dict[str, int] | None = None


@dataclass(frozen=True)
class Eligibility:
    eligible: bool
    reason: str | None  # why not, as a stable code
    discount: int | None  # for an order; None without one


def evaluate_offer(offer: Offer, check: OfferCheck) -> Eligibility:
    """Decide whether ``offer`` applies. Reasons are stable codes the wording layer translates."""
    reason: str | None = None
    if not offer.active:
        reason = "inactive"
    elif check.today < offer.valid_from:
        reason = "not_started"
    elif check.today > offer.valid_to:
        reason = "expired"
    elif offer.days and WEEKDAYS[check.today.weekday()] not in offer.days:
        reason = "not_today"
    elif offer.usage_limit is not None and offer.redemptions >= offer.usage_limit:
        reason = "usage_limit_reached"
    elif check.customer_redemptions >= offer.per_customer_limit:
        reason = "already_used"
    elif offer.requires_opt_in and not check.opted_in:
        reason = "requires_opt_in"
    elif offer.first_order_only and check.paid_orders > 0:
        reason = "first_order_only"
    if reason is not None:
        return Eligibility(False, reason, None)
    if check.subtotal is None:
        return Eligibility(True, None, None)
    eligible_amount = check.subtotal
    if offer.categories:
        by_cat = check.category_subtotals or {}
        wanted = {c.casefold() for c in offer.categories}
        eligible_amount = sum(v for k, v in by_cat.items() if k.casefold() in wanted)
        if eligible_amount == 0:
            return Eligibility(False, "no_eligible_items", 0)
    if check.subtotal < offer.min_order:
        return Eligibility(False, "below_min_order", 0)
    return Eligibility(True, None, offer.discount_on(eligible_amount))
