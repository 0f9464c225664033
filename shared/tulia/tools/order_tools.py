"""order_create and order_get_status. All totals are computed here, from DynamoDB prices."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from rapidfuzz import fuzz

from tulia.domain.catalog import CatalogItem
from tulia.domain.common import NAIROBI, new_reference
from tulia.domain.customer import Customer
from tulia.domain.offer import Offer, OfferCheck, evaluate_offer
from tulia.domain.order import AppliedOffer, Delivery, Order, OrderLine, compute_totals
from tulia.domain.payment import Payment
from tulia.domain.tenant import DeliveryZone, Tenant
from tulia.errors import OUT_OF_STOCK, BusinessRuleViolation, InvalidInput, NotFound, StateConflict
from tulia.search.text import fold
from tulia.store.catalog import CatalogRepo
from tulia.store.customers import CustomerRepo
from tulia.store.tenants import TenantRepo
from tulia.tools.args import DeliveryArg, OrderCancelArgs, OrderCreateArgs, OrderGetStatusArgs
from tulia.tools.common import Output
from tulia.tools.context import ToolContext

MAX_LINES = 20
MAX_QUANTITY = 1000
STATUS_LIST_LIMIT = 5


class OrderLineOut(Output):
    item_id: str
    name: str
    quantity: int
    unit_price: int
    variant_selection: dict[str, str]
    line_total: int


class DeliveryOut(Output):
    mode: str | None
    address_text: str | None
    zone: str | None
    fee: int
    eta: str | None


class TotalsOut(Output):
    subtotal: int
    delivery_fee: int
    discount: int
    total: int
    currency: str


class AppliedOfferOut(Output):
    offer_id: str
    code: str | None
    title: str
    discount: int


class OrderOut(Output):
    order_id: str
    order_ref: str
    status: str
    payment_status: str
    lines: list[OrderLineOut]
    delivery: DeliveryOut
    totals: TotalsOut
    offer: AppliedOfferOut | None
    amount_due: int
    created_at: str


class RequiredField(Output):
    field: str
    options: list[str]


class OrderCreateOut(OrderOut):
    next_required_fields: list[RequiredField]
    ready_for_payment: bool


def order_out_fields(order: Order) -> dict[str, object]:
    return {
        "order_id": order.order_id,
        "order_ref": order.reference,
        "status": order.status,
        "payment_status": order.payment_status,
        "lines": [OrderLineOut(**line.model_dump(exclude={"category"})) for line in order.lines],
        "delivery": DeliveryOut(**order.delivery.model_dump(exclude={"location_hint"})),
        "totals": TotalsOut(**order.totals.model_dump()),
        "offer": AppliedOfferOut(**order.offer.model_dump()) if order.offer else None,
        "amount_due": order.amount_due,
        "created_at": order.created_at.isoformat(),
    }


def nairobi_today(now: datetime) -> date:
    return now.astimezone(NAIROBI).date()


def category_subtotals(lines: list[OrderLine]) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in lines:
        out[line.category] = out.get(line.category, 0) + line.line_total
    return out


def best_automatic_offer(
    offers: list[Offer], customer: Customer, lines: list[OrderLine], today: date
) -> AppliedOffer | None:
    """The codeless offer that saves the customer the most, if any applies."""
    subtotal = sum(line.line_total for line in lines)
    best: AppliedOffer | None = None
    for offer in offers:
        if offer.code is not None:
            continue
        check = OfferCheck(
            today=today,
            opted_in=customer.opted_in_to_marketing,
            paid_orders=customer.orders_paid_count,
            customer_redemptions=0,
            subtotal=subtotal,
            category_subtotals=category_subtotals(lines),
        )
        result = evaluate_offer(offer, check)
        if result.eligible and result.discount and (best is None or result.discount > best.discount):
            best = AppliedOffer(offer_id=offer.offer_id, code=None, title=offer.title, discount=result.discount)
    return best


def _resolve_variants(item: CatalogItem, selection: dict[str, str], n: int) -> tuple[dict[str, str], int, list[str]]:
    chosen: dict[str, str] = {}
    delta = 0
    for name, value in selection.items():
        dim = item.dimension(name)
        if dim is None:
            raise InvalidInput(
                f"{item.name} has no option '{name}'"
                + (f" (it has: {', '.join(d.name for d in item.variants)})." if item.variants else "."),
                field=f"items[{n}].variant_selection.{name}",
            )
        option = dim.option(value)
        if option is None:
            raise InvalidInput(
                f"{item.name} does not come in {dim.name} '{value}' (choose from: "
                f"{', '.join(o.value for o in dim.options)}).",
                field=f"items[{n}].variant_selection.{name}",
            )
        chosen[dim.name] = option.value
        delta += option.price_delta
    missing = [f"items[{n}].variant_selection.{d.name}" for d in item.variants if d.name not in chosen]
    return chosen, item.price + delta, missing


def match_zone(tenant: Tenant, *texts: str | None) -> DeliveryZone | None:
    """The delivery zone named (or whose area is named) in the customer's address text."""
    haystack = " " + " ".join(fold(t) for t in texts if t) + " "
    if not haystack.strip():
        return None
    best: tuple[int, DeliveryZone] | None = None
    for zone in tenant.delivery_zones:
        for candidate in (zone.name, *zone.areas):
            needle = fold(candidate).strip()
            hit = re.search(rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])", haystack) is not None
            if not hit and len(haystack.strip()) <= 40:
                hit = fuzz.ratio(needle, haystack.strip()) >= 85
            if hit and (best is None or len(needle) > best[0]):
                best = (len(needle), zone)
    return best[1] if best else None


