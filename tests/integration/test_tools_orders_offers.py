"""order_create, order_get_status, offers_get_applicable, order_apply_coupon."""

from __future__ import annotations

import pytest

from tests.conftest import SHOP, Caller, Clock, new_customer
from tulia.services import Services
from tulia.store.tables import ORDERS


@pytest.fixture
def cid(shop: Caller) -> str:
    shop.customer_id = new_customer(shop)
    return shop.customer_id


A15 = {"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"colour": "Blue", "storage": "256GB"}}


def test_totals_are_computed_from_store_prices_variants_and_the_zone(shop: Caller, cid: str) -> None:
    out = shop.ok(
        "order_create",
        customer_id=cid,
        items=[A15, {"item_id": "SG-002", "quantity": 2}],
        delivery={"mode": "delivery", "address_text": "Umoja 2, near the market"},
    )
    assert out["lines"][0]["unit_price"] == 21500 + 3500
    assert out["lines"][1]["line_total"] == 1000
    assert out["delivery"]["zone"] == "Eastlands"
    assert out["delivery"]["eta"] == "next day"
    assert out["totals"] == {"subtotal": 26000, "delivery_fee": 350, "discount": 0, "total": 26350, "currency": "KES"}
    assert out["order_ref"].startswith("ORD-")
    assert len(out["order_ref"]) == 9
    assert out["status"] == "draft"
    assert out["ready_for_payment"] is True


def test_automatic_offer_is_applied_to_its_categories_only(shop: Caller, cid: str) -> None:
    out = shop.ok(
        "order_create",
        customer_id=cid,
        delivery={"mode": "pickup"},
        items=[
            {"item_id": "PB-002", "quantity": 1, "variant_selection": {"colour": "Black"}},
            {"item_id": "SG-001", "quantity": 1},
        ],
    )
    assert out["offer"]["offer_id"] == "accessories-week"
    assert out["totals"]["discount"] == 290  # 10% of the power bank, not of the screen protector
    assert out["totals"]["total"] == 2900 + 500 - 290


def test_missing_variant_and_delivery_details_are_asked_for_with_options(shop: Caller, cid: str) -> None:
    out = shop.ok("order_create", customer_id=cid, items=[{"item_id": "PH-SAM-002", "quantity": 1}])
    needed = {f["field"]: f["options"] for f in out["next_required_fields"]}
    assert needed == {
        "items[0].variant_selection.colour": ["Black", "Blue", "Light Blue"],
        "items[0].variant_selection.storage": ["128GB", "256GB"],
        "delivery.mode": ["pickup", "delivery"],
    }
    assert out["ready_for_payment"] is False


def test_an_address_outside_every_zone_asks_for_the_zone(shop: Caller, cid: str) -> None:
    out = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "delivery", "address_text": "Mars"})
    assert out["next_required_fields"] == [
        {
            "field": "delivery.zone",
            "options": ["Nairobi CBD", "Nairobi West", "Eastlands", "Thika Road", "Rest of Kenya"],
        }
    ]
    no_address = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "delivery"})
    assert [f["field"] for f in no_address["next_required_fields"]] == ["delivery.address_text"]


