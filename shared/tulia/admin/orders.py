"""Orders and payments: list with filters, detail with the payment history, what staff mark on an
order (confirmed, dispatched, ready for pickup, delivered; the owner cancels: the order state machine
decides; the customer is told), and reconciliation of money that pays no order."""

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel, Field

from tulia.admin.auth import Principal
from tulia.admin.common import PAGE_LIMIT_MAX, AdminDeps, Page, audit, business_day
from tulia.channel.whatsapp import customer_key
from tulia.domain.common import NAIROBI, sortable
from tulia.domain.order import FULFILMENT_STEPS, Order, OrderEvent, OrderStatus
from tulia.domain.payment import Overpayment, Payment, UnmatchedPayment
from tulia.errors import BusinessRuleViolation, InvalidInput, NotFound, StateConflict
from tulia.observability import logger as log
from tulia.payments.reconcile import apply_transaction, suggested_orders, unmatched_or_404
from tulia.store import keys
from tulia.store.orders import OrderRepo
from tulia.store.tables import ORDERS, ORDERS_BY_CUSTOMER, ORDERS_BY_TENANT


class ApplyBody(BaseModel):
    order_id: str = Field(min_length=1, max_length=40, description="The order this money pays")


class OrderDetail(BaseModel):
    order: Order
    payments: list[Payment]


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


