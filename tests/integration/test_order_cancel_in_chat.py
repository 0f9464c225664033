"""An order dropped in chat (issue 54's first case, a goal of issue 53's conversations): "cancel my order" in English,
Swahili or Sheng cancels her unpaid order at once, in her language, with its history saying she did; a basket never
made an order is let go; a paid order goes to a person; someone else's order is never touched."""

from __future__ import annotations

from tests.chat import Chat
from tulia.services import Services

SHOP = "demo-shop"


def _to_the_payment_choice(chat: Chat) -> str:
    chat.send("nataka oraimo power bank moja")
    chat.send("1")
    chat.send("Black")
    chat.send("nitakuja kuchukua dukani")
    ref = chat.state["order_id"]
    assert ref is not None
    return str(ref)


def test_code_switched_cancel_at_the_payment_choice_cancels_the_unpaid_order_in_swahili(
    chat: Chat, seeded: Services
) -> None:
    ref = _to_the_payment_choice(chat)
    reply = chat.send("aki nimebadilisha mawazo, cancel hiyo order")
    assert reply.startswith(f"Sawa: oda {ref} (1 x Oraimo Traveler 10000mAh Power Bank) imefutwa.")
    order = seeded.orders.get(SHOP, ref)
    assert order.status == "cancelled"
    assert [(m.event, m.by) for m in order.marks] == [("cancelled", "customer")]
    assert chat.state["frame"] is None  # the sale is over: nothing of it is asked again
    assert chat.state["pending"] is None
    status = chat.send("oda yangu iko wapi?")
    assert ref in status
    assert "Hali: imeghairiwa" in status


def test_issue_54s_english_cancel_cancels_the_order(chat: Chat, seeded: Services) -> None:
    ref = _to_the_payment_choice(chat)
    reply = chat.send("I want to cancel my order")
    assert reply.startswith(f"Done: order {ref}")
    assert seeded.orders.get(SHOP, ref).status == "cancelled"


def test_issue_54s_swahili_cancel_names_the_order_by_its_reference(chat: Chat, seeded: Services) -> None:
    ref = _to_the_payment_choice(chat)
    chat.send("asante, nitarudi baadaye")
    later = Chat(chat.conversations, phone=chat.phone)
    reply = later.send(f"Samahani, nimebadilisha mawazo. Cancel oda yangu {ref}")
    assert f"oda {ref}" in reply
    assert "imefutwa" in reply
    assert seeded.orders.get(SHOP, ref).status == "cancelled"


def test_a_basket_never_made_an_order_is_let_go(chat: Chat, seeded: Services) -> None:
    chat.send("nataka oraimo power bank moja")
    chat.send("1")
    assert chat.state["frame"].lines  # a line, no order yet: the colour is asked
    reply = chat.send("wacha hiyo order, sitaki tena")
    assert reply.startswith("Sawa, nimeiacha oda hiyo: hakuna kilichowekwa wala kulipwa.")  # the conversation's Swahili
    assert chat.state["frame"] is None
    assert seeded.orders.list_for_customer(SHOP, chat.state["customer_id"]).items == []


def test_a_paid_order_goes_to_a_person_and_stays_paid(chat: Chat, seeded: Services) -> None:
    ref = _to_the_payment_choice(chat)
    seeded.orders.transition(SHOP, ref, to="pending_payment", now=seeded.clock())
    seeded.orders.transition(SHOP, ref, to="paid", now=seeded.clock())
    reply = chat.send("please cancel my order, I don't want it anymore")
    assert f"Order {ref} is already paid" in reply
    assert seeded.orders.get(SHOP, ref).status == "paid"
    ticket = seeded.handoffs.get(SHOP, chat.state["handoff_ticket_id"])
    assert ticket.reason == "refund_request"


def test_nothing_to_cancel_is_said_and_nothing_changes(chat: Chat, seeded: Services) -> None:
    reply = chat.send("cancel my order please")
    assert reply.startswith("You have no open order to cancel.")


def test_another_customers_order_reference_is_never_cancelled(chat: Chat, seeded: Services) -> None:
    ref = _to_the_payment_choice(chat)
    stranger = Chat(chat.conversations, phone="+254722999111")
    reply = stranger.send(f"cancel order {ref}")
    assert f"I couldn't find order {ref} for this number" in reply
    assert seeded.orders.get(SHOP, ref).status == "draft"  # shown, not yet paid, and hers still


def test_cancel_alone_at_a_yes_or_no_question_answers_it_and_cancels_nothing(chat: Chat, seeded: Services) -> None:
    ref = _to_the_payment_choice(chat)
    chat.send("1")  # the M-Pesa prompt: "send it to this number?"
    chat.send("cancel")
    assert seeded.orders.get(SHOP, ref).status != "cancelled"
