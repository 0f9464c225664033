"""Offers' numbers an owner can trust (issue 33 part 6): the console's list puts the live offers first and says
where each stands; a code giving the same discount as the one an order has is refused as the same, not as smaller."""

from __future__ import annotations

from datetime import date

from tests.conftest import SHOP, Caller, new_customer
from tests.integration.test_reaching_customers import Admin
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.domain.offer import Offer
from tulia.services import Services
from tulia.store.audit import AuditRepo

POWER_BANK = {"item_id": "PB-002", "quantity": 1, "variant_selection": {"colour": "Black"}}  # KES 2,900


def offer(offer_id: str, **fields: object) -> Offer:
    base: dict[str, object] = {
        "tenant_id": SHOP,
        "offer_id": offer_id,
        "title": offer_id,
        "kind": "fixed",
        "value": 100,
        "valid_from": date(2026, 1, 1),
        "valid_to": date(2027, 12, 31),
    }
    return Offer.model_validate({**base, **fields})


def test_the_list_puts_live_offers_first_and_says_where_each_stands(seeded: Services) -> None:
    seeded.offers.put_many(
        [
            offer("starts-next-month", code="DEC2026", valid_from=date(2026, 12, 1)),
            offer("all-gone", code="GONE", usage_limit=3, redemptions=3),
            offer("paused", code="PAUSED", active=False),
        ]
    )
    admin = Admin(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))))
    status, page = admin("GET", "/admin/offers")
    assert status == 200
    listed = [(o["offer_id"], o["state"]) for o in page["items"]]
    assert listed == [
        ("accessories-week", "live"),  # live ones first, ending soonest first (31 Jan 2027)
        ("VIP500", "live"),
        ("WELCOME10", "live"),
        ("starts-next-month", "upcoming"),
        ("all-gone", "used_up"),
        ("BLACKFRIDAY25", "ended"),
        ("paused", "off"),
    ]


def test_a_code_worth_the_same_as_the_orders_discount_is_refused_as_the_same(shop: Caller, seeded: Services) -> None:
    seeded.offers.put_many([offer("same-290", code="SAME290", value=290), offer("less-100", code="LESS100")])
    shop.customer_id = customer = new_customer(shop)
    order = shop.ok("order_create", customer_id=customer, items=[POWER_BANK], delivery={"mode": "pickup"})
    assert (order["offer"]["offer_id"], order["totals"]["discount"]) == ("accessories-week", 290)
    same = shop.err("order_apply_coupon", customer_id=customer, order_id=order["order_id"], coupon_code="SAME290")
    assert (same["reason"], same["message"]) == (
        "equal_offer_applied",
        f"Order {order['order_ref']} already has the same discount, KES 290 "
        "(10% off chargers, cables and power banks).",
    )
    smaller = shop.err("order_apply_coupon", customer_id=customer, order_id=order["order_id"], coupon_code="LESS100")
    assert smaller["reason"] == "better_offer_applied"
    assert seeded.orders.get(SHOP, order["order_id"]).totals.discount == 290  # nothing changed


def test_an_automatic_offer_counts_each_order_paid_with_its_discount_and_never_a_draft(
    shop: Caller, seeded: Services, setup: dict[str, object]
) -> None:
    from tests.integration.test_payments_callbacks import c2b, c2b_body

    shop.customer_id = customer = new_customer(shop)
    drafts = [
        shop.ok("order_create", customer_id=customer, items=[POWER_BANK], delivery={"mode": "pickup"}) for _ in range(3)
    ]  # a sale edited twice: three drafts, one paid
    paid = drafts[-1]
    assert paid["totals"]["discount"] == 290
    before = seeded.offers.find(SHOP, "accessories-week")
    assert before is not None
    answer = c2b(
        setup, seeded, "confirmation", c2b_body(paid["order_ref"], f"{paid['amount_due']}.00", trans_id="TAUTO00001")
    )
    assert answer["ResultCode"] == 0
    assert seeded.orders.get(SHOP, paid["order_id"]).status == "paid"
    after = seeded.offers.find(SHOP, "accessories-week")
    assert after is not None
    assert after.redemptions == before.redemptions + 1
    c2b(setup, seeded, "confirmation", c2b_body(paid["order_ref"], f"{paid['amount_due']}.00", trans_id="TAUTO00001"))
    assert seeded.offers.find(SHOP, "accessories-week").redemptions == before.redemptions + 1  # type: ignore[union-attr]