def _resolve_delivery(
    tenant: Tenant, arg: DeliveryArg | None, all_services: bool, lang: str | None = None
) -> tuple[Delivery, list[str]]:
    """The delivery the arguments ask for, with the shop's fee and ETA (in ``lang``, the reply's
    language); the fields still missing are returned to ask for."""
    mode = arg.mode if arg else None
    address = (arg.address_text or "").strip() or None if arg else None
    hint = (arg.location_hint or "").strip() or None if arg else None
    if mode is None and all_services:
        mode = "pickup"  # services happen at the business
    if mode is None:
        return Delivery(address_text=address, location_hint=hint), ["delivery.mode"]
    if mode == "pickup":
        if not tenant.pickup.enabled:
            raise InvalidInput(f"{tenant.name} does not offer pickup; choose delivery.", field="delivery.mode")
        pickup = tenant.pickup
        return Delivery(
            mode="pickup", fee=0, eta=tenant.text(pickup.eta, lang), address_text=tenant.text(pickup.address, lang)
        ), []
    if mode == "digital":
        return Delivery(mode="digital", fee=0), []
    if not tenant.delivery_zones:
        raise InvalidInput(f"{tenant.name} does not deliver; choose pickup.", field="delivery.mode")
    if not address and not hint:
        return Delivery(mode="delivery"), ["delivery.address_text"]
    zone = match_zone(tenant, address, hint)
    if zone is None:
        return Delivery(mode="delivery", address_text=address, location_hint=hint), ["delivery.zone"]
    return Delivery(
        mode="delivery",
        address_text=address,
        location_hint=hint,
        zone=zone.name,
        fee=zone.fee,
        eta=tenant.text(zone.eta, lang),
    ), []


def _options_for(field: str, tenant: Tenant, items: dict[int, CatalogItem]) -> list[str]:
    if field == "delivery.mode":
        modes = (["pickup"] if tenant.pickup.enabled else []) + (["delivery"] if tenant.delivery_zones else [])
        return modes
    if field == "delivery.zone":
        return [z.name for z in tenant.delivery_zones]
    m = re.match(r"items\[(\d+)\]\.variant_selection\.(.+)$", field)
    if m:
        dim = items[int(m.group(1))].dimension(m.group(2))
        return [o.value for o in dim.options] if dim else []
    return []


