"""Orders and payments. A payment lives in its order's partition, so one query reads both.

All state changes are conditional writes: a move not allowed by ``ORDER_TRANSITIONS`` or
``PAYMENT_TRANSITIONS`` (a late or duplicate callback, a double click) raises ``StateConflict``
and writes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, Literal

from tulia.domain.booking import Booking
from tulia.domain.common import iso
from tulia.domain.order import FULFILMENT_STEPS, ORDER_TRANSITIONS, PAYABLE_STATES, Order
from tulia.domain.payment import (
    OWED_BACK_TRANSITIONS,
    PAYMENT_TRANSITIONS,
    CreditUse,
    OwedBack,
    OwedBackReason,
    Payment,
    UnmatchedPayment,
)
from tulia.errors import NotFound, StateConflict
from tulia.store import keys
from tulia.store.bookings import BookingRepo
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key, Page
from tulia.store.order_items import order_item
from tulia.store.tables import CUSTOMERS, ORDERS, ORDERS_BY_CUSTOMER, ORDERS_BY_TENANT


def _in(values: Iterable[str], prefix: str) -> tuple[str, dict[str, Any]]:
    vals = {f":{prefix}{n}": v for n, v in enumerate(sorted(values))}
    return "(" + ", ".join(vals) + ")", vals


class OrderRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def search(
        self,
        tenant_id: str,
        *,
        customer_id: str | None = None,
        status: str | None = None,
        payment_status: str | None = None,
        created_between: tuple[str, str] | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[Order]:
        """The shop's orders (or one customer's), newest first, filtered by status, payment status and the
        sortable creation times ``created_between`` (both included)."""
        if customer_id:
            index, pk = ORDERS_BY_CUSTOMER, keys.customer_orders_gsi_pk(tenant_id, customer_id)
        else:
            index, pk = ORDERS_BY_TENANT, keys.tenant_orders_gsi_pk(tenant_id)
        wheres: list[str] = []
        names: dict[str, str] = {}
        values: dict[str, Any] = {}
        if status:
            wheres.append("#s = :status")
            names["#s"], values[":status"] = "status", status
        if payment_status:
            wheres.append("#p = :payment")
            names["#p"], values[":payment"] = "payment_status", payment_status
        page = self.db.page(
            ORDERS,
            pk,
            index=index,
            sk_between=created_between,
            where=" AND ".join(wheres) or None,
            names=names or None,
            values=values or None,
            limit=limit,
            cursor=cursor,
            forward=False,
        )
        return Page([self.from_item(i) for i in page.items], page.cursor)

    @staticmethod
    def key(tenant_id: str, order_id: str) -> Key:
        return Key(ORDERS, keys.order_pk(tenant_id, order_id), keys.ORDER)

    @staticmethod
    def from_item(item: dict[str, Any]) -> Order:
        return from_item(Order, {k: v for k, v in item.items() if k not in _ORDER_BOOKKEEPING})

    @staticmethod
    def to_item(order: Order) -> dict[str, Any]:
        return order_item(order)

    def get(self, tenant_id: str, order_id: str) -> Order:
        item = self.db.get(ORDERS, keys.order_pk(tenant_id, order_id), keys.ORDER)
        if item is None:
            raise NotFound(f"No order '{order_id}'.", field="order_id")
        return self.from_item(item)

    def get_with_payments(self, tenant_id: str, order_id: str) -> tuple[Order, list[Payment]]:
        page = self.db.query(ORDERS, keys.order_pk(tenant_id, order_id), consistent=True)
        order, payments = None, []
        for item in page.items:
            if item["sk"] == keys.ORDER:
                order = self.from_item(item)
            elif item["sk"].startswith(keys.PAYMENT_PREFIX):
                payments.append(PaymentRepo.from_item(item))
        if order is None:
            raise NotFound(f"No order '{order_id}'.", field="order_id")
        return order, sorted(payments, key=lambda p: p.created_at)

    def create(self, order: Order) -> None:
        self.db.put(
            ORDERS,
            self.to_item(order),
            condition="attribute_not_exists(pk)",
            conflict_message="order reference already taken",
        )

    def overwrite_erased(self, before: Order, after: Order, payments: list[Payment]) -> None:
        """A customer's erasure kept on the shop's books: the order as ``after`` (its address and notes blanked by
        the caller; written only if that changed it) and the payer's number taken off each of ``payments``."""
        if after != before:
            self.db.put(ORDERS, self.to_item(after))
        for payment in payments:
            self.db.update(
                ORDERS,
                keys.order_pk(after.tenant_id, after.order_id),
                keys.payment_sk(payment.payment_id),
                update="SET msisdn = :erased",
                values={":erased": None},
            )

    def replace_operation(self, before: Order, after: Order) -> dict[str, Any]:
        """A transaction part that writes a changed order, refused if it changed since ``before`` was
        read or while an M-Pesa prompt for the old amount is pending."""
        return {
            "Put": {
                "table": ORDERS,
                "item": self.to_item(after),
                "condition": "updated_at = :before AND #s = :status AND attribute_not_exists(stk_claim)",
                "names": {"#s": "status"},
                "values": {":before": iso(before.updated_at), ":status": before.status},
            }
        }

    def list_for_customer(
        self, tenant_id: str, customer_id: str, *, limit: int = 10, cursor: str | None = None
    ) -> Page[Order]:
        page = self.db.query(
            ORDERS,
            keys.customer_orders_gsi_pk(tenant_id, customer_id),
            index=ORDERS_BY_CUSTOMER.name,
            pk_name=ORDERS_BY_CUSTOMER.pk,
            sk_name=ORDERS_BY_CUSTOMER.sk,
            limit=limit,
            cursor=cursor,
            forward=False,
        )
        return Page([self.from_item(i) for i in page.items], page.cursor)

    def list_for_tenant(self, tenant_id: str, *, limit: int = 50, cursor: str | None = None) -> Page[Order]:
        page = self.db.query(
            ORDERS,
            keys.tenant_orders_gsi_pk(tenant_id),
            index=ORDERS_BY_TENANT.name,
            pk_name=ORDERS_BY_TENANT.pk,
            sk_name=ORDERS_BY_TENANT.sk,
            limit=limit,
            cursor=cursor,
            forward=False,
        )
        return Page([self.from_item(i) for i in page.items], page.cursor)

    def transition(
        self,
        tenant_id: str,
        order_id: str,
        *,
        to: str,
        now: datetime,
        extra: dict[str, Any] | None = None,
        by: str | None = None,
    ) -> Order:
        """Move the order to ``to`` from any state that allows it; anything else is a StateConflict. ``by`` (who
        asked: "customer", a staff member) joins the order's marks with the move, for its history."""
        allowed_from = [s for s, nexts in ORDER_TRANSITIONS.items() if to in nexts]
        if not allowed_from:
            raise StateConflict(f"No order can move to {to}.")
        in_list, vals = _in(allowed_from, "f")
        sets = ["#s = :to", "updated_at = :now"]
        values: dict[str, Any] = {":to": to, ":now": iso(now), **vals}
        names = {"#s": "status"}
        condition = f"attribute_exists(pk) AND #s IN {in_list}"
        if to == "cancelled":  # money paid towards an order (applied by the shop) is never dropped by cancelling it
            condition += " AND paid_amount = :nothing_paid"
            values[":nothing_paid"] = 0
        for n, (field, value) in enumerate((extra or {}).items()):
            names[f"#e{n}"] = field
            values[f":e{n}"] = value
            sets.append(f"#e{n} = :e{n}")
        if by is not None:
            sets.append("marks = list_append(if_not_exists(marks, :no_marks), :mark)")
            values |= {":no_marks": [], ":mark": [{"event": to, "at": iso(now), "by": by}]}
        attrs = self.db.update(
            ORDERS,
            keys.order_pk(tenant_id, order_id),
            keys.ORDER,
            update="SET " + ", ".join(sets),
            condition=condition,
            names=names,
            values=values,
            conflict_message=f"Order {order_id} cannot move to {to} from its current state.",
        )
        return self.from_item(attrs)

    def fulfilment_step(
        self, tenant_id: str, order_id: str, *, event: str, now: datetime, by: str | None = None
    ) -> Order:
        """Mark a paid order confirmed, dispatched, ready for pickup or delivered (delivered: the order
        is fulfilled); a step back or a repeat is a StateConflict. The step joins the order's marks."""
        to, allowed_from = FULFILMENT_STEPS[event]
        in_list, vals = _in(allowed_from, "f")
        sets = [
            "fulfilment_status = :to",
            "updated_at = :now",
            "marks = list_append(if_not_exists(marks, :no_marks), :mark)",
        ] + (["#s = :done"] if to == "delivered" else [])
        vals |= {":no_marks": [], ":mark": [{"event": event, "at": iso(now), "by": by}]}
        attrs = self.db.update(
            ORDERS,
            keys.order_pk(tenant_id, order_id),
            keys.ORDER,
            update="SET " + ", ".join(sets),
            condition=f"attribute_exists(pk) AND #s = :paid AND fulfilment_status IN {in_list}",
            names={"#s": "status"},
            values={":to": to, ":now": iso(now), ":paid": "paid", **vals}
            | ({":done": "fulfilled"} if to == "delivered" else {}),
            conflict_message=f"Order {order_id} cannot be marked {event.replace('_', ' ')} now.",
        )
        return self.from_item(attrs)

    def claim_stk(self, order: Order, payment_id: str, now: datetime) -> Order:
        """Reserve the order for one STK push: refused while another STK push is pending."""
        payable, vals = _in(("draft", "pending_payment", "payment_failed"), "p")
        attrs = self.db.update(
            ORDERS,
            keys.order_pk(order.tenant_id, order.order_id),
            keys.ORDER,
            update="SET stk_claim = :pid, stk_claim_at = :now, #s = :pending, updated_at = :now",
            # a claim whose prompt died unanswered (no callback, crash) may be taken over after a while
            condition=f"(attribute_not_exists(stk_claim) OR stk_claim_at < :stale) AND #s IN {payable}",
            names={"#s": "status"},
            values={
                ":pid": payment_id,
                ":pending": "pending_payment",
                ":now": iso(now),
                ":stale": iso(now - timedelta(seconds=STK_CLAIM_STALE_SECONDS)),
                **vals,
            },
            conflict_message="An M-Pesa prompt is already pending for this order.",
        )
        return self.from_item(attrs)

    def release_stk_claim(self, order: Order, payment_id: str, now: datetime) -> None:
        self.db.update(
            ORDERS,
            keys.order_pk(order.tenant_id, order.order_id),
            keys.ORDER,
            update="REMOVE stk_claim, stk_claim_at SET #s = :prev, updated_at = :now",
            condition="stk_claim = :pid",
            names={"#s": "status"},
            values={":pid": payment_id, ":prev": order.status, ":now": iso(now)},
        )

    @staticmethod
    def stk_claim_of(item: dict[str, Any]) -> str | None:
        return item.get("stk_claim")


