"""A whole sale through the tools: find a phone, order it with delivery, pay by M-Pesa prompt."""

from tests.conftest import Caller, new_customer


def test_customer_buys_a_samsung_phone_with_an_mpesa_prompt(shop: Caller, daraja) -> None:
    customer_id = new_customer(shop)
    shop.customer_id = customer_id
    found = shop.ok("catalog_search", query="nataka simu ya Samsung", limit=6)
    assert found["results"], found
    assert all(r["category"] == "Smartphones" for r in found["results"][:3]), found["results"]
    phone = next(r for r in found["results"] if r["in_stock"])
    order = shop.ok(
        "order_create",
        customer_id=customer_id,
        items=[
            {
                "item_id": phone["item_id"],
                "quantity": 1,
                "variant_selection": {
                    "colour": phone["variants"][0]["options"][0],
                    "storage": phone["variants"][1]["options"][0],
                },
            }
        ],
        delivery={"mode": "delivery", "address_text": "Kilimani, near Yaya Centre"},
    )
    assert order["ready_for_payment"], order
    assert order["delivery"]["zone"] == "Nairobi West"
    assert order["totals"]["delivery_fee"] == 300
    assert order["totals"]["total"] == phone["price"] + 300
    stk = shop.ok(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    sent = daraja.stk[stk["checkout_request_id"]].body
    assert sent["Amount"] == order["amount_due"]
    assert sent["PhoneNumber"] == "254712345678"
    assert sent["AccountReference"] == order["order_ref"].replace("-", "")
    status = shop.ok("order_get_status", customer_id=customer_id, order_ref=order["order_ref"])
    assert status["orders"][0]["status"] == "pending_payment"
    assert status["orders"][0]["payment_status"] == "pending"
