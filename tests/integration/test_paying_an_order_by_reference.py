"""A customer who comes back to pay an order she already has ("I want to pay ORD-…", "where is my order?" for
one not paid): the order's facts, then the shop's ways to pay it, and her answer goes on to the payment of
that order, for its amount. Nothing is offered when a prompt is already on her phone or another sale is
being put together, and a bare "yes" to the question of how she pays asks it again (never a document)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chat import Chat, kes
from tests.conftest import SHOP, Caller
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.services import Services


def unpaid_order(chat: Chat, shop: Caller, quantity: int = 2) -> dict[str, Any]:
    chat.send("hi")
    shop.customer_id = chat.state["customer_id"]
    return shop.ok(
        "order_create",
        customer_id=shop.customer_id,
        items=[{"item_id": "SG-002", "quantity": quantity}],
        delivery={"mode": "pickup"},
    )


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("I want to pay {ref}", "How would you like to pay KES 1,000?"),
        ("nataka kulipa {ref}", "Ungependa kulipa KES 1,000 vipi?"),
        ("how do I pay for {ref}", "How would you like to pay KES 1,000?"),
    ],
)
def test_a_wish_to_pay_an_order_by_its_reference_gives_its_facts_then_the_ways_to_pay(
    chat: Chat, shop: Caller, message: str, asked: str
) -> None:
    order = unpaid_order(chat, shop)
    reply = chat.send(message.format(ref=order["order_ref"]))
    assert order["order_ref"] in reply
    assert kes(1_000) in reply
    assert asked in reply
    assert reply.count(asked) == 1  # asked once: no reminder of the same step after it
    assert chat.state["pending"] == "payment_method"
    assert [o["title"] for o in chat.state["pending_options"]][:2] in (
        ["M-Pesa prompt", "M-Pesa Paybill"],
        ["M-Pesa (prompt)", "M-Pesa Paybill"],
    )
    assert chat.tools()[-2:] == ["order_get_status", "payment_get_methods"]


def test_the_way_chosen_then_yes_sends_the_prompt_for_that_orders_amount(
    chat: Chat, shop: Caller, seeded: Services, daraja: DarajaSimulator
) -> None:
    order = unpaid_order(chat, shop, quantity=3)
    chat.send(f"I want to pay {order['order_ref']}")
    confirm = chat.send("M-Pesa prompt")
    assert f"{kes(1_500)} (order {order['order_ref']})" in confirm
    assert chat.state["pending"] == "payment_confirmation"
    assert "prompt" in chat.send("yes, send it").lower()
    payment = seeded.payments.get(SHOP, order["order_ref"], chat.state["payment_request_id"])
    stk = daraja.stk[payment.checkout_request_id].body
    assert (stk["Amount"], stk["PhoneNumber"], stk["AccountReference"]) == (
        1_500,
        "254712345678",
        order["order_ref"].replace("-", ""),  # Daraja takes letters and digits only
    )
    assert len(seeded.orders.get_with_payments(SHOP, order["order_ref"])[1]) == 1


def test_where_is_my_order_for_her_one_unpaid_order_offers_the_ways_to_pay(chat: Chat, shop: Caller) -> None:
    order = unpaid_order(chat, shop)
    reply = chat.send("where is my order?")
    assert f"Order {order['order_ref']}" in reply
    assert "How would you like to pay KES 1,000?" in reply
    assert chat.state["pending"] == "payment_method"


def test_yes_to_how_she_pays_asks_it_again_and_never_answers_from_the_documents(chat: Chat, shop: Caller) -> None:
    order = unpaid_order(chat, shop)
    chat.send(f"I want to pay {order['order_ref']}")
    for answer in ("yes", "sawa"):
        reply = chat.send(answer)
        assert reply.startswith("How would you like to pay KES 1,000?")  # in her English
        assert "kb_retrieve" not in chat.tools()
        assert chat.state["pending"] == "payment_method"


def test_no_ways_to_pay_while_a_prompt_is_on_her_phone(chat: Chat, shop: Caller) -> None:
    order = unpaid_order(chat, shop)
    started = shop.ok("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="+254712345678", amount=1_000)
    assert started["status"] == "pending"
    reply = chat.send(f"I want to pay {order['order_ref']}")
    assert order["order_ref"] in reply
    assert "How would you like to pay" not in reply
    assert "payment_get_methods" not in chat.tools()


def test_after_paybill_steps_without_money_the_ways_are_offered_again_and_another_customer_finds_nothing(
    chat: Chat, shop: Caller
) -> None:
    order = unpaid_order(chat, shop)
    shop.ok("payment_get_c2b_instructions", order_id=order["order_id"])
    reply = chat.send(f"status of {order['order_ref']}")
    assert "How would you like to pay" in reply  # she may choose the prompt instead
    assert "couldn't find order" in Chat(chat.conversations, phone="+254700000999").send(f"pay {order['order_ref']}")


def test_mid_sale_the_status_of_another_order_does_not_take_over_the_sale(chat: Chat, shop: Caller) -> None:
    order = unpaid_order(chat, shop)
    chat.send("I want an oraimo 20000mAh power bank")
    chat.send("black")
    assert chat.state["pending"] == "quantity"
    reply = chat.send(f"status of {order['order_ref']}")
    assert order["order_ref"] in reply
    assert "How would you like to pay" not in reply
    assert chat.state["pending"] == "quantity"  # the sale's own step is offered again