def order_create(ctx: ToolContext, args: OrderCreateArgs) -> OrderCreateOut:
    s, tid = ctx.services, ctx.tenant_id
    if not args.items:
        raise InvalidInput("An order needs at least one item.", field="items")
    if len(args.items) > MAX_LINES:
        raise InvalidInput(f"An order can have at most {MAX_LINES} lines.", field="items")
    found = s.db.batch_get(
        [
            TenantRepo.key(tid),
            CustomerRepo.key(tid, args.customer_id),
            *(CatalogRepo.key(tid, i.item_id) for i in args.items),
        ]
    )
    tenant_raw = found.get(TenantRepo.key(tid))
    if tenant_raw is None:
        raise NotFound(f"Unknown tenant '{tid}'.", field="tenant_id")
    customer_raw = found.get(CustomerRepo.key(tid, args.customer_id))
    if customer_raw is None:
        raise NotFound("Unknown customer.", field="customer_id")
    tenant, customer = s.tenants.from_item(tenant_raw), CustomerRepo.from_item(customer_raw)

    lines: list[OrderLine] = []
    missing: list[str] = []
    catalog_items: dict[int, CatalogItem] = {}
    wanted_per_item: dict[str, int] = {}
    for n, req in enumerate(args.items):
        raw = found.get(CatalogRepo.key(tid, req.item_id))
        item = CatalogRepo.from_item(raw) if raw else None
        if item is None or not item.active:
            raise NotFound(f"No catalog item '{req.item_id}'.", field=f"items[{n}].item_id")
        if req.quantity > MAX_QUANTITY:
            raise InvalidInput(f"At most {MAX_QUANTITY} of one item per order.", field=f"items[{n}].quantity")
        wanted_per_item[item.item_id] = wanted_per_item.get(item.item_id, 0) + req.quantity
        if item.max_per_order is not None and wanted_per_item[item.item_id] > item.max_per_order:
            raise InvalidInput(f"{item.name}: at most {item.max_per_order} per order.", field=f"items[{n}].quantity")
        if item.stock is not None and wanted_per_item[item.item_id] > item.stock:
            raise BusinessRuleViolation(
                f"{item.name}: only {item.stock} in stock." if item.stock else f"{item.name} is out of stock.",
                code=OUT_OF_STOCK,
                field=f"items[{n}].quantity",
                details={"item_id": item.item_id, "available": item.stock, "requested": wanted_per_item[item.item_id]},
            )
        selection, unit_price, missing_dims = _resolve_variants(item, req.variant_selection or {}, n)
        missing += missing_dims
        catalog_items[n] = item
        lines.append(
            OrderLine(
                item_id=item.item_id,
                name=item.name,
                category=item.category,
                quantity=req.quantity,
                unit_price=unit_price,
                variant_selection=selection,
                line_total=unit_price * req.quantity,
            )
        )

    all_services = all(i.type == "service" for i in catalog_items.values())
    delivery, delivery_missing = _resolve_delivery(tenant, args.delivery, all_services, ctx.language)
    missing += delivery_missing

    now = s.clock()
    offer = best_automatic_offer(s.offers.all_for(tid), customer, lines, nairobi_today(now))
    totals = compute_totals(lines, delivery.fee, offer.discount if offer else 0)
    if totals.total > s.payment_config.max_order_total:
        raise InvalidInput(
            f"The order total KES {totals.total:,} is above this shop's limit per order.",
            field="items",
            reason="order_total_too_large",
        )

    for _attempt in range(3):
        order = Order(
            tenant_id=tid,
            order_id=new_reference("ORD"),
            customer_id=customer.customer_id,
            conversation_id=args.conversation_id,
            lines=lines,
            delivery=delivery,
            totals=totals,
            offer=offer,
            notes=(args.notes or "").strip()[:500] or None,
            missing_fields=missing,
            created_at=now,
            updated_at=now,
        )
        try:
            s.orders.create(order)
            break
        except StateConflict:
            continue  # reference collision: draw another
    else:
        raise StateConflict("Could not allocate an order reference; try again.")
    return OrderCreateOut(
        **order_out_fields(order),
        next_required_fields=[RequiredField(field=f, options=_options_for(f, tenant, catalog_items)) for f in missing],
        ready_for_payment=not missing,
    )


# order_get_status ------------------------------------------------------------------------------

_REF = re.compile(r"^(?:ORD)?([23456789A-HJKMNP-TV-Z]{4,8})$")


def normalize_order_ref(raw: str) -> str:
    compact = re.sub(r"[^A-Za-z0-9]", "", raw).upper()
    m = _REF.match(compact)
    if not m:
        raise InvalidInput(f"'{raw}' is not an order reference (they look like ORD-7F3K2).", field="order_ref")
    return f"ORD-{m.group(1)}"


class PaymentOut(Output):
    method: str
    status: str
    amount: int
    receipt: str | None
    updated_at: str
    overpayment: bool = False  # confirmed, but not applied to this order: the shop refunds or applies it


class OrderStatusItem(Output):
    order_ref: str
    created_at: str
    status: str
    payment_status: str
    fulfilment_status: str
    delivery_mode: str | None
    eta: str | None
    total: int
    amount_due: int
    currency: str
    items: list[dict[str, object]]
    payments: list[PaymentOut] | None


class OrderStatusOut(Output):
    orders: list[OrderStatusItem]
    count: int
    more: bool


