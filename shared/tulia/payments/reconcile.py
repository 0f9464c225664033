"""Matching money that paid no order to the order it was for: a Till (Buy Goods) payment carries no
account number, so it lands in the shop's unmatched list; the customer's M-Pesa confirmation code,
or a person in the admin API, says which order it pays. Exact amounts only; a code pays once."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Literal, Protocol

from tulia.domain.common import new_id
from tulia.domain.order import PAYABLE_STATES, Order
from tulia.domain.payment import OwedBack, Payment, UnmatchedPayment
from tulia.errors import BusinessRuleViolation, NotFound, StateConflict
from tulia.store.orders import OrderRepo, PaymentRepo


class Ledger(Protocol):
    """What matching money to orders needs (the application's services have it)."""

    @property
    def orders(self) -> OrderRepo: ...
    @property
    def payments(self) -> PaymentRepo: ...


Outcome = Literal[
    "paid",  # the money now pays the order
    "already_paid_by_it",  # this transaction paid this order before (a repeat)
    "used_elsewhere",  # this transaction is booked against another order, or as an overpayment
    "amount_mismatch",  # the transaction is not the order's amount due
    "order_not_payable",  # the order is paid, cancelled or fulfilled
    "unknown_code",  # no unmatched transaction with this code in this shop (yet)
    "payer_mismatch",  # the money came from a phone that is not the customer's (nor the one they said paid)
]
SUGGESTION_WINDOW = timedelta(days=7)  # an order is suggested for money received up to a week after it


@dataclass(frozen=True)
class Applied:
    outcome: Outcome
    order: Order
    payment: Payment | None = None
    amount: Decimal | None = None  # the transaction's amount, when the code is known


def _amount(unmatched: UnmatchedPayment) -> Decimal | None:
    try:
        return Decimal(unmatched.amount)
    except InvalidOperation:
        return None


def payer_fits(recorded: str, phones: Sequence[str]) -> bool:
    """Whether the payer Daraja recorded (masked "2547 ***** 126", or a SHA-256 of the number) is one of
    ``phones`` (+2547XXXXXXXX). Nothing recorded (money kept before payers were): nothing to check."""
    said = recorded.strip()
    if not said:
        return True
    numbers = [re.sub(r"\D", "", p) for p in phones if p]
    if re.fullmatch(r"[0-9a-fA-F]{64}", said):
        return any(hashlib.sha256(n.encode()).hexdigest() == said.lower() for n in numbers)
    shown = re.findall(r"\d+", said)
    if len(shown) < 2:
        return False
    return any(n.startswith(shown[0]) and n.endswith(shown[-1]) for n in numbers)


def apply_transaction(
    services: Ledger,
    tenant_id: str,
    trans_id: str,
    order_id: str,
    *,
    now: datetime,
    payers: Sequence[str] | None = None,
) -> Applied:
    """Pay ``order_id`` with the unmatched M-Pesa transaction ``trans_id`` of this shop, if it is the
    order's exact amount due and (``payers``: the phones the customer has or said paid; ``None`` when a
    person of the shop matches it) it came from one of those phones; otherwise say why not. Another
    shop's code is unknown here, and another payer's code reveals nothing of its payment."""
    s = services
    code = trans_id.strip().upper()
    order = s.orders.get(tenant_id, order_id)  # another shop's order: NotFound
    for _ in range(2):  # a lost race is read again once: the winner's result is the answer
        unmatched = s.payments.get_unmatched(tenant_id, code)
        if unmatched is None:
            booked = s.payments.find_by_ref(tenant_id, "c2b", code)
            if booked is not None and booked.order_id == order.order_id and not booked.overpayment:
                return Applied("already_paid_by_it", s.orders.get(tenant_id, order_id), booked, Decimal(booked.amount))
            if booked is not None or s.payments.ref_claimed(tenant_id, "c2b", code):
                return Applied("used_elsewhere", order)
            return Applied("unknown_code", order)
        if payers is not None and not payer_fits(unmatched.payer_phone, payers):
            return Applied("payer_mismatch", order)
        amount = _amount(unmatched)
        if order.status not in PAYABLE_STATES:
            return Applied("order_not_payable", order, amount=amount)
        if amount is None or amount != order.amount_due:
            return Applied("amount_mismatch", order, amount=amount)
        payment = Payment(
            tenant_id=tenant_id,
            payment_id=new_id("pay"),
            order_id=order.order_id,
            customer_id=order.customer_id,
            method="mpesa_c2b",
            amount=int(amount),
            status="paid",
            receipt=code,
            result_code="0",
            result_desc="matched by its M-Pesa confirmation code",
            created_at=now,
            updated_at=now,
        )
        try:
            s.payments.apply_unmatched(unmatched, order, payment, now)
        except StateConflict:
            order = s.orders.get(tenant_id, order_id)
            continue
        return Applied("paid", s.orders.get(tenant_id, order_id), payment, amount)
    return Applied("used_elsewhere", order)


def suggested_orders(services: Ledger, unmatched: UnmatchedPayment, *, limit: int = 5) -> list[Order]:
    """Orders this money could pay: payable, for exactly its amount, made in the week before it came
    (newest first)."""
    amount = _amount(unmatched)
    if amount is None or amount != amount.to_integral_value():
        return []
    found: list[Order] = []
    cursor = None
    for _ in range(10):  # at most 10 pages of the shop's recent orders
        page = services.orders.list_for_tenant(unmatched.tenant_id, limit=100, cursor=cursor)
        for order in page.items:
            if order.created_at > unmatched.received_at:
                continue
            if unmatched.received_at - order.created_at > SUGGESTION_WINDOW:
                return found
            if order.status in PAYABLE_STATES and order.amount_due == amount:
                found.append(order)
                if len(found) >= limit:
                    return found
        if page.cursor is None:
            return found
        cursor = page.cursor
    return found


def unmatched_or_404(services: Ledger, tenant_id: str, trans_id: str) -> UnmatchedPayment:
    unmatched = services.payments.get_unmatched(tenant_id, trans_id.strip().upper())
    if unmatched is None:
        raise NotFound(f"No unmatched payment '{trans_id}'.", field="trans_id")
    return unmatched


def apply_owed_back(
    services: Ledger, owed: OwedBack, order_id: str, *, now: datetime, by: str
) -> tuple[Order, Payment]:
    """Apply money owed back to another order of the same customer: as much of it as the order still needs (a
    real payment on that order, made from the same money: its method and receipt); the rest stays owed back.
    A booking's deposit is paid whole or not at all. Refused, with why, for another customer's order, an order
    that cannot take money, one with a payment in flight, or money already closed."""
    if owed.status != "open" or owed.remaining <= 0:
        raise StateConflict("This money was refunded or applied already.", reason=owed.status)
    order = services.orders.get(owed.tenant_id, order_id)  # another shop's order: NotFound
    if order.customer_id != owed.customer_id:
        raise BusinessRuleViolation(
            f"Order {order.order_id} is another customer's: money owed back only pays the same customer's orders.",
            code="another_customer",
        )
    if order.status not in PAYABLE_STATES or order.amount_due <= 0:
        raise StateConflict(
            f"Order {order.order_id} is {order.status.replace('_', ' ')}: it cannot take this money.",
            reason=order.status,
        )
    if order.missing_fields:
        raise BusinessRuleViolation(
            f"Order {order.order_id} is not complete yet (missing: {', '.join(order.missing_fields)}).",
            code="order_incomplete",
        )
    if order.pending_payment_id:
        raise StateConflict(
            f"A payment of order {order.order_id} is in progress: apply this money when it has ended.",
            reason="payment_in_flight",
        )
    amount = min(owed.remaining, order.amount_due)
    if order.booking_id and amount < order.amount_due:
        raise BusinessRuleViolation(
            f"Order {order.order_id} is an appointment's deposit of KES {order.amount_due:,}: it is paid whole, "
            f"and KES {owed.remaining:,} is owed back.",
            code="deposit_paid_whole",
        )
    payment = Payment(
        tenant_id=order.tenant_id,
        payment_id=new_id("pay"),
        order_id=order.order_id,
        customer_id=order.customer_id,
        method=owed.method,
        amount=amount,
        status="paid",
        receipt=owed.receipt,
        result_desc=f"money owed back from order {owed.order_id}, applied by the shop",
        applied_from=owed.provider_ref,
        created_at=now,
        updated_at=now,
    )
    services.payments.apply_owed_back(owed, order, payment, now, by)
    return services.orders.get(owed.tenant_id, order_id), payment
