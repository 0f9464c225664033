"""Issue 18's routing and language examples as conversations (rules engine): the shop's documents
before "I didn't get that", complaints escalated, thanks and greetings answered in their own language,
"niache" an opt-out, a question before a hand-over caused by misunderstanding, and everyday words of
one trade never read as another trade's products."""

from __future__ import annotations

from tests.chat import Chat
from tests.conftest import SALON, SHOP
from tulia.services import Services

MENU_ROW = "1. Buy something"


def test_installment_payments_for_laptops_is_answered_from_the_documents_not_the_offers_list(chat: Chat) -> None:
    reply = chat.send("Do you offer installment payments for laptops?")
    assert "our lay-by plan lets you pay for any phone or laptop" in reply
    assert "offers" not in chat.nodes()


def test_trade_in_of_old_smartphones_is_answered_from_an_uploaded_document(chat: Chat) -> None:
    reply = chat.send("do you accept trade-in of old smartphones?")
    assert "we accept trade-in of old smartphones" in reply
    assert MENU_ROW not in reply


def test_closing_time_today_is_answered_from_the_shops_hours(chat: Chat) -> None:
    reply = chat.send("what time do you close today?")
    assert "Monday to Saturday 8:00 am to 7:00 pm" in reply  # the hours the shop states (issue 53)
    assert "didn't" not in reply


def test_a_phone_that_is_not_charging_gets_the_shops_help_not_a_search(chat: Chat) -> None:
    reply = chat.send("my phone is not charging")
    assert "bring it with the receipt" in reply
    assert "catalog_search" not in chat.tools()


def test_saa_ngapi_mtafungua_is_about_opening_hours_not_watches(chat: Chat) -> None:
    reply = chat.send("saa ngapi mtafungua?")
    assert "Jumatatu hadi Jumamosi saa 2 asubuhi hadi saa 1 usiku" in reply  # in Swahili, from the settings
    assert "Watch" not in reply


def test_a_delivery_three_days_late_is_escalated_at_once(chat: Chat, seeded: Services) -> None:
    reply = chat.send("my delivery is 3 days late, this is unacceptable")
    assert "I'm passing you to a person from our team" in reply
    assert chat.state["escalation_reason"] == "delivery_complaint"
    assert [t.reason for t in seeded.handoffs.list_by_status(SHOP, "open").items] == ["delivery_complaint"]


def test_asante_sana_gets_karibu_not_the_menu(chat: Chat) -> None:
    chat.send("Nataka simu ya Samsung")
    reply = chat.send("asante sana")
    assert reply.startswith("Karibu sana!")
    assert MENU_ROW not in reply


def test_a_goodbye_gets_a_goodbye(chat: Chat) -> None:
    chat.send("hi")
    assert chat.send("bye").startswith("Goodbye, and thank you for chatting with Duka Bora Electronics")


def test_habari_is_answered_in_swahili(chat: Chat) -> None:
    assert chat.send("Habari").startswith("Habari! Mimi ni")


def test_niache_is_an_opt_out(chat: Chat, seeded: Services) -> None:
    reply = chat.send("niache")
    assert "You're unsubscribed" in reply  # one word says little of a language: the shop's default (English)
    assert seeded.customers.get(SHOP, chat.state["customer_id"]).marketing_opt_in is False


def test_three_misunderstandings_ask_before_a_hand_over(chat: Chat, seeded: Services) -> None:
    for words in ("purple elephants dance quietly", "the moon is made of cheese", "elephants whistle quietly"):
        assert "I didn't quite get that" in chat.send(words)
    reply = chat.send("glorp the whatsit")
    assert "Shall I get someone from the team to help you?" in reply
    assert seeded.handoffs.list_by_status(SHOP, "open").items == []
    assert "I'm passing you to a person from our team" in chat.send("yes")
    assert len(seeded.handoffs.list_by_status(SHOP, "open").items) == 1


def test_no_thanks_to_a_person_carries_on(chat: Chat, seeded: Services) -> None:
    for words in ("purple elephants dance quietly", "the moon is made of cheese", "elephants whistle quietly"):
        chat.send(words)
    assert "Shall I get someone from the team" in chat.send("glorp")
    chat.send("no")
    assert seeded.handoffs.list_by_status(SHOP, "open").items == []
    assert "Samsung Galaxy" in chat.send("I want a samsung phone")


def test_at_the_salon_make_it_cheaper_is_about_offers_not_makeup(chat: Chat) -> None:
    salon = Chat(chat.conversations, tenant_id=SALON, phone="+254711000419")
    reply = salon.send("can you make it cheaper?")
    assert "offers" in salon.nodes()
    assert "Makeup" not in reply


def test_at_the_salon_cut_the_price_is_about_offers_not_haircuts(chat: Chat) -> None:
    salon = Chat(chat.conversations, tenant_id=SALON, phone="+254711000420")
    reply = salon.send("cut the price please")
    assert "offers" in salon.nodes()
    assert "Cut" not in reply


def test_bei_iko_juu_sana_is_not_a_search_for_juu(chat: Chat) -> None:
    reply = chat.send("bei iko juu sana")
    assert "catalog_search" not in chat.tools()
    assert "juu" not in reply.lower()
