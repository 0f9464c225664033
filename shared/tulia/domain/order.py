"""Orders, their totals, and the order state machine."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model

OrderStatus = Literal["draft", "pending_payment", "paid", "fulfilled", "cancelled", "payment_failed"]
DeliveryMode = Literal["pickup", "delivery", "digital"]
PaymentState = Literal["none", "pending", "paid", "failed", "cancelled", "timeout"]

# Allowed moves. Anything else (a late or duplicate event) is refused by a conditional write.
ORDER_TRANSITIONS: dict[str, frozenset[str]] = {
    "draft": frozenset({"pending_payment", "cancelled"}),
    "pending_payment": frozenset({"paid", "payment_failed", "cancelled"}),
    "payment_failed": frozenset({"pending_payment", "paid", "cancelled"}),
    "paid": frozenset({"fulfilled"}),
    "fulfilled": frozenset(),
    "cancelled": frozenset(),
}
FulfilmentStatus = Literal["not_started", "processing", "dispatched", "delivered", "ready_for_pickup"]
# What staff mark on a paid order, the fulfilment it moves to, and from where (delivered also makes the
# order fulfilled). Cancelling is the order state machine's (unpaid orders only).
OrderEvent = Literal["confirmed", "dispatched", "ready_for_pickup", "delivered", "cancelled"]
FULFILMENT_STEPS: dict[str, tuple[FulfilmentStatus, frozenset[str]]] = {
    "confirmed": ("processing", frozenset({"not_started"})),
    "dispatched": ("dispatched", frozenset({"not_started", "processing"})),
    "ready_for_pickup": ("ready_for_pickup", frozenset({"not_started", "processing"})),
    "delivered": ("delivered", frozenset({"not_started", "processing", "dispatched", "ready_for_pickup"})),
}
# States in which the order may still be changed by the customer (items, coupon, delivery).
EDITABLE_STATES = frozenset({"draft", "pending_payment", "payment_failed"})
PAYABLE_STATES = frozenset({"draft", "pending_payment", "payment_failed"})


class OrderLine(Model):
    item_id: str
    name: str
    category: str
    quantity: int = Field(ge=1, le=1000)
    unit_price: int = Field(ge=0)
    variant_selection: dict[str, str] = Field(default_factory=dict)
    line_total: int = Field(ge=0)


class Delivery(Model):
    mode: DeliveryMode | None = None
    address_text: str | None = Field(default=None, max_length=300)
    location_hint: str | None = Field(default=None, max_length=200)
    zone: str | None = None
    fee: int = 0
    eta: str | None = None


class OrderTotals(Model):
    subtotal: int = Field(ge=0)
    delivery_fee: int = Field(ge=0)
    discount: int = Field(ge=0)
    total: int = Field(ge=0)
    currency: Literal["KES"] = "KES"


class AppliedOffer(Model):
    offer_id: str
    code: str | None = None
    title: str
    discount: int = Field(ge=0)


class PesapalCheckoutRef(Model):
    payment_id: str
    amount: int
    redirect_url: str
    order_tracking_id: str


class OrderMark(Model):
    """A step staff marked on the order (its history beside the payments)."""

    event: OrderEvent
    at: datetime
    by: str | None = None


class Order(Model):
    tenant_id: str
    order_id: str  # the human reference, e.g. ORD-7F3K2
    customer_id: str
    conversation_id: str | None = None
    status: OrderStatus = "draft"
    payment_status: PaymentState = "none"
    lines: list[OrderLine] = Field(min_length=1)
    delivery: Delivery = Field(default_factory=Delivery)
    totals: OrderTotals
    offer: AppliedOffer | None = None
    notes: str | None = Field(default=None, max_length=500)
    pending_payment_id: str | None = None
    pesapal_checkout: PesapalCheckoutRef | None = None
    missing_fields: list[str] = Field(default_factory=list)  # what must be answered before payment
    paid_amount: int = 0
    fulfilment_status: FulfilmentStatus = "not_started"
    marks: list[OrderMark] = Field(default_factory=list)
    booking_id: str | None = None  # the appointment this order is the deposit of: paid, it is confirmed
    created_at: datetime
    updated_at: datetime
    paid_at: datetime | None = None

    @property
    def reference(self) -> str:
        return self.order_id

    @property
    def amount_due(self) -> int:
        return max(0, self.totals.total - self.paid_amount)


def compute_totals(lines: list[OrderLine], delivery_fee: int, discount: int) -> OrderTotals:
    subtotal = sum(line.line_total for line in lines)
    discount = max(0, min(discount, subtotal))
    return OrderTotals(
        subtotal=subtotal, delivery_fee=delivery_fee, discount=discount, total=subtotal - discount + delivery_fee
    )
