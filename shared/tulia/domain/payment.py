"""Payments: one record per attempt, with the provider's references and a monotonic status."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model
from tulia.domain.tenant import PaymentMethod

PaymentStatus = Literal["pending", "paid", "failed", "cancelled", "timeout"]

# pending is the only state a provider outcome may leave; a confirmed payment that arrives after a
# timeout is still recorded (paid late) and flagged for review by the caller.
PAYMENT_TRANSITIONS: dict[str, frozenset[str]] = {
    "pending": frozenset({"paid", "failed", "cancelled", "timeout"}),
    "timeout": frozenset({"paid"}),
    "failed": frozenset(),
    "cancelled": frozenset(),
    "paid": frozenset(),
}


class Payment(Model):
    tenant_id: str
    payment_id: str
    order_id: str
    customer_id: str
    method: PaymentMethod
    amount: int = Field(gt=0)
    currency: Literal["KES"] = "KES"
    status: PaymentStatus = "pending"
    msisdn: str | None = None  # 2547XXXXXXXX, for STK only
    checkout_request_id: str | None = None
    merchant_request_id: str | None = None
    order_tracking_id: str | None = None
    merchant_reference: str | None = None
    redirect_url: str | None = None
    callback_token: str | None = None
    receipt: str | None = None
    result_code: str | None = None
    result_desc: str | None = None
    needs_review: bool = False
    overpayment: bool = False  # confirmed money its order could not take: kept in the overpayments list
    applied_from: str | None = None  # money owed back (its provider ref) that the shop applied to this order
    created_at: datetime
    updated_at: datetime


# shortcode_not_listed: confirmed to a Paybill or Till the shop no longer lists (its URLs still registered)
UnmatchedReason = Literal["unknown_reference", "amount_mismatch", "order_not_payable", "shortcode_not_listed"]


class UnmatchedPayment(Model):
    """Money that arrived (a confirmed Paybill/Till payment) but pays no order as it stands: a person
    must match it (the shop's reconciliation view). One record per M-Pesa transaction."""

    tenant_id: str
    trans_id: str = Field(min_length=1, max_length=40)
    method: PaymentMethod = "mpesa_c2b"
    amount: str  # as Daraja sent it ("1710.00"): never rounded into something else
    bill_ref: str = Field(default="", max_length=40)  # the account number the customer typed
    payer_name: str = Field(default="", max_length=120)  # Daraja's FirstName
    # Daraja's MSISDN as sent: masked ("2547 ***** 126", v2) or a SHA-256 of 2547XXXXXXXX (v1); "" before kept
    payer_phone: str = Field(default="", max_length=80)
    reason: UnmatchedReason
    order_id: str | None = None  # the order the reference named, when it exists
    customer_id: str | None = None
    handoff_ticket_id: str | None = None
    status: Literal["open", "resolved"] = "open"
    received_at: datetime


# Why the shop owes money back. Kept apart from any order (the order could not take it):
#   order_already_paid, order_cancelled, order_not_payable, and slot_released (a deposit that came after
#   its held appointment slot went to someone else).
# Owed from a paid order: deposit_due_back (a booking cancelled when its policy returns the deposit).
OwedBackReason = Literal[
    "order_already_paid", "order_cancelled", "order_not_payable", "slot_released", "deposit_due_back"
]
OwedBackStatus = Literal["open", "refunded", "applied"]
# the one state machine of money owed back: open until the shop refunds it or applies it, then closed
OWED_BACK_TRANSITIONS: dict[OwedBackStatus, frozenset[OwedBackStatus]] = {
    "open": frozenset({"refunded", "applied"}),
    "refunded": frozenset(),
    "applied": frozenset(),
}


class CreditUse(Model):
    """Part or all of money owed back, applied by the shop to another order of the same customer."""

    order_id: str
    payment_id: str  # the payment it made on that order
    amount: int = Field(gt=0)
    at: datetime
    by: str


class OwedBack(Model):
    """Money the shop owes back to a customer, one record per provider transaction: confirmed money an
    order could not take (an overpayment), or a paid deposit due back after a cancellation. The shop
    applies it to other orders of the same customer (in parts: each a real payment on that order) or records
    what remains refunded; it is closed when nothing remains, and closing it anywhere (the money list, the
    booking) closes it everywhere."""

    tenant_id: str
    payment_id: str
    order_id: str
    customer_id: str
    method: PaymentMethod
    provider_ref: str = Field(min_length=1, max_length=80)  # CheckoutRequestID, TransID or OrderTrackingId
    amount: int = Field(gt=0)
    receipt: str | None = None
    reason: OwedBackReason
    booking_id: str | None = None  # the appointment whose deposit this is (its deposit outcome follows)
    handoff_ticket_id: str | None = None
    status: OwedBackStatus = "open"
    received_at: datetime
    closed_at: datetime | None = None  # when the shop refunded or applied it
    closed_by: str | None = None
    note: str | None = Field(default=None, max_length=200)
    applied: list[CreditUse] = Field(default_factory=list)  # to other orders, oldest first
    applied_amount: int = 0  # the sum of ``applied``

    @property
    def remaining(self) -> int:
        """What is still owed back: the amount less what was applied to other orders."""
        return max(0, self.amount - self.applied_amount)

    @property
    def kept_apart(self) -> bool:
        """Money no order's paid amount counts (an overpayment); a deposit due back is in its paid order."""
        return self.reason != "deposit_due_back"