def register(
    app: APIGatewayHttpResolver,
    deps: AdminDeps,
    *,
    owner: Callable[[], Principal],
    staff: Callable[[], Principal],
) -> None:
    s = deps.services

    @app.get("/admin/orders", tags=["orders"], summary="Orders, newest first (filter by status, dates, customer)")
    def list_orders(
        who: Annotated[Principal, Depends(staff)],
        status: Annotated[OrderStatus | None, Query()] = None,
        date_from: Annotated[date | None, Query(alias="from", description="first day (Nairobi), YYYY-MM-DD")] = None,
        date_to: Annotated[date | None, Query(alias="to", description="last day (Nairobi), YYYY-MM-DD")] = None,
        customer_id: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
        cursor: Annotated[str | None, Query(max_length=2000)] = None,
    ) -> Page[Order]:
        if customer_id:
            index, pk = ORDERS_BY_CUSTOMER, keys.customer_orders_gsi_pk(who.tenant_id, customer_id)
        else:
            index, pk = ORDERS_BY_TENANT, keys.tenant_orders_gsi_pk(who.tenant_id)
        page = s.db.page(
            ORDERS,
            pk,
            index=index,
            sk_between=day_bounds(date_from, date_to),
            where="#s = :status" if status else None,
            names={"#s": "status"} if status else None,
            values={":status": status} if status else None,
            limit=limit,
            cursor=cursor,
            forward=False,
        )
        return Page[Order](items=[OrderRepo.from_item(i) for i in page.items], cursor=page.cursor)

    @app.get("/admin/orders/<order_id>", tags=["orders"], summary="An order with its payment history")
    def get_order(order_id: str, who: Annotated[Principal, Depends(staff)]) -> OrderDetail:
        order, payments = s.orders.get_with_payments(who.tenant_id, order_id)
        return OrderDetail(order=order, payments=payments)

    def to_agent(order: Order, dedup: str, body: dict[str, Any]) -> None:
        """News for the order's customer goes to the agent, in the customer's own FIFO group, which
        sends it at least once (the customer's settings and WhatsApp's window decide how)."""
        if deps.notify is None:
            log.warning("news for customers is not configured for the admin API", extra={"kind": body["kind"]})
            return
        try:
            customer = s.customers.get(order.tenant_id, order.customer_id)
        except NotFound:
            return  # the customer's data was erased: nobody to tell
        deps.notify.send(
            tenant_id=order.tenant_id,
            customer_key=customer_key(customer.phone_e164, customer.wa_user_id),
            dedup=dedup,
            body={"tenant_id": order.tenant_id, "order_id": order.order_id, **body},
        )

    def tell_customer(order: Order, event: str) -> None:
        to_agent(order, f"upd-{order.order_id}-{event}", {"kind": "order_update", "event": event})

    def mark(who: Principal, order_id: str, event: OrderEvent) -> OrderDetail:
        """Move the order (asking again is not an error), then tell the customer; a retry after a
        failure to queue the news queues it again (the agent sends it once)."""
        order, _ = s.orders.get_with_payments(who.tenant_id, order_id)  # another shop's id: 404
        said = event.replace("_", " ")
        if event == "cancelled":
            there = order.status == "cancelled"
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
                    s.orders.transition(who.tenant_id, order_id, to="cancelled", now=s.clock())
                else:
                    s.orders.fulfilment_step(who.tenant_id, order_id, event=event, now=s.clock())
            except StateConflict as exc:
                state = (
                    order.status if order.status != "paid" else f"paid ({order.fulfilment_status.replace('_', ' ')})"
                )
                raise StateConflict(
                    f"Order {order_id} is {state.replace('_', ' ')}: it cannot be marked {said}.",
                    details={"status": order.status, "fulfilment_status": order.fulfilment_status},
                ) from exc
            audit(deps, who, f"order.{event}", order_id, previous_status=order.status)
        order, payments = s.orders.get_with_payments(who.tenant_id, order_id)
        tell_customer(order, event)
        return OrderDetail(order=order, payments=payments)

    @app.post("/admin/orders/<order_id>/confirm", tags=["orders"], summary="Confirm a paid order (being prepared)")
    def confirm(order_id: str, who: Annotated[Principal, Depends(staff)]) -> OrderDetail:
        return mark(who, order_id, "confirmed")

    @app.post("/admin/orders/<order_id>/dispatch", tags=["orders"], summary="A paid delivery order is on its way")
    def dispatch(order_id: str, who: Annotated[Principal, Depends(staff)]) -> OrderDetail:
        return mark(who, order_id, "dispatched")

    @app.post("/admin/orders/<order_id>/ready", tags=["orders"], summary="A paid pickup order is ready for pickup")
    def ready(order_id: str, who: Annotated[Principal, Depends(staff)]) -> OrderDetail:
        return mark(who, order_id, "ready_for_pickup")

    @app.post("/admin/orders/<order_id>/deliver", tags=["orders"], summary="A paid order was delivered or collected")
    def deliver(order_id: str, who: Annotated[Principal, Depends(staff)]) -> OrderDetail:
        return mark(who, order_id, "delivered")

    @app.post("/admin/orders/<order_id>/fulfil", tags=["orders"], summary="Mark a paid order fulfilled (delivered)")
    def fulfil(order_id: str, who: Annotated[Principal, Depends(staff)]) -> OrderDetail:
        return mark(who, order_id, "delivered")

    @app.post("/admin/orders/<order_id>/cancel", tags=["orders"], summary="Cancel an order that is not paid")
    def cancel(order_id: str, who: Annotated[Principal, Depends(owner)]) -> OrderDetail:
        return mark(who, order_id, "cancelled")

    @app.get(
        "/admin/payments/overpayments",
        tags=["orders"],
        summary="Money to refund or apply: confirmed payments their order could not take (already paid, cancelled)",
    )
    def overpayments(
        who: Annotated[Principal, Depends(owner)],
        limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
        cursor: Annotated[str | None, Query(max_length=2000)] = None,
    ) -> Page[Overpayment]:
        page = s.payments.list_overpayments(who.tenant_id, limit=limit, cursor=cursor)
        return Page[Overpayment](items=page.items, cursor=page.cursor)

    @app.get(
        "/admin/payments/unmatched",
        tags=["orders"],
        summary="Reconciliation: money received that pays no order (unknown reference, amount mismatch)",
    )
    def unmatched(
        who: Annotated[Principal, Depends(owner)],
        limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
        cursor: Annotated[str | None, Query(max_length=2000)] = None,
    ) -> Page[UnmatchedPayment]:
        page = s.payments.list_unmatched(who.tenant_id, limit=limit, cursor=cursor)
        return Page[UnmatchedPayment](items=page.items, cursor=page.cursor)

    @app.get(
        "/admin/payments/unmatched/<trans_id>/suggestions",
        tags=["orders"],
        summary="Orders this money could pay: payable, for exactly its amount, made in the week before it",
    )
    def suggestions(trans_id: str, who: Annotated[Principal, Depends(owner)]) -> Page[Order]:
        unmatched = unmatched_or_404(s, who.tenant_id, trans_id)
        return Page[Order](items=suggested_orders(s, unmatched))

    @app.post(
        "/admin/payments/unmatched/<trans_id>/apply",
        tags=["orders"],
        summary="Apply unmatched money to an order (its exact amount due); the customer gets the receipt",
    )
    def apply_unmatched(trans_id: str, body: ApplyBody, who: Annotated[Principal, Depends(owner)]) -> OrderDetail:
        unmatched = unmatched_or_404(s, who.tenant_id, trans_id)
        applied = apply_transaction(s, who.tenant_id, unmatched.trans_id, body.order_id, now=s.clock())
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
            tell_paid(applied.order, applied.payment.payment_id)
        order, payments = s.orders.get_with_payments(who.tenant_id, body.order_id)
        return OrderDetail(order=order, payments=payments)

    def tell_paid(order: Order, payment_id: str) -> None:
        """The receipt goes as every payment's does: a payment event."""
        to_agent(order, f"pay-{payment_id}-paid", {"kind": "payment", "payment_id": payment_id, "status": "paid"})
