"""offers_get_applicable and order_apply_coupon: only real offers, with every rule applied."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from tulia.domain.offer import Offer, OfferCheck, evaluate_offer
from tulia.domain.order import EDITABLE_STATES, AppliedOffer, Order, compute_totals
from tulia.errors import COUPON_REJECTED, PAYMENT_IN_PROGRESS, BusinessRuleViolation, NotFound, StateConflict
from tulia.store.customers import CustomerRepo
from tulia.store.dynamo import Key
from tulia.store.orders import OrderRepo
from tulia.tools.args import OffersGetApplicableArgs, OrderApplyCouponArgs
from tulia.tools.common import Output
from tulia.tools.context import ToolContext
from tulia.tools.order_tools import AppliedOfferOut, OrderOut, category_subtotals, nairobi_today, order_out_fields

EXPIRED_VISIBLE_DAYS = 30  # an offer that ended recently is still explained ("it ended on ...")


class OfferOut(Output):
    offer_id: str
    code: str | None  # withheld when the customer is not eligible for a code-only offer
    title: str
    description: str
    kind: str
    value: int
    min_order: int
    max_discount: int | None
    valid_from: str
    valid_to: str
    requires_opt_in: bool
    first_order_only: bool
    categories: list[str]
    days: list[str]
    eligible: bool
    reason: str | None
    estimated_discount: int | None


class OffersOut(Output):
    offers: list[OfferOut]
    eligible_count: int
    applied_offer: AppliedOfferOut | None


class ApplyCouponOut(OrderOut):
    applied: bool
    already_applied: bool


def _load_order(ctx: ToolContext, found: dict[Key, dict[str, Any]], order_id: str, customer_id: str) -> Order:
    raw = found.get(OrderRepo.key(ctx.tenant_id, order_id))
    order = OrderRepo.from_item(raw) if raw else None
    if order is None or order.customer_id != customer_id:
        raise NotFound(f"No order {order_id} for this customer.", field="order_id")
    return order


def offers_get_applicable(ctx: ToolContext, args: OffersGetApplicableArgs) -> OffersOut:
    s, tid = ctx.services, ctx.tenant_id
    keys = [CustomerRepo.key(tid, args.customer_id)] + ([OrderRepo.key(tid, args.order_id)] if args.order_id else [])
    found = s.db.batch_get(keys)
    raw_customer = found.get(CustomerRepo.key(tid, args.customer_id))
    if raw_customer is None:
        raise NotFound("Unknown customer.", field="customer_id")
    customer = CustomerRepo.from_item(raw_customer)
    order = _load_order(ctx, found, args.order_id, args.customer_id) if args.order_id else None
    used = s.customers.redemptions(tid, customer.customer_id)
    today = nairobi_today(s.clock())

    out: list[OfferOut] = []
    for offer in s.offers.all_for(tid):
        if not offer.active or today < offer.valid_from:
            continue  # future offers are not announced early
        if today > offer.valid_to + timedelta(days=EXPIRED_VISIBLE_DAYS):
            continue
        check = OfferCheck(
            today=today,
            opted_in=customer.opted_in_to_marketing,
            paid_orders=customer.orders_paid_count,
            customer_redemptions=used.get(offer.offer_id, 0),
            subtotal=order.totals.subtotal if order else None,
            category_subtotals=category_subtotals(order.lines) if order else None,
        )
        result = evaluate_offer(offer, check)
        out.append(
            OfferOut(
                offer_id=offer.offer_id,
                code=offer.code if result.eligible or not offer.requires_opt_in else None,
                title=offer.title,
                description=offer.description,
                kind=offer.kind,
                value=offer.value,
                min_order=offer.min_order,
                max_discount=offer.max_discount,
                valid_from=offer.valid_from.isoformat(),
                valid_to=offer.valid_to.isoformat(),
                requires_opt_in=offer.requires_opt_in,
                first_order_only=offer.first_order_only,
                categories=offer.categories,
                days=list(offer.days),
                eligible=result.eligible,
                reason=result.reason,
                estimated_discount=result.discount,
            )
        )
    out.sort(key=lambda o: (not o.eligible, -(o.estimated_discount or 0), o.title))
    return OffersOut(
        offers=out,
        eligible_count=sum(o.eligible for o in out),
        applied_offer=AppliedOfferOut(**order.offer.model_dump()) if order and order.offer else None,
    )


def _reject(reason: str, message: str) -> BusinessRuleViolation:
    return BusinessRuleViolation(message, code=COUPON_REJECTED, field="coupon_code", reason=reason)


_CODE = re.compile(r"^[A-Z0-9_-]{3,32}$")

REJECTION_MESSAGES = {
    "unknown_code": "There is no offer with that code.",
    "inactive": "That offer is not running.",
    "not_started": "That offer has not started yet.",
    "not_today": "That offer is not valid today.",
    "expired": "That offer has ended.",
    "usage_limit_reached": "That offer has been fully redeemed.",
    "already_used": "You have already used that code.",
    "requires_opt_in": "That offer is for customers who receive our offers on WhatsApp.",
    "first_order_only": "That code is for a first order only.",
    "below_min_order": "The order is below the minimum for that code.",
    "no_eligible_items": "That code does not apply to the items in this order.",
}


def order_apply_coupon(ctx: ToolContext, args: OrderApplyCouponArgs) -> ApplyCouponOut:
    s, tid = ctx.services, ctx.tenant_id
    code = re.sub(r"\s+", "", args.coupon_code).upper()
    if not _CODE.match(code):
        raise _reject("unknown_code", REJECTION_MESSAGES["unknown_code"])
    found = s.db.batch_get(
        [
            OrderRepo.key(tid, args.order_id),
            CustomerRepo.key(tid, args.customer_id),
            CustomerRepo.redemption_key(tid, args.customer_id, code),
        ]
    )
    order = _load_order(ctx, found, args.order_id, args.customer_id)
    raw_customer = found.get(CustomerRepo.key(tid, args.customer_id))
    if raw_customer is None:
        raise NotFound("Unknown customer.", field="customer_id")
    customer = CustomerRepo.from_item(raw_customer)
    if order.status not in EDITABLE_STATES:
        raise StateConflict(
            f"Order {order.reference} is {order.status}; a code can no longer be applied.", reason="order_not_editable"
        )
    if OrderRepo.stk_claim_of(found[OrderRepo.key(tid, args.order_id)]):
        raise BusinessRuleViolation(
            "An M-Pesa prompt for this order is pending; wait for it to finish.", code=PAYMENT_IN_PROGRESS
        )

    offer: Offer | None = next((o for o in s.offers.all_for(tid) if o.code == code), None)
    if offer is None:
        raise _reject("unknown_code", REJECTION_MESSAGES["unknown_code"])
    if order.offer and order.offer.offer_id == offer.offer_id:
        return ApplyCouponOut(**order_out_fields(order), applied=True, already_applied=True)
    if order.offer and order.offer.code:
        raise _reject("one_code_per_order", f"Order {order.reference} already uses code {order.offer.code}.")

    raw_redemption = found.get(CustomerRepo.redemption_key(tid, args.customer_id, code))
    check = OfferCheck(
        today=nairobi_today(s.clock()),
        opted_in=customer.opted_in_to_marketing,
        paid_orders=customer.orders_paid_count,
        customer_redemptions=int(raw_redemption.get("uses", 0)) if raw_redemption else 0,
        subtotal=order.totals.subtotal,
        category_subtotals=category_subtotals(order.lines),
    )
    result = evaluate_offer(offer, check)
    if not result.eligible:
        reason = result.reason or "unknown_code"
        raise _reject(reason, REJECTION_MESSAGES.get(reason, "That code cannot be used."))
    discount = result.discount or 0
    if order.offer and discount < order.offer.discount:
        raise _reject(
            "better_offer_applied", f"Order {order.reference} already has a bigger discount ({order.offer.title})."
        )
    if order.offer and discount == order.offer.discount:
        raise _reject(
            "equal_offer_applied",
            f"Order {order.reference} already has the same discount, KES {discount:,} ({order.offer.title}).",
        )

    now = s.clock()
    after = order.model_copy(
        update={
            "offer": AppliedOffer(offer_id=offer.offer_id, code=offer.code, title=offer.title, discount=discount),
            "totals": compute_totals(order.lines, order.delivery.fee, discount),
            "updated_at": now,
        }
    )
    try:
        s.db.transact(
            [
                *s.offers.redeem_operations(offer, customer.customer_id, order.order_id, now.isoformat()),
                s.orders.replace_operation(order, after),
            ],
            conflict_message="conflict",
        )
    except StateConflict as exc:
        raise _reject(
            "usage_limit_reached", "That code was just used up, or the order changed; nothing was applied."
        ) from exc
    return ApplyCouponOut(**order_out_fields(after), applied=True, already_applied=False)