def _status_item(order: Order, payments: list[Payment] | None) -> OrderStatusItem:
    return OrderStatusItem(
        order_ref=order.reference,
        created_at=order.created_at.isoformat(),
        status=order.status,
        payment_status=order.payment_status,
        fulfilment_status=order.fulfilment_status,
        delivery_mode=order.delivery.mode,
        eta=order.delivery.eta,
        total=order.totals.total,
        amount_due=order.amount_due,
        currency=order.totals.currency,
        items=[
            {"name": line.name, "quantity": line.quantity, "variant_selection": line.variant_selection}
            for line in order.lines
        ],
        payments=None
        if payments is None
        else [
            PaymentOut(
                method=p.method,
                status=p.status,
                amount=p.amount,
                receipt=p.receipt,
                updated_at=p.updated_at.isoformat(),
                overpayment=p.overpayment,
            )
            for p in payments
        ],
    )


DRAFT_SHOWN_FOR = timedelta(days=7)


def order_get_status(ctx: ToolContext, args: OrderGetStatusArgs) -> OrderStatusOut:
    s, tid = ctx.services, ctx.tenant_id
    if args.order_ref:
        ref = normalize_order_ref(args.order_ref)
        try:
            order, payments = s.orders.get_with_payments(tid, ref)
        except NotFound:
            order = None
        if order is None or order.customer_id != args.customer_id:
            # the same answer for "no such order" and "someone else's order": nothing leaks
            raise NotFound(f"No order {ref} for this customer.", field="order_ref")
        return OrderStatusOut(orders=[_status_item(order, payments)], count=1, more=False)
    page = s.orders.list_for_customer(tid, args.customer_id, limit=STATUS_LIST_LIMIT + 3)
    # A draft is an order summary the customer was shown but has not paid for: recent ones are part of
    # "where is my order?"; abandoned ones stop cluttering the answer after a week.
    recent = s.clock() - DRAFT_SHOWN_FOR
    orders = [o for o in page.items if o.status != "draft" or o.created_at >= recent]
    return OrderStatusOut(
        orders=[_status_item(o, None) for o in orders[:STATUS_LIST_LIMIT]],
        count=min(len(orders), STATUS_LIST_LIMIT),
        more=len(orders) > STATUS_LIST_LIMIT or page.cursor is not None,
    )


class OrderCancelOut(Output):
    order_ref: str
    status: str
    total: int
    items: list[dict[str, object]]


UNPAID = ("draft", "pending_payment", "payment_failed")


def order_cancel(ctx: ToolContext, args: OrderCancelArgs) -> OrderCancelOut:
    """Cancel the customer's own order while nothing is paid towards it: at once, with its history saying she did.
    An order already paid (or partly paid) is a StateConflict ``paid``: a person settles the money by the shop's
    policy. A booking's deposit order is cancelled with its booking, never alone (``booking``)."""
    s, tid = ctx.services, ctx.tenant_id
    if args.order_ref:
        ref = normalize_order_ref(args.order_ref)
        try:
            order: Order | None = s.orders.get(tid, ref)
        except NotFound:
            order = None
        if order is None or order.customer_id != args.customer_id:
            raise NotFound(f"No order {ref} for this customer.", field="order_ref")
    else:
        recent = s.clock() - DRAFT_SHOWN_FOR
        page = s.orders.list_for_customer(tid, args.customer_id, limit=10)
        open_ones = [o for o in page.items if o.created_at >= recent and o.status in (*UNPAID, "paid")]
        order = next((o for o in open_ones if o.booking_id is None and o.fulfilment_status != "delivered"), None)
        if order is None:
            raise NotFound("No open order for this customer.", field="order_ref")
    if order.booking_id is not None:
        raise StateConflict(f"Order {order.reference} is a booking's deposit.", reason="booking")
    if order.status == "cancelled":
        return _cancel_out(order)
    if order.status not in UNPAID or order.paid_amount > 0:
        raise StateConflict(
            f"Order {order.reference} is paid: the shop cancels it.",
            reason="paid",
            details={"order_ref": order.reference, "status": order.status, "paid_amount": order.paid_amount},
        )
    cancelled = s.orders.transition(tid, order.order_id, to="cancelled", now=s.clock(), by="customer")
    return _cancel_out(cancelled)


def _cancel_out(order: Order) -> OrderCancelOut:
    return OrderCancelOut(
        order_ref=order.reference,
        status=order.status,
        total=order.totals.total,
        items=[{"name": line.name, "quantity": line.quantity} for line in order.lines],
    )
