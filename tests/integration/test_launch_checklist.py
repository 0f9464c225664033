"""The launch checklist of spec sections 8.1, 8.2 and 8.5, one named test per item (rules engine).

Each test is a WhatsApp chat with the demo shop through the checkpointed graph (moto), with the
Daraja and PesaPal simulators behind the payment tools.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.chat import Chat, conversations_for, kes
from tests.conftest import SALON, SHOP
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.pesapal import PesapalSimulator
from tulia.services import Services


def buy_a_power_bank_for_pickup(chat: Chat) -> str:
    """Discovery -> the item named -> variant -> quantity -> pickup: returns the order reference."""
    assert "Oraimo Traveler 20000mAh Power Bank - KES 2,900" in chat.send("I want an oraimo 20000mAh power bank")
    assert "How many" in chat.send("black")
    chat.send("1")
    summary = chat.send("pickup")
    ref = chat.state["order_id"]
    assert f"Order {ref}" in summary
    return str(ref)


def start_stk(chat: Chat) -> str:
    ref = buy_a_power_bank_for_pickup(chat)
    assert "Please confirm" in chat.send("M-Pesa prompt")
    assert "I've sent an M-Pesa prompt" in chat.send("yes")
    return ref


# 8.1 Product readiness ------------------------------------------------------------------------
def test_8_1_sales_journey_completes_discovery_selection_order_payment_initiation(
    chat: Chat, seeded: Services, daraja: DarajaSimulator
) -> None:
    ref = start_stk(chat)
    order = seeded.orders.get(SHOP, ref)
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    assert order.status == "pending_payment"
    assert (payment.status, payment.amount) == ("pending", order.amount_due)
    sent = daraja.stk[payment.checkout_request_id].body
    assert (sent["Amount"], sent["PhoneNumber"], sent["AccountReference"]) == (
        order.amount_due,
        "254712345678",
        ref.replace("-", ""),  # Daraja account references are alphanumeric
    )
    assert seeded.customers.get(SHOP, chat.state["customer_id"]).handoff_ticket_id is None  # no human was needed


def test_8_1_where_is_my_order_returns_the_status_from_the_order_record(chat: Chat, seeded: Services) -> None:
    ref = buy_a_power_bank_for_pickup(chat)
    reply = chat.send("where is my order?")
    order = seeded.orders.get(SHOP, ref)
    assert f"Order {ref}" in reply
    assert kes(order.totals.total) in reply
    assert "Status: waiting for you to choose how to pay" in reply
    assert "order_get_status" in chat.tools()
    # and the way to choose is offered right there, for this order
    assert [o["id"] for o in chat.state["pending_options"]] == [
        f"pay:{ref}:mpesa_stk",
        f"pay:{ref}:mpesa_c2b",
        f"pay:{ref}:pesapal",
    ]


def test_8_1_support_answers_are_grounded_and_missing_answers_are_refused_and_escalated(
    chat: Chat, seeded: Services
) -> None:
    grounded = chat.send("How much is delivery to Eastlands?")
    assert "KES 350" in grounded  # the shop's zones (tenant.yaml), as faq/delivery.md also says
    assert chat.tools()[-1] == "kb_retrieve"
    documented = chat.send("How are refunds paid?")
    assert "(From our Returns and Refunds Policy - How refunds are paid)" in documented
    refused = chat.send("Do you repair drones on Sundays?")
    assert "I don't have that information" in refused
    assert "passing you to a person" in chat.send("yes")
    assert seeded.customers.get(SHOP, chat.state["customer_id"]).handoff_ticket_id


def test_8_1_offers_are_only_real_offers(chat: Chat) -> None:
    reply = chat.send("any offers?")
    assert "WELCOME10" in reply
    assert "10% off chargers, cables and power banks" in reply
    assert "BLACKFRIDAY25" not in reply  # ended
    rejected = chat.send("apply code FREESTUFF99")
    assert "FREESTUFF99" in rejected
    assert "10%" not in rejected
    assert "discount" not in rejected.lower().replace("no discount", "")


def test_8_1_stop_opts_out_immediately_and_confirms(chat: Chat, seeded: Services) -> None:
    chat.send("I want a samsung phone")
    reply = chat.send("STOP")
    assert "you won't get offers or marketing messages" in reply
    customer = seeded.customers.get(SHOP, chat.state["customer_id"])
    assert customer.marketing_opt_in is False
    events = seeded.customers.consent_events(SHOP, customer.customer_id)
    assert (events[-1].field, events[-1].new_value, events[-1].source) == ("marketing_opt_in", False, "user_message")
    assert chat.llm_calls() == []  # the fast path decided before any model


def test_8_1_language_policy_is_english_unless_confident_or_requested(chat: Chat) -> None:
    assert "Buy something" in chat.send("ok")  # nothing to go on: the default, English
    assert chat.state["response_language"] == "en"
    assert "Unatafuta nini" in chat.send("Habari, nataka kununua kitu tafadhali")  # clearly Swahili
    assert chat.state["response_language"] == "sw"
    assert "English" in chat.send("english please")
    assert chat.state["response_language"] == "en"


def test_8_1_governor_redirects_casual_chat_and_disengages_from_spam(chat: Chat) -> None:
    chat.send("hi")
    chat.send("how are you?")
    assert "I'm here for Duka Bora Electronics" in chat.send("tell me a joke")
    other = Chat(chat.conversations, phone="+254799000111")
    other.send("click here to earn money http://spam.example")
    assert other.send("click here to earn money http://spam.example").startswith("I can only help with")


# 8.2 Payment readiness ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        ("paid", "We received KES"),
        ("failed", "didn't go through"),
        ("cancelled", "was cancelled, so nothing was paid"),
        ("timeout", "expired before it was completed"),
    ],
)
def test_8_2_stk_success_failure_and_timeout_are_worded_from_the_payment_record(
    chat: Chat, seeded: Services, clock: Any, outcome: str, expected: str
) -> None:
    ref = start_stk(chat)
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    seeded.payments.settle(payment, to=outcome, now=clock(), receipt="TK4XYZ12AB" if outcome == "paid" else None)
    reply = chat.send("did it go through?")
    assert expected in reply
    assert f"order {ref}" in reply
    if outcome == "paid":
        assert kes(payment.amount) in reply
        assert "TK4XYZ12AB" in reply
    else:
        assert "How would you like to pay" in reply  # offered to try again


def test_8_2_did_it_go_through_explains_a_pending_payment(chat: Chat) -> None:
    ref = start_stk(chat)
    reply = chat.send("did it go through?")
    assert f"Your payment for order {ref} is still pending" in reply


def test_8_2_c2b_instructions_carry_each_orders_own_reference(chat: Chat, seeded: Services) -> None:
    first = buy_a_power_bank_for_pickup(chat)
    first_steps = chat.send("paybill")
    second = buy_a_power_bank_for_pickup(chat)
    second_steps = chat.send("paybill")
    assert first != second
    assert f"Account number: {first}" in first_steps
    assert f"Account number: {second}" in second_steps
    assert f"Amount: {kes(seeded.orders.get(SHOP, second).amount_due)}" in second_steps


def test_8_2_pesapal_checkout_link_is_generated_and_tracked(
    chat: Chat, seeded: Services, pesapal: PesapalSimulator
) -> None:
    ref = buy_a_power_bank_for_pickup(chat)
    reply = chat.send("card")
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    assert payment.method == "pesapal"
    assert payment.status == "pending"
    assert payment.redirect_url
    assert payment.redirect_url in reply
    assert kes(payment.amount) in reply


# 8.5 Go / No-Go -------------------------------------------------------------------------------
def test_8_5_order_and_payment_initiation_work_autonomously_in_swahili(
    chat: Chat, seeded: Services, daraja: DarajaSimulator
) -> None:
    assert "Hivi ndivyo nimepata" in chat.send("Nataka power bank mbili za oraimo")
    number = next(
        n for n, o in enumerate(chat.state["pending_options"], 1) if o["title"] == "Oraimo Traveler 20000mAh Power Bank"
    )
    chat.send(str(number))
    chat.send("nyeusi")
    assert "Oda" in chat.send("nitachukua dukani")
    ref = chat.state["order_id"]
    assert seeded.orders.get(SHOP, ref).lines[0].quantity == 2  # "mbili", said in the first message
    assert "Tafadhali thibitisha" in chat.send("1")
    assert "Nimetuma ombi la M-Pesa" in chat.send("ndiyo")
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    assert daraja.stk[payment.checkout_request_id].body["Amount"] == seeded.orders.get(SHOP, ref).amount_due


def test_8_5_no_cross_tenant_leakage_for_the_same_phone(seeded: Services, engine: Any) -> None:
    conversations = conversations_for(seeded, engine)
    at_shop = Chat(conversations, tenant_id=SHOP)
    at_salon = Chat(conversations, tenant_id=SALON)
    ref = buy_a_power_bank_for_pickup(at_shop)
    salon_reply = at_salon.send("where is my order?")
    assert ref not in salon_reply
    assert at_salon.state["customer_id"] != at_shop.state["customer_id"]
    assert at_salon.state["conversation_id"] != at_shop.state["conversation_id"]
    salon_search = at_salon.send("oraimo power bank")
    assert "Oraimo Traveler" not in salon_search
    assert "KES 2,900" not in salon_search


def test_8_5_payment_instructions_are_always_the_orders_exact_amount(chat: Chat, seeded: Services) -> None:
    chat.send("I want an oraimo 20000mAh power bank")
    chat.send("black")
    chat.send("1")
    chat.send("deliver to Buruburu phase 2")
    ref = chat.state["order_id"]
    order = seeded.orders.get(SHOP, ref)
    assert order.totals.delivery_fee == 350
    steps = chat.send("paybill")
    assert f"Amount: {kes(order.amount_due)}" in steps
    assert order.amount_due == order.totals.subtotal + 350 - order.totals.discount


def test_8_5_large_catalog_is_narrowed_with_a_catalog_link_fallback(chat: Chat) -> None:
    first = chat.send("I need a phone case")
    assert "the best 6 of" in first  # many matches: a shortlist of 6 and a question to narrow
    assert first.count("\n") <= 14
    assert "dukabora.example/catalog" not in first
    second = chat.send("something cheaper, under 1500")
    assert "dukabora.example/catalog" in second or "the best" not in second
    everything = Chat(chat.conversations, phone="+254700111222").send("show me everything you sell")
    assert "https://dukabora.example/catalog" in everything