def _counted_paid(tenant_id: str, customer_id: str) -> dict[str, Any]:
    """A transaction part: the customer has one more paid order."""
    return {
        "Update": {
            "table": CUSTOMERS,
            "pk": keys.customer_pk(tenant_id, customer_id),
            "sk": keys.PROFILE,
            "update": "SET orders_paid_count = if_not_exists(orders_paid_count, :zero) + :one",
            "condition": "attribute_exists(pk)",
            "values": {":zero": 0, ":one": 1},
        }
    }


def _applied_as_read(owed: OwedBack) -> str:
    """A condition: the part of money owed back already applied is still what was read (``:applied``; records
    written before parts were kept have no such attribute)."""
    if owed.applied_amount == 0:
        return "(attribute_not_exists(applied_amount) OR applied_amount = :applied)"
    return "applied_amount = :applied"


def _never() -> dict[str, Any]:
    """A transaction part that always fails: money for an appointment that can no longer be confirmed."""
    return {
        "ConditionCheck": {
            "table": ORDERS,
            "pk": "NEVER",
            "sk": "NEVER",
            "condition": "attribute_exists(pk)",
        }
    }


_ORDER_BOOKKEEPING = frozenset({"stk_claim", "stk_claim_at"})
STK_CLAIM_STALE_SECONDS = 180


