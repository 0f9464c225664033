"""Orders and payments: list with filters, detail with the payment history, what staff mark on an
order (confirmed, dispatched, ready for pickup, delivered; the owner cancels: the order state machine
decides; the customer is told), and reconciliation of money that pays no order."""

from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Literal
from urllib.parse import unquote

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from tulia.admin.auth import Principal
from tulia.admin.common import (
    PAGE_LIMIT_MAX,
    AdminDeps,
    CustomerBrief,
    Deps,
    Owner,
    Page,
    Staff,
    View,
    admin_router,
    audit,
    business_day,
    count_refund,
    count_revenue_moved,
    customer_briefs,
)
from tulia.channel.whatsapp import customer_key
from tulia.domain.common import NAIROBI
from tulia.domain.order import FULFILMENT_STEPS, Order, OrderEvent, OrderStatus, PaymentState
from tulia.domain.payment import OwedBack, Payment, UnmatchedPayment
from tulia.domain.phone import normalize_phone
from tulia.domain.times import sortable
from tulia.errors import BusinessRuleViolation, InvalidInput, NotFound, StateConflict
from tulia.observability import logger as log
from tulia.payments.reconcile import apply_owed_back, apply_transaction, suggested_orders, unmatched_or_404


class CloseBody(View):
    outcome: Literal["refunded"] = Field(
        description="What remains was given back outside Tulia (to apply it to an order: .../apply)"
    )
    note: str | None = Field(default=None, max_length=200, description="e.g. the M-Pesa reversal or B2C code")


class ApplyOwedBody(View):
    order_id: str = Field(min_length=1, max_length=40, description="Another unpaid order of the same customer")


class ApplyBody(View):
    order_id: str = Field(min_length=1, max_length=40, description="The order this money pays")


class OrderView(Order):
    """An order with who the customer is (name and number), as staff lists show it."""

    customer: CustomerBrief | None = None  # None: the customer's data was erased


class HistoryEntry(View):
    at: datetime
    event: str  # created, payment_started, payment_<status>, paid, confirmed, dispatched, ..., cancelled
    detail: str | None = None  # an amount, a receipt, the provider's reason
    method: str | None = None  # for payments: mpesa_stk, mpesa_c2b, pesapal
    by: str | None = None


class OrderDetail(View):
    order: Order
    payments: list[Payment]
    customer: CustomerBrief | None = None
    history: list[HistoryEntry] = Field(default_factory=list)


def history_of(order: Order, payments: list[Payment]) -> list[HistoryEntry]:
    """What happened to the order, oldest first: made, each payment and its outcome, paid, each step
    staff marked, cancelled."""
    entries = [HistoryEntry(at=order.created_at, event="created", detail=f"KES {order.totals.total:,}")]
    for p in payments:
        amount = f"KES {p.amount:,}"
        entries.append(HistoryEntry(at=p.created_at, event="payment_started", detail=amount, method=p.method))
        if p.status != "pending":
            said = p.receipt or p.result_desc or amount
            entries.append(HistoryEntry(at=p.updated_at, event=f"payment_{p.status}", detail=said, method=p.method))
    if order.paid_at is not None:
        entries.append(HistoryEntry(at=order.paid_at, event="paid", detail=f"KES {order.paid_amount:,}"))
    entries += [HistoryEntry(at=m.at, event=m.event, by=m.by) for m in order.marks]
    if order.status == "cancelled" and not any(m.event == "cancelled" for m in order.marks):
        entries.append(HistoryEntry(at=order.updated_at, event="cancelled"))
    return sorted(entries, key=lambda e: e.at)


def day_bounds(start: date | None, end: date | None) -> tuple[str, str] | None:
    """Sort-key bounds for Nairobi calendar days ``start`` to ``end`` (both included)."""
    start, end = business_day(start, "from"), business_day(end, "to")
    if start is None and end is None:
        return None
    if start is not None and end is not None and end < start:
        raise InvalidInput("'to' is before 'from'.", field="to")
    low = datetime.combine(start, time.min, NAIROBI) if start else datetime(2000, 1, 1, tzinfo=UTC)
    high = datetime.combine(end + timedelta(days=1), time.min, NAIROBI) if end else datetime(2100, 1, 1, tzinfo=UTC)
    return sortable(low), sortable(high - timedelta(microseconds=1))


router = admin_router()