def test_an_incomplete_order_cannot_be_paid(shop: Caller, cid: str) -> None:
    order = shop.ok("order_create", customer_id=cid, items=[{"item_id": "PH-SAM-002", "quantity": 1}])
    err = shop.err(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    assert (err["code"], err["reason"]) == ("invalid_input", "order_incomplete")


def test_out_of_stock_and_too_many_are_refused_and_nothing_is_written(shop: Caller, seeded: Services, cid: str) -> None:
    out_of_stock = next(i for i in seeded.catalog.iter_all(SHOP) if i.stock == 0)
    err = shop.err("order_create", customer_id=cid, items=[{"item_id": out_of_stock.item_id, "quantity": 1}])
    assert (err["code"], err["field"], err["details"]["available"]) == ("out_of_stock", "items[0].quantity", 0)
    low = next(i for i in seeded.catalog.iter_all(SHOP) if i.stock and 0 < i.stock < 5 and not i.variants)
    err = shop.err("order_create", customer_id=cid, items=[{"item_id": low.item_id, "quantity": low.stock + 1}])
    assert err["code"] == "out_of_stock"
    assert err["details"]["available"] == low.stock
    assert seeded.orders.list_for_customer(SHOP, cid).items == []


@pytest.mark.parametrize(
    ("items", "code", "field"),
    [
        ([], "invalid_input", "items"),
        ([{"item_id": "NOPE", "quantity": 1}], "not_found", "items[0].item_id"),
        ([{"item_id": "CB-001", "quantity": 0}], "invalid_input", "items[0].quantity"),
        ([{"item_id": "CB-001", "quantity": 1001}], "invalid_input", "items[0].quantity"),
        (
            [{"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"colour": "Gold"}}],
            "invalid_input",
            "items[0].variant_selection.colour",
        ),
        (
            [{"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"flavour": "Mint"}}],
            "invalid_input",
            "items[0].variant_selection.flavour",
        ),
        ([{"item_id": "CB-001", "quantity": "lots"}], "invalid_input", "items[0].quantity"),
    ],
)
def test_bad_order_lines_are_refused(
    shop: Caller, seeded: Services, cid: str, items: list, code: str, field: str
) -> None:
    err = shop.err("order_create", customer_id=cid, items=items, delivery={"mode": "pickup"})
    assert (err["code"], err["field"]) == (code, field)
    assert seeded.orders.list_for_customer(SHOP, cid).items == []


def test_an_absurd_total_is_refused(shop: Caller, cid: str) -> None:
    err = shop.err(
        "order_create", customer_id=cid, delivery={"mode": "pickup"}, items=[{"item_id": "LP-013", "quantity": 10}]
    )
    assert (err["code"], err["reason"]) == ("invalid_input", "order_total_too_large")


def test_order_status_by_reference_and_latest_orders(shop: Caller, cid: str, clock: Clock) -> None:
    first = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    shop.ok("payment_get_c2b_instructions", order_id=first["order_id"])
    clock.advance(hours=1)
    second = shop.ok(
        "order_create", customer_id=cid, items=[{"item_id": "SG-002", "quantity": 2}], delivery={"mode": "pickup"}
    )
    shop.ok("payment_get_c2b_instructions", order_id=second["order_id"])
    one = shop.ok("order_get_status", customer_id=cid, order_ref=first["order_ref"].lower().replace("-", " "))
    assert one["orders"][0]["order_ref"] == first["order_ref"]
    assert one["orders"][0]["status"] == "pending_payment"
    assert one["orders"][0]["total"] == first["totals"]["total"]
    latest = shop.ok("order_get_status", customer_id=cid)
    assert [o["order_ref"] for o in latest["orders"]] == [second["order_ref"], first["order_ref"]]


def test_a_recent_draft_is_listed_and_an_abandoned_one_is_not(shop: Caller, cid: str, clock: Clock) -> None:
    draft = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    listed = shop.ok("order_get_status", customer_id=cid)["orders"]
    assert [(o["order_ref"], o["status"]) for o in listed] == [(draft["order_ref"], "draft")]
    clock.advance(days=8)
    assert shop.ok("order_get_status", customer_id=cid)["orders"] == []
    # asked by its reference, an old draft is still found
    assert shop.ok("order_get_status", customer_id=cid, order_ref=draft["order_ref"])["count"] == 1


def test_another_customers_order_reference_is_not_found(shop: Caller, cid: str) -> None:
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    other = new_customer(shop, "0733000111")
    shop.customer_id = other
    err = shop.err("order_get_status", customer_id=other, order_ref=order["order_ref"])
    assert (err["code"], err["field"]) == ("not_found", "order_ref")
    assert shop.err("order_get_status", customer_id=other, order_ref="hello")["code"] == "invalid_input"


def test_customer_scope_is_enforced_against_the_conversation(shop: Caller, cid: str) -> None:
    err = shop.err("order_get_status", customer_id="cus_someone_else")
    assert (err["code"], err["field"]) == ("invalid_input", "customer_id")


def test_offers_show_eligibility_reasons_and_hide_opt_in_codes(shop: Caller, cid: str) -> None:
    out = shop.ok("offers_get_applicable", customer_id=cid)
    offers = {o["offer_id"]: o for o in out["offers"]}
    assert offers["WELCOME10"]["eligible"] is True
    assert offers["VIP500"] == {**offers["VIP500"], "eligible": False, "reason": "requires_opt_in", "code": None}
    assert "BLACKFRIDAY25" not in offers  # ended a year ago: no longer mentioned
    shop.ok(
        "customer_update_preferences",
        customer_id=cid,
        updates={"marketing_opt_in": True},
        consent_source="user_message",
    )
    offers = {o["offer_id"]: o for o in shop.ok("offers_get_applicable", customer_id=cid)["offers"]}
    assert (offers["VIP500"]["eligible"], offers["VIP500"]["code"]) == (True, "VIP500")


def test_offers_for_an_order_estimate_the_discount(shop: Caller, cid: str) -> None:
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    offers = {
        o["offer_id"]: o
        for o in shop.ok("offers_get_applicable", customer_id=cid, order_id=order["order_id"])["offers"]
    }
    assert offers["WELCOME10"]["estimated_discount"] == 1500  # 10% capped at 1,500
    assert offers["accessories-week"]["reason"] == "no_eligible_items"


def test_apply_coupon_updates_totals_and_is_idempotent(shop: Caller, seeded: Services, cid: str) -> None:
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    applied = shop.ok("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code=" welcome10 ")
    assert applied["totals"]["discount"] == 1500
    assert applied["amount_due"] == 25000 - 1500
    again = shop.ok("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code="WELCOME10")
    assert again["already_applied"] is True
    assert again["totals"]["total"] == applied["totals"]["total"]
    assert seeded.customers.redemptions(SHOP, cid) == {"WELCOME10": 1}


@pytest.mark.parametrize(
    ("code", "reason"),
    [("NOSUCH", "unknown_code"), ("BLACKFRIDAY25", "expired"), ("VIP500", "requires_opt_in"), ("??", "unknown_code")],
)
def test_bad_codes_are_refused_with_a_reason_and_change_nothing(
    shop: Caller, seeded: Services, cid: str, code: str, reason: str
) -> None:
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    err = shop.err("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code=code)
    assert (err["code"], err["reason"]) == ("coupon_rejected", reason)
    assert seeded.orders.get(SHOP, order["order_id"]).totals.discount == 0


def test_first_order_code_is_refused_after_a_paid_order(shop: Caller, seeded: Services, cid: str) -> None:
    from tulia.store import keys
    from tulia.store.tables import CUSTOMERS

    seeded.db.update(
        CUSTOMERS, keys.customer_pk(SHOP, cid), keys.PROFILE, update="SET orders_paid_count = :n", values={":n": 1}
    )
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    err = shop.err("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code="WELCOME10")
    assert err["reason"] == "first_order_only"


def test_a_code_used_once_cannot_be_used_on_another_order(shop: Caller, cid: str) -> None:
    first = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    shop.ok("order_apply_coupon", customer_id=cid, order_id=first["order_id"], coupon_code="WELCOME10")
    second = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    err = shop.err("order_apply_coupon", customer_id=cid, order_id=second["order_id"], coupon_code="WELCOME10")
    assert err["reason"] == "already_used"


def test_usage_limit_is_enforced_across_customers(shop: Caller, seeded: Services, cid: str) -> None:
    from tulia.store import keys
    from tulia.store.tables import OFFERS

    seeded.db.update(
        OFFERS, keys.offers_pk(SHOP), keys.offer_sk("VIP500"), update="SET redemptions = :n", values={":n": 500}
    )
    shop.ok(
        "customer_update_preferences",
        customer_id=cid,
        updates={"marketing_opt_in": True},
        consent_source="user_message",
    )
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    err = shop.err("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code="VIP500")
    assert err["reason"] == "usage_limit_reached"


def test_coupon_below_minimum_order(shop: Caller, cid: str) -> None:
    order = shop.ok(
        "order_create", customer_id=cid, items=[{"item_id": "CB-003", "quantity": 1}], delivery={"mode": "pickup"}
    )
    err = shop.err("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code="WELCOME10")
    assert err["reason"] == "below_min_order"


def test_coupon_cannot_change_a_paid_order(shop: Caller, seeded: Services, cid: str) -> None:
    order = shop.ok("order_create", customer_id=cid, items=[A15], delivery={"mode": "pickup"})
    seeded.orders.transition(SHOP, order["order_id"], to="pending_payment", now=seeded.clock())
    seeded.orders.transition(SHOP, order["order_id"], to="paid", now=seeded.clock())
    err = shop.err("order_apply_coupon", customer_id=cid, order_id=order["order_id"], coupon_code="WELCOME10")
    assert (err["code"], err["reason"]) == ("state_conflict", "order_not_editable")
    assert seeded.db.get(ORDERS, f"{SHOP}#ORDER#{order['order_id']}", "ORDER")["totals"]["discount"] == 0