def _provider_ref(payment: Payment) -> str:
    """The provider's own id of a payment's money (what money owed back is keyed by)."""
    return payment.checkout_request_id or payment.order_tracking_id or payment.receipt or payment.payment_id


class PaymentRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db
        self.bookings = BookingRepo(db)  # a deposit's payment confirms its booking

    @staticmethod
    def from_item(item: dict[str, Any]) -> Payment:
        return from_item(Payment, item)

    @staticmethod
    def ref_key(tenant_id: str, kind: str, ref: str) -> Key:
        return Key(ORDERS, keys.payment_ref_pk(tenant_id, kind, ref), keys.ALIAS)

    def get(self, tenant_id: str, order_id: str, payment_id: str) -> Payment:
        item = self.db.get(ORDERS, keys.order_pk(tenant_id, order_id), keys.payment_sk(payment_id))
        if item is None:
            raise NotFound("Unknown payment.", field="payment_id")
        return self.from_item(item)

    def find_by_ref(self, tenant_id: str, kind: str, ref: str) -> Payment | None:
        alias = self.db.get(ORDERS, keys.payment_ref_pk(tenant_id, kind, ref), keys.ALIAS)
        if alias is None or "payment_id" not in alias:
            return None  # unknown, or money kept as unmatched (no payment record)
        return self.get(tenant_id, alias["order_id"], alias["payment_id"])

    def ref_claimed(self, tenant_id: str, kind: str, ref: str) -> bool:
        """Whether this provider transaction was accounted for already (a payment, an overpayment or
        unmatched money): every transaction is booked once, whatever path it arrives by."""
        return self.db.get(ORDERS, keys.payment_ref_pk(tenant_id, kind, ref), keys.ALIAS) is not None

    def record_unmatched(self, unmatched: UnmatchedPayment) -> bool:
        """Keep money that pays no order for a person to match; False if this transaction was booked
        before (as unmatched money or as a payment): its reference is claimed in the same transaction."""
        try:
            self.db.transact(
                [
                    {
                        "Put": {
                            "table": ORDERS,
                            "item": to_item(
                                unmatched,
                                pk=keys.unmatched_payments_pk(unmatched.tenant_id),
                                sk=keys.unmatched_payment_sk(unmatched.method, unmatched.trans_id),
                            ),
                            "condition": "attribute_not_exists(pk)",
                        }
                    },
                    {
                        "Put": {
                            "table": ORDERS,
                            "item": {
                                "pk": keys.payment_ref_pk(unmatched.tenant_id, "c2b", unmatched.trans_id),
                                "sk": keys.ALIAS,
                                "unmatched": True,
                            },
                            "condition": "attribute_not_exists(pk)",
                        }
                    },
                ],
                conflict_message="This transaction was booked before.",
            )
        except StateConflict:
            return False
        return True

    # money owed back: one record type, one state machine (domain.payment.OWED_BACK_TRANSITIONS) -------
    def list_owed_back(self, tenant_id: str, *, limit: int = 50, cursor: str | None = None) -> Page[OwedBack]:
        page = self.db.query(ORDERS, keys.overpayments_pk(tenant_id), limit=limit, cursor=cursor)
        return Page([from_item(OwedBack, i) for i in page.items], page.cursor)

    def open_owed_back_of(self, tenant_id: str, order_id: str) -> list[OwedBack]:
        """The order's money still to refund or apply (a shop has tens of such records: one partition)."""
        items = self.db.query_all(ORDERS, keys.overpayments_pk(tenant_id))
        return [o for o in (from_item(OwedBack, i) for i in items) if o.order_id == order_id and o.status == "open"]

    def close_owed_back(
        self, owed: OwedBack, to: Literal["refunded", "applied"], *, now: datetime, by: str, note: str | None
    ) -> OwedBack:
        """open -> refunded or applied, once (StateConflict when it is closed already). A booking's deposit
        that was due back follows in the same transaction: refunded (or applied) there too."""
        if to not in OWED_BACK_TRANSITIONS[owed.status]:
            raise StateConflict("This money was refunded or applied already.", field="status", reason=owed.status)
        ops: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": ORDERS,
                    "pk": keys.overpayments_pk(owed.tenant_id),
                    "sk": keys.overpayment_sk(owed.method, owed.provider_ref),
                    "update": "SET #s = :to, closed_at = :now, closed_by = :by, note = :note",
                    # what remains is what was read: a part applied meanwhile is not also recorded refunded
                    "condition": "#s = :open AND " + _applied_as_read(owed),
                    "names": {"#s": "status"},
                    "values": {
                        ":to": to,
                        ":now": iso(now),
                        ":by": by,
                        ":note": note,
                        ":open": "open",
                        ":applied": owed.applied_amount,
                    },
                }
            }
        ]
        if owed.booking_id:
            with contextlib.suppress(NotFound):
                booking = self.bookings.get(owed.tenant_id, owed.booking_id)
                if booking.deposit_outcome == "refund_due":
                    ops.append(self.bookings.deposit_returned_operation(booking, now, to=to, by=by, note=note))
        self.db.transact(ops, conflict_message="This money was refunded or applied already.")
        return self.get_owed_back(owed.tenant_id, owed.method, owed.provider_ref)

    def apply_owed_back(self, owed: OwedBack, order: Order, payment: Payment, now: datetime, by: str) -> None:
        """Part or all of money owed back pays another order of the same customer, all or nothing: the record
        counts the part applied (closed as applied when nothing remains; a deposit due back follows on its
        booking), the payment is recorded paid on the order, and the order takes it (paid when nothing is due;
        a deposit's order paid whole confirms its held appointment). Refused (StateConflict) when the record or
        the order changed since they were read, or a payment is in flight on the order."""
        payable, values = _in(PAYABLE_STATES, "p")
        use = CreditUse(order_id=order.order_id, payment_id=payment.payment_id, amount=payment.amount, at=now, by=by)
        closes = payment.amount == owed.remaining
        paid = payment.amount == order.amount_due
        owed_sets = "applied_amount = :total, applied = list_append(if_not_exists(applied, :empty), :use)"
        owed_values: dict[str, Any] = {
            ":total": owed.applied_amount + payment.amount,
            ":use": [to_item(use)],
            ":empty": [],
            ":open": "open",
            ":applied": owed.applied_amount,
        }
        if closes:
            owed_sets += ", #s = :closed, closed_at = :now, closed_by = :by"
            owed_values |= {":closed": "applied", ":now": iso(now), ":by": by}
        order_sets = "paid_amount = paid_amount + :amt, updated_at = :now"
        if paid:
            order_sets += ", #s = :paid, payment_status = :paid, paid_at = :now"
        ops: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": ORDERS,
                    "pk": keys.overpayments_pk(owed.tenant_id),
                    "sk": keys.overpayment_sk(owed.method, owed.provider_ref),
                    "update": "SET " + owed_sets,
                    "condition": "#s = :open AND " + _applied_as_read(owed),
                    "names": {"#s": "status"},
                    "values": owed_values,
                }
            },
            {
                "Put": {
                    "table": ORDERS,
                    "item": to_item(
                        payment,
                        pk=keys.order_pk(payment.tenant_id, payment.order_id),
                        sk=keys.payment_sk(payment.payment_id),
                    ),
                    "condition": "attribute_not_exists(pk)",
                }
            },
            {
                "Update": {
                    "table": ORDERS,
                    "pk": keys.order_pk(order.tenant_id, order.order_id),
                    "sk": keys.ORDER,
                    "update": "SET " + order_sets,
                    # no M-Pesa prompt or card payment in flight: it could pay the old amount on top
                    "condition": f"updated_at = :before AND #s IN {payable}"
                    " AND attribute_not_exists(pending_payment_id) AND attribute_not_exists(stk_claim)",
                    "names": {"#s": "status"},
                    "values": {
                        ":amt": payment.amount,
                        ":now": iso(now),
                        ":before": iso(order.updated_at),
                        **({":paid": "paid"} if paid else {}),
                        **values,
                    },
                }
            },
        ]
        if paid:
            ops += [_counted_paid(order.tenant_id, order.customer_id), *self._booking_confirmation(payment, now)]
        if closes and owed.booking_id:
            with contextlib.suppress(NotFound):
                booking = self.bookings.get(owed.tenant_id, owed.booking_id)
                if booking.deposit_outcome == "refund_due":
                    ops.append(self.bookings.deposit_returned_operation(booking, now, to="applied", by=by, note=None))
        self.db.transact(
            ops, conflict_message="The money or the order changed meanwhile, or a payment is in flight on the order."
        )

    def note_owed_back_ticket(self, payment: Payment, ticket_id: str) -> None:
        """The hand-over ticket a person works on for this payment's money owed back (kept when it has one)."""
        with contextlib.suppress(StateConflict):  # no record (nothing owed) or a ticket named already
            self.db.update(
                ORDERS,
                keys.overpayments_pk(payment.tenant_id),
                keys.overpayment_sk(payment.method, _provider_ref(payment)),
                update="SET handoff_ticket_id = :ticket",
                condition="attribute_exists(pk) AND "
                "(attribute_not_exists(handoff_ticket_id) OR attribute_type(handoff_ticket_id, :null))",
                values={":ticket": ticket_id, ":null": "NULL"},
            )

    def get_owed_back(self, tenant_id: str, method: str, provider_ref: str) -> OwedBack:
        item = self.db.get(ORDERS, keys.overpayments_pk(tenant_id), keys.overpayment_sk(method, provider_ref))
        if item is None:
            raise NotFound("No such money owed back.", field="provider_ref")
        return from_item(OwedBack, item)

    def deposit_owed_back(self, booking: Booking, now: datetime) -> OwedBack | None:
        """The record of a booking's paid deposit now due back (None when no deposit was paid)."""
        if not booking.order_id or booking.deposit <= 0:
            return None
        _, payments = OrderRepo(self.db).get_with_payments(booking.tenant_id, booking.order_id)
        paid = [p for p in payments if p.status == "paid" and not p.overpayment]
        if not paid:
            return None
        payment = paid[0]
        return OwedBack(
            tenant_id=booking.tenant_id,
            payment_id=payment.payment_id,
            order_id=payment.order_id,
            customer_id=payment.customer_id,
            method=payment.method,
            provider_ref=_provider_ref(payment),
            amount=min(payment.amount, booking.deposit),
            receipt=payment.receipt,
            reason="deposit_due_back",
            booking_id=booking.booking_id,
            received_at=now,
        )

    @staticmethod
    def owed_back_put(owed: OwedBack) -> dict[str, Any]:
        """A transaction part: the record of money owed back (once per provider transaction)."""
        return {
            "Put": {
                "table": ORDERS,
                "item": to_item(
                    owed,
                    pk=keys.overpayments_pk(owed.tenant_id),
                    sk=keys.overpayment_sk(owed.method, owed.provider_ref),
                ),
                "condition": "attribute_not_exists(pk)",
            }
        }

    def record_c2b_overpayment(self, payment: Payment, trans_id: str, reason: OwedBackReason) -> None:
        """Paybill/Till money naming an order that can no longer take it: a payment record (paid, kept
        as an overpayment), its TransID claimed, and the overpayment to refund or apply; all or nothing."""
        overpayment = OwedBack(
            tenant_id=payment.tenant_id,
            payment_id=payment.payment_id,
            order_id=payment.order_id,
            customer_id=payment.customer_id,
            method=payment.method,
            provider_ref=trans_id,
            amount=payment.amount,
            receipt=trans_id,
            reason=reason,
            received_at=payment.created_at,
        )
        self.db.transact(
            [
                {
                    "Put": {
                        "table": ORDERS,
                        "item": to_item(
                            payment.model_copy(update={"status": "paid", "overpayment": True}),
                            pk=keys.order_pk(payment.tenant_id, payment.order_id),
                            sk=keys.payment_sk(payment.payment_id),
                        ),
                        "condition": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "table": ORDERS,
                        "item": {
                            "pk": keys.payment_ref_pk(payment.tenant_id, "c2b", trans_id),
                            "sk": keys.ALIAS,
                            "order_id": payment.order_id,
                            "payment_id": payment.payment_id,
                        },
                        "condition": "attribute_not_exists(pk)",
                    }
                },
                self.owed_back_put(overpayment),
            ],
            conflict_message="This transaction was booked before.",
        )

    def _booking_confirmation(self, payment: Payment, now: datetime) -> list[dict[str, Any]]:
        """For a deposit's order, the parts that confirm its held appointment with the payment."""
        item = self.db.get(ORDERS, keys.order_pk(payment.tenant_id, payment.order_id), keys.ORDER)
        booking_id = item.get("booking_id") if item else None
        if not booking_id:
            return []
        try:
            booking = self.bookings.get(payment.tenant_id, str(booking_id))
        except NotFound:
            return [_never()]
        if booking.status != "held":
            return [_never()]  # cancelled or expired: the money cannot confirm it
        return self.bookings.confirm_operations(booking, now)

    def _slot_released(self, order: Order, now: datetime) -> bool:
        """Whether the order's appointment can no longer be confirmed (its slot went to someone else, or
        it was cancelled or expired)."""
        if not order.booking_id:
            return False
        try:
            booking = self.bookings.get(order.tenant_id, order.booking_id)
        except NotFound:
            return True
        return booking.status != "held" or len(self.bookings.own_cells(booking)) < len(booking.held_cells())

    def _lapse(
        self, payment: Payment, order: Order, *, now: datetime, receipt: str | None, result_code: str | None
    ) -> None:
        """A deposit that came after its slot was released: the order is cancelled, the booking expired,
        and the money kept as an overpayment to refund or apply, all in one transaction."""
        payable, values = _in(PAYABLE_STATES, "p")
        cancel_order = {
            "Update": {
                "table": ORDERS,
                "pk": keys.order_pk(order.tenant_id, order.order_id),
                "sk": keys.ORDER,
                "update": "SET #s = :cancelled, updated_at = :now REMOVE stk_claim, stk_claim_at, pending_payment_id",
                "condition": f"updated_at = :before AND #s IN {payable}",
                "names": {"#s": "status"},
                "values": {":cancelled": "cancelled", ":now": iso(now), ":before": iso(order.updated_at), **values},
            }
        }
        extra = [cancel_order]
        assert order.booking_id is not None
        with contextlib.suppress(NotFound):
            booking = self.bookings.get(order.tenant_id, order.booking_id)
            if booking.status == "held":
                extra.append(self.bookings.expire_operation(booking, now))
        self._overpay(
            payment, order, now=now, receipt=receipt, result_code=result_code, reason="slot_released", extra=extra
        )

    def _overpay(
        self,
        payment: Payment,
        order: Order,
        *,
        now: datetime,
        receipt: str | None,
        result_code: str | None,
        reason: OwedBackReason | None = None,
        extra: list[dict[str, Any]] | None = None,
    ) -> None:
        """A confirmed payment whose order can no longer take it (paid by another payment, cancelled):
        the payment is recorded as paid and kept as an overpayment, never lost and never applied."""
        reason = reason or (
            "order_already_paid"
            if order.status in ("paid", "fulfilled")
            else "order_cancelled"
            if order.status == "cancelled"
            else "order_not_payable"
        )
        overpayment = OwedBack(
            tenant_id=payment.tenant_id,
            payment_id=payment.payment_id,
            order_id=payment.order_id,
            customer_id=payment.customer_id,
            method=payment.method,
            provider_ref=_provider_ref(payment),
            amount=payment.amount,
            receipt=receipt,
            reason=reason,
            booking_id=order.booking_id,
            received_at=now,
        )
        sets = ["#s = :paid", "updated_at = :now", "needs_review = :yes", "overpayment = :yes"]
        values: dict[str, Any] = {":paid": "paid", ":now": iso(now), ":yes": True, ":pending": "pending"}
        values[":timeout"] = "timeout"
        for field, value in (("receipt", receipt), ("result_code", result_code)):
            if value is not None:
                sets.append(f"{field} = :{field}")
                values[f":{field}"] = value
        self.db.transact(
            [
                {
                    "Update": {
                        "table": ORDERS,
                        "pk": keys.order_pk(payment.tenant_id, payment.order_id),
                        "sk": keys.payment_sk(payment.payment_id),
                        "update": "SET " + ", ".join(sets),
                        "condition": "#s IN (:pending, :timeout)",
                        "names": {"#s": "status"},
                        "values": values,
                    }
                },
                self.owed_back_put(overpayment),
                *(extra or []),
            ],
            conflict_message=f"Payment {payment.payment_id} is already settled.",
        )

    def get_unmatched(self, tenant_id: str, trans_id: str, method: str = "mpesa_c2b") -> UnmatchedPayment | None:
        item = self.db.get(ORDERS, keys.unmatched_payments_pk(tenant_id), keys.unmatched_payment_sk(method, trans_id))
        return from_item(UnmatchedPayment, item) if item else None

    def apply_unmatched(self, unmatched: UnmatchedPayment, order: Order, payment: Payment, now: datetime) -> None:
        """Money kept as unmatched pays ``order`` (its exact amount due), all or nothing: the unmatched
        record goes, its transaction's reference now names the payment, the payment is recorded paid
        and the order is paid. Refused (StateConflict) if the money was applied meanwhile or the order
        changed since it was read: a code applied twice pays once."""
        payable, values = _in(PAYABLE_STATES, "p")
        self.db.transact(
            [
                {
                    "Delete": {
                        "table": ORDERS,
                        "pk": keys.unmatched_payments_pk(unmatched.tenant_id),
                        "sk": keys.unmatched_payment_sk(unmatched.method, unmatched.trans_id),
                        "condition": "attribute_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "table": ORDERS,
                        "item": {
                            "pk": keys.payment_ref_pk(unmatched.tenant_id, "c2b", unmatched.trans_id),
                            "sk": keys.ALIAS,
                            "order_id": payment.order_id,
                            "payment_id": payment.payment_id,
                        },
                        "condition": "unmatched = :yes",
                        "values": {":yes": True},
                    }
                },
                {
                    "Put": {
                        "table": ORDERS,
                        "item": to_item(
                            payment,
                            pk=keys.order_pk(payment.tenant_id, payment.order_id),
                            sk=keys.payment_sk(payment.payment_id),
                        ),
                        "condition": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Update": {
                        "table": ORDERS,
                        "pk": keys.order_pk(order.tenant_id, order.order_id),
                        "sk": keys.ORDER,
                        "update": "SET #s = :paid, payment_status = :paid, paid_amount = paid_amount + :amt, "
                        "paid_at = :now, updated_at = :now REMOVE stk_claim, stk_claim_at, pending_payment_id",
                        "condition": f"updated_at = :before AND #s IN {payable}",
                        "names": {"#s": "status"},
                        "values": {
                            ":paid": "paid",
                            ":amt": payment.amount,
                            ":now": iso(now),
                            ":before": iso(order.updated_at),
                            **values,
                        },
                    }
                },
                _counted_paid(order.tenant_id, order.customer_id),
                *self._booking_confirmation(payment, now),
            ],
            conflict_message="The payment was applied meanwhile, the order changed, or its appointment slot "
            "went to someone else.",
        )

    def list_unmatched(self, tenant_id: str, *, limit: int = 50, cursor: str | None = None) -> Page[UnmatchedPayment]:
        page = self.db.query(ORDERS, keys.unmatched_payments_pk(tenant_id), limit=limit, cursor=cursor)
        return Page([from_item(UnmatchedPayment, i) for i in page.items], page.cursor)

    def find_by_callback_token(self, token: str) -> Payment | None:
        route = self.db.get(ORDERS, keys.payment_token_route_pk(token), keys.ROUTE)
        if route is None:
            return None
        return self.get(route["tenant_id"], route["order_id"], route["payment_id"])

    def record_started(
        self,
        payment: Payment,
        *,
        refs: dict[str, str],
        order_updates: dict[str, Any],
        callback_token: str | None = None,
    ) -> None:
        """Store a new pending payment, its provider-reference aliases, its callback-token route, and
        the order's pointer to it; the order must still be payable."""
        ops: list[dict[str, Any]] = [
            {
                "Put": {
                    "table": ORDERS,
                    "item": to_item(
                        payment,
                        pk=keys.order_pk(payment.tenant_id, payment.order_id),
                        sk=keys.payment_sk(payment.payment_id),
                    ),
                    "condition": "attribute_not_exists(pk)",
                }
            }
        ]
        for kind, ref in refs.items():
            ops.append(
                {
                    "Put": {
                        "table": ORDERS,
                        "item": {
                            "pk": keys.payment_ref_pk(payment.tenant_id, kind, ref),
                            "sk": keys.ALIAS,
                            "order_id": payment.order_id,
                            "payment_id": payment.payment_id,
                        },
                        "condition": "attribute_not_exists(pk)",
                    }
                }
            )
        if callback_token:
            ops.append(
                {
                    "Put": {
                        "table": ORDERS,
                        "item": {
                            "pk": keys.payment_token_route_pk(callback_token),
                            "sk": keys.ROUTE,
                            "tenant_id": payment.tenant_id,
                            "order_id": payment.order_id,
                            "payment_id": payment.payment_id,
                        },
                        "condition": "attribute_not_exists(pk)",
                    }
                }
            )
        payable, values = _in(PAYABLE_STATES, "p")
        names = {"#s": "status"}
        sets = ["#s = :pending"]
        values[":pending"] = "pending_payment"
        for n, (field, value) in enumerate(order_updates.items()):
            names[f"#u{n}"] = field
            values[f":u{n}"] = value
            sets.append(f"#u{n} = :u{n}")
        update = "SET " + ", ".join(sets)
        ops.append(
            {
                "Update": {
                    "table": ORDERS,
                    "pk": keys.order_pk(payment.tenant_id, payment.order_id),
                    "sk": keys.ORDER,
                    "update": update,
                    "condition": f"#s IN {payable}",
                    "names": names,
                    "values": values,
                }
            }
        )
        self.db.transact(ops, conflict_message="The payment could not be recorded.")

    def settle(
        self,
        payment: Payment,
        *,
        to: str,
        now: datetime,
        receipt: str | None = None,
        result_code: str | None = None,
        result_desc: str | None = None,
        needs_review: bool = False,
    ) -> tuple[Payment, Order]:
        """Apply a provider outcome to the payment and its order in one transaction.

        Only moves allowed by ``PAYMENT_TRANSITIONS`` happen; a duplicate or late outcome raises
        ``StateConflict`` and leaves both records untouched. Confirmed money for an order that can no
        longer take it (paid by another payment, cancelled) is recorded as paid and kept as an
        overpayment (``payment.overpayment``), never lost and never applied to the order.
        """
        allowed_from = [s for s, nexts in PAYMENT_TRANSITIONS.items() if to in nexts]
        if not allowed_from:
            raise StateConflict(f"A payment cannot move to {to}.")
        pay_in, pay_vals = _in(allowed_from, "f")
        pay_sets = ["#s = :to", "updated_at = :now", "needs_review = :review"]
        pay_values: dict[str, Any] = {":to": to, ":now": iso(now), ":review": needs_review, **pay_vals}
        for field, value in (("receipt", receipt), ("result_code", result_code), ("result_desc", result_desc)):
            if value is not None:
                pay_sets.append(f"{field} = :{field}")
                pay_values[f":{field}"] = value
        order_pk = keys.order_pk(payment.tenant_id, payment.order_id)
        order_from: tuple[str, ...]
        if to == "paid":
            order_to, order_from = "paid", ("pending_payment", "payment_failed", "draft")
            order_update = (
                "SET #s = :ost, payment_status = :ps, paid_amount = paid_amount + :amt, paid_at = :now, "
                "updated_at = :now REMOVE stk_claim, stk_claim_at, pending_payment_id"
            )
            extra: dict[str, Any] = {":amt": payment.amount}
        else:
            order_to, order_from = "payment_failed", ("pending_payment",)
            order_update = (
                "SET #s = :ost, payment_status = :ps, updated_at = :now "
                "REMOVE stk_claim, stk_claim_at, pending_payment_id"
            )
            extra = {}
        booking_ops = self._booking_confirmation(payment, now) if to == "paid" else []
        ord_in, ord_vals = _in(order_from, "o")
        order_condition = f"#s IN {ord_in}"
        if to == "paid":
            # money the shop applied to the order since this payment began (money owed back) leaves less due: a
            # payment for the old amount would pay it twice, so it is kept as money owed back instead
            before = OrderRepo(self.db).get(payment.tenant_id, payment.order_id)
            if before.status in PAYABLE_STATES and before.paid_amount + payment.amount > before.totals.total:
                self._overpay(payment, before, now=now, receipt=receipt, result_code=result_code)
                after, payments = OrderRepo(self.db).get_with_payments(payment.tenant_id, payment.order_id)
                return next(p for p in payments if p.payment_id == payment.payment_id), after
            order_condition += " AND paid_amount = :paid_before"
            ord_vals[":paid_before"] = before.paid_amount
        if to != "paid":
            # a failure only touches the order when it concerns the order's *current* attempt
            order_condition += " AND pending_payment_id = :pid"
            ord_vals[":pid"] = payment.payment_id
        ops: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": ORDERS,
                    "pk": order_pk,
                    "sk": keys.payment_sk(payment.payment_id),
                    "update": "SET " + ", ".join(pay_sets),
                    "condition": f"#s IN {pay_in}",
                    "names": {"#s": "status"},
                    "values": pay_values,
                }
            },
            {
                "Update": {
                    "table": ORDERS,
                    "pk": order_pk,
                    "sk": keys.ORDER,
                    "update": order_update,
                    "condition": order_condition,
                    "names": {"#s": "status"},
                    "values": {":ost": order_to, ":ps": to, ":now": iso(now), **ord_vals, **extra},
                }
            },
        ]
        if to == "paid":
            ops.append(_counted_paid(payment.tenant_id, payment.customer_id))
            ops += booking_ops
        try:
            self.db.transact(ops, conflict_message=f"Payment {payment.payment_id} is already settled.")
        except StateConflict:
            if to != "paid":
                raise
            # confirmed money: if the order can no longer take it, it is kept as an overpayment
            order, payments = OrderRepo(self.db).get_with_payments(payment.tenant_id, payment.order_id)
            current = next((p for p in payments if p.payment_id == payment.payment_id), None)
            if current is None or current.status not in ("pending", "timeout"):
                raise  # a duplicate outcome
            if order.status in PAYABLE_STATES:
                if not (booking_ops and self._slot_released(order, now)):
                    raise  # a race the caller retries
                self._lapse(current, order, now=now, receipt=receipt, result_code=result_code)
            else:
                self._overpay(current, order, now=now, receipt=receipt, result_code=result_code)
        order, payments = OrderRepo(self.db).get_with_payments(payment.tenant_id, payment.order_id)
        settled = next(p for p in payments if p.payment_id == payment.payment_id)
        return settled, order