@router.get(
    "/admin/orders", tags=["orders"], summary="Orders, newest first (filter by status, payment, dates, customer)"
)
def list_orders(
    who: Staff,
    deps: Deps,
    status: Annotated[OrderStatus | None, Query()] = None,
    payment: Annotated[PaymentState | None, Query(description="the order's payment state")] = None,
    date_from: Annotated[date | None, Query(alias="from", description="first day (Nairobi), YYYY-MM-DD")] = None,
    date_to: Annotated[date | None, Query(alias="to", description="last day (Nairobi), YYYY-MM-DD")] = None,
    customer_id: Annotated[str | None, Query(max_length=64)] = None,
    phone: Annotated[str | None, Query(max_length=20, description="the customer's number, e.g. 0712345678")] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[OrderView]:
    if phone:
        number = normalize_phone(phone, field="phone")
        customer_id = deps.services.customers.find_id_by_phone(who.tenant_id, number)
        if customer_id is None:
            return Page[OrderView](items=[])
    page = deps.services.orders.search(
        who.tenant_id,
        customer_id=customer_id,
        status=status,
        payment_status=payment,
        created_between=day_bounds(date_from, date_to),
        limit=limit,
        cursor=cursor,
    )
    orders = page.items
    briefs = customer_briefs(deps, who.tenant_id, (o.customer_id for o in orders))
    return Page[OrderView](
        items=[OrderView(**dict(o), customer=briefs.get(o.customer_id)) for o in orders], cursor=page.cursor
    )


def detail(deps: AdminDeps, tenant_id: str, order_id: str) -> OrderDetail:
    order, payments = deps.services.orders.get_with_payments(tenant_id, order_id)
    brief = customer_briefs(deps, tenant_id, [order.customer_id]).get(order.customer_id)
    return OrderDetail(order=order, payments=payments, customer=brief, history=history_of(order, payments))


@router.get("/admin/orders/<order_id>", tags=["orders"], summary="An order with its payments, customer and history")
def get_order(order_id: str, who: Staff, deps: Deps) -> OrderDetail:
    return detail(deps, who.tenant_id, order_id)


def to_agent(deps: AdminDeps, order: Order, dedup: str, body: dict[str, Any]) -> None:
    """News for the order's customer goes to the agent, in the customer's own FIFO group, which
    sends it at least once (the customer's settings and WhatsApp's window decide how)."""
    if deps.notify is None:
        log.warning("news for customers is not configured for the admin API", extra={"kind": body["kind"]})
        return
    try:
        customer = deps.services.customers.get(order.tenant_id, order.customer_id)
    except NotFound:
        return  # the customer's data was erased: nobody to tell
    deps.notify.send(
        tenant_id=order.tenant_id,
        customer_key=customer_key(customer.phone_e164, customer.wa_user_id),
        dedup=dedup,
        body={"tenant_id": order.tenant_id, "order_id": order.order_id, **body},
    )


def tell_refunded(deps: AdminDeps, tenant_id: str, order_id: str, amount: int, ref: str) -> None:
    """Money given back is told to its customer (in their language; the order_update template outside the window)."""
    try:
        order = deps.services.orders.get(tenant_id, order_id)
    except NotFound:
        return
    notice = {"kind": "order_update", "event": "refunded", "amount": amount, "ref": ref}
    to_agent(deps, order, f"refund-{order_id}-{ref}", notice)


def tell_customer(deps: AdminDeps, order: Order, event: str) -> None:
    to_agent(deps, order, f"upd-{order.order_id}-{event}", {"kind": "order_update", "event": event})


def mark(deps: AdminDeps, who: Principal, order_id: str, event: OrderEvent) -> OrderDetail:
    """Move the order (asking again is not an error), then tell the customer; a retry after a
    failure to queue the news queues it again (the agent sends it once)."""
    order, _ = deps.services.orders.get_with_payments(who.tenant_id, order_id)  # another shop's id: 404
    said = event.replace("_", " ")
    if event == "cancelled":
        there = order.status == "cancelled"
        if not there and order.paid_amount > 0:
            raise StateConflict(
                f"KES {order.paid_amount:,} was paid towards order {order_id}: it cannot be cancelled.",
                details={"status": order.status, "paid_amount": order.paid_amount},
            )
    else:
        to, allowed_from = FULFILMENT_STEPS[event]
        there = order.fulfilment_status == to
        if not there and order.status == "paid" and order.fulfilment_status in allowed_from:
            mode = order.delivery.mode
            if event == "dispatched" and mode == "pickup":
                raise BusinessRuleViolation(
                    f"Order {order_id} is for pickup: mark it ready for pickup.", code="wrong_delivery_mode"
                )
            if event == "ready_for_pickup" and mode == "delivery":
                raise BusinessRuleViolation(
                    f"Order {order_id} is for delivery: mark it dispatched.", code="wrong_delivery_mode"
                )
    if not there:
        try:
            if event == "cancelled":
                deps.services.orders.transition(
                    who.tenant_id, order_id, to="cancelled", now=deps.services.clock(), by=who.actor
                )
            else:
                deps.services.orders.fulfilment_step(
                    who.tenant_id, order_id, event=event, now=deps.services.clock(), by=who.actor
                )
        except StateConflict as exc:
            state = order.status if order.status != "paid" else f"paid ({order.fulfilment_status.replace('_', ' ')})"
            raise StateConflict(
                f"Order {order_id} is {state.replace('_', ' ')}: it cannot be marked {said}.",
                details={"status": order.status, "fulfilment_status": order.fulfilment_status},
            ) from exc
        audit(deps, who, f"order.{event}", order_id, previous_status=order.status)
    shown = detail(deps, who.tenant_id, order_id)
    tell_customer(deps, shown.order, event)
    return shown


@router.post("/admin/orders/<order_id>/confirm", tags=["orders"], summary="Confirm a paid order (being prepared)")
def confirm(order_id: str, who: Staff, deps: Deps) -> OrderDetail:
    return mark(deps, who, order_id, "confirmed")


@router.post("/admin/orders/<order_id>/dispatch", tags=["orders"], summary="A paid delivery order is on its way")
def dispatch(order_id: str, who: Staff, deps: Deps) -> OrderDetail:
    return mark(deps, who, order_id, "dispatched")


@router.post("/admin/orders/<order_id>/ready", tags=["orders"], summary="A paid pickup order is ready for pickup")
def ready(order_id: str, who: Staff, deps: Deps) -> OrderDetail:
    return mark(deps, who, order_id, "ready_for_pickup")


@router.post("/admin/orders/<order_id>/deliver", tags=["orders"], summary="A paid order was delivered or collected")
def deliver(order_id: str, who: Staff, deps: Deps) -> OrderDetail:
    return mark(deps, who, order_id, "delivered")


@router.post("/admin/orders/<order_id>/fulfil", tags=["orders"], summary="Mark a paid order fulfilled (delivered)")
def fulfil(order_id: str, who: Staff, deps: Deps) -> OrderDetail:
    return mark(deps, who, order_id, "delivered")


@router.post("/admin/orders/<order_id>/cancel", tags=["orders"], summary="Cancel an order that is not paid")
def cancel(order_id: str, who: Owner, deps: Deps) -> OrderDetail:
    return mark(deps, who, order_id, "cancelled")


@router.get(
    "/admin/payments/overpayments",
    tags=["orders"],
    summary=(
        "Money owed back, to refund or apply: confirmed payments their order could not take (already paid, "
        "cancelled, a deposit after its slot went) and paid deposits due back after a cancellation"
    ),
)
def overpayments(
    who: Owner,
    deps: Deps,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[OwedBack]:
    page = deps.services.payments.list_owed_back(who.tenant_id, limit=limit, cursor=cursor)
    return Page[OwedBack](items=page.items, cursor=page.cursor)


@router.post(
    "/admin/payments/overpayments/<method>/<provider_ref>/close",
    tags=["orders"],
    summary="Record that money owed back was refunded (outside Tulia) or applied to another order",
)
def close_overpayment(
    method: str,
    provider_ref: str,
    body: CloseBody,
    who: Owner,
    deps: Deps,
) -> OwedBack:
    owed = deps.services.payments.get_owed_back(who.tenant_id, method, unquote(provider_ref))
    if owed.status == body.outcome:
        return owed  # recorded before: not an error
    given_back = owed.remaining  # what was applied to other orders stays applied
    closed = deps.services.payments.close_owed_back(
        owed, body.outcome, now=deps.services.clock(), by=who.actor, note=body.note
    )
    count_refund(deps, who.tenant_id, given_back, of_revenue=owed.reason == "deposit_due_back")
    tell_refunded(deps, who.tenant_id, owed.order_id, given_back, owed.provider_ref)
    audit(deps, who, f"overpayment.{body.outcome}", owed.provider_ref, amount=given_back, note=body.note)
    return closed


@router.post(
    "/admin/payments/overpayments/<method>/<provider_ref>/apply",
    tags=["orders"],
    summary=(
        "Apply money owed back to another unpaid order of the same customer: as much as it needs (paid, or part "
        "paid), the rest stays owed back; the customer is told"
    ),
)
def apply_overpayment(
    method: str,
    provider_ref: str,
    body: ApplyOwedBody,
    who: Owner,
    deps: Deps,
) -> OwedBack:
    owed = deps.services.payments.get_owed_back(who.tenant_id, method, unquote(provider_ref))
    now = deps.services.clock()
    order, payment = apply_owed_back(deps.services, owed, body.order_id.strip().upper(), now=now, by=who.actor)
    if owed.reason == "deposit_due_back":  # counted as revenue when it came; the order it pays counts it again
        count_revenue_moved(deps, who.tenant_id, payment.amount)
    audit(
        deps, who, "overpayment.applied", owed.provider_ref, order_id=order.order_id, amount=payment.amount,
        from_order=owed.order_id,
    )  # fmt: skip
    if order.status == "paid":
        tell_paid(deps, order, payment.payment_id)  # the receipt, as every payment's
    else:
        notice = {"kind": "order_update", "event": "credit_applied", "amount": payment.amount,
                  "from_order": owed.order_id}  # fmt: skip
        to_agent(deps, order, f"credit-{order.order_id}-{payment.payment_id}", notice)
    return deps.services.payments.get_owed_back(who.tenant_id, method, unquote(provider_ref))


@router.get(
    "/admin/payments/unmatched",
    tags=["orders"],
    summary="Reconciliation: money received that pays no order (unknown reference, amount mismatch)",
)
def unmatched(
    who: Owner,
    deps: Deps,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[UnmatchedPayment]:
    page = deps.services.payments.list_unmatched(who.tenant_id, limit=limit, cursor=cursor)
    return Page[UnmatchedPayment](items=page.items, cursor=page.cursor)


@router.get(
    "/admin/payments/unmatched/<trans_id>/suggestions",
    tags=["orders"],
    summary="Orders this money could pay: payable, for exactly its amount, made in the week before it",
)
def suggestions(trans_id: str, who: Owner, deps: Deps) -> Page[Order]:
    unmatched = unmatched_or_404(deps.services, who.tenant_id, trans_id)
    return Page[Order](items=suggested_orders(deps.services, unmatched))


@router.post(
    "/admin/payments/unmatched/<trans_id>/apply",
    tags=["orders"],
    summary="Apply unmatched money to an order (its exact amount due); the customer gets the receipt",
)
def apply_unmatched(
    trans_id: str,
    body: ApplyBody,
    who: Owner,
    deps: Deps,
) -> OrderDetail:
    unmatched = unmatched_or_404(deps.services, who.tenant_id, trans_id)
    applied = apply_transaction(
        deps.services, who.tenant_id, unmatched.trans_id, body.order_id, now=deps.services.clock()
    )
    if applied.outcome not in ("paid", "already_paid_by_it"):
        order = applied.order
        if applied.outcome == "amount_mismatch":
            raise BusinessRuleViolation(
                f"KES {applied.amount} is not the KES {order.amount_due:,} due on order {order.order_id}.",
                code="amount_mismatch",
                details={"received": str(applied.amount), "amount_due": order.amount_due},
            )
        raise StateConflict(
            f"Order {order.order_id} is {order.status.replace('_', ' ')}: it cannot take this money."
            if applied.outcome == "order_not_payable"
            else "This payment was applied meanwhile.",
            details={"outcome": applied.outcome},
        )
    if applied.outcome == "paid" and applied.payment is not None:
        audit(
            deps,
            who,
            "payment.apply_unmatched",
            unmatched.trans_id,
            order_id=body.order_id,
            amount=applied.payment.amount,
        )
        tell_paid(deps, applied.order, applied.payment.payment_id)
    return detail(deps, who.tenant_id, body.order_id)


def tell_paid(deps: AdminDeps, order: Order, payment_id: str) -> None:
    """The receipt goes as every payment's does: a payment event."""
    to_agent(deps, order, f"pay-{payment_id}-paid", {"kind": "payment", "payment_id": payment_id, "status": "paid"})
