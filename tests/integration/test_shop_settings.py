"""Issue 18, items 4 and 5: every tenant setting is honoured, in one language per reply.

Handoff hours (a promise only while the team is in), handoff disabled (how to reach the shop, no
ticket), marketing-requires-opt-in for unasked offer tips, order-update and offer preferences set in
chat, the shop's texts in the reply's language, and the shop's choice of Sheng, Swahili or English
for Sheng speakers. (The customer told when a person ends the hand-over: tests/e2e/test_admin_api.py.)
The test clock starts on Monday 23 November 2026 at 10:00 in Nairobi; the demo shop's team is in
Mon-Sat 08:00-19:00."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tests.chat import Chat, conversations_for
from tests.conftest import SHOP, Clock
from tulia.domain.common import LocalText
from tulia.domain.hours import OpeningHours
from tulia.domain.tenant import Tenant
from tulia.nlu.rules import RulesEngine
from tulia.services import Services

PERSON = "I want to talk to a person"


def change_shop(services: Services, **update: Any) -> Tenant:
    tenant = services.tenants.get(SHOP)
    changed = tenant.model_copy(update=update)
    services.tenants.save(changed)
    return changed


def at_nairobi(clock: Clock, year: int, month: int, day: int, hour: int, minute: int) -> None:
    clock.now = datetime(year, month, day, hour - 3, minute, tzinfo=UTC)


# handoff hours -----------------------------------------------------------------------------------
def test_inside_the_hours_the_response_time_is_promised(chat: Chat, seeded: Services) -> None:
    reply = chat.send(PERSON)
    assert "They'll reply here within 30 minutes." in reply
    assert len(seeded.handoffs.list_by_status(SHOP, "open").items) == 1


def test_at_21_42_the_bot_says_when_the_team_is_back_instead_of_promising_30_minutes(
    chat: Chat, seeded: Services, clock: Clock
) -> None:
    at_nairobi(clock, 2026, 11, 23, 21, 42)
    reply = chat.send(PERSON)
    assert "The team is away now; they're back tomorrow at 8:00 am and will reply here then." in reply
    assert "30 minutes" not in reply
    assert len(seeded.handoffs.list_by_status(SHOP, "open").items) == 1  # the ticket waits for them


def test_a_message_while_waiting_after_hours_promises_nothing_shortly(chat: Chat, clock: Clock) -> None:
    at_nairobi(clock, 2026, 11, 23, 21, 42)
    chat.send(PERSON)
    waiting = chat.send("hello? are you there")
    assert waiting == (
        "Thanks, I've added this to your request. Our team is away now; they're back tomorrow at 8:00 am "
        "and will reply here."
    )


def test_on_saturday_evening_the_team_is_back_on_monday(chat: Chat, clock: Clock) -> None:
    at_nairobi(clock, 2026, 11, 28, 19, 30)  # Saturday; the shop is closed on Sundays
    assert "they're back on Monday at 8:00 am" in chat.send(PERSON)


def test_before_opening_the_team_is_back_today(chat: Chat, clock: Clock) -> None:
    at_nairobi(clock, 2026, 11, 24, 6, 15)
    assert "they're back today at 8:00 am" in chat.send(PERSON)


def test_a_swahili_hand_over_is_swahili_throughout(chat: Chat, clock: Clock) -> None:
    reply = chat.send("nataka kuongea na mtu")
    assert "Atakujibu hapa ndani ya dakika 30." in reply
    assert "within" not in reply
    chat.phone = "+254722000111"
    at_nairobi(clock, 2026, 11, 23, 21, 42)
    late = chat.send("nataka kuongea na mtu")
    assert "Timu haipo kwa sasa; watarudi kesho saa 2 asubuhi na watakujibu hapa." in late


def test_hours_written_badly_are_refused_with_the_rule_named() -> None:
    with pytest.raises(ValueError, match="'Mon-Sat 19:00-08:00': closing time must be after opening"):
        OpeningHours.parse("Mon-Sat 19:00-08:00")
    with pytest.raises(ValueError, match="'funday' is not a day"):
        OpeningHours.parse("Funday 08:00-17:00")
    hours = OpeningHours.parse("Mon-Fri 8am-6pm; Sat 09:00-13:00")
    assert hours.is_open(datetime(2026, 11, 28, 9, 30, tzinfo=UTC))  # Saturday 12:30 in Nairobi
    assert not hours.is_open(datetime(2026, 11, 28, 10, 30, tzinfo=UTC))  # Saturday 13:30


# handoff disabled ----------------------------------------------------------------------------------
def test_with_handoff_disabled_the_customer_is_told_how_to_reach_the_shop_and_no_ticket_opens(
    chat: Chat, seeded: Services
) -> None:
    tenant = seeded.tenants.get(SHOP)
    change_shop(seeded, handoff=tenant.handoff.model_copy(update={"enabled": False}))
    reply = chat.send(PERSON)
    assert (
        "I can't pass you to a person in this chat. You can reach Duka Bora Electronics directly: "
        "call us on 0700 000 001 or visit us on Moi Avenue." in reply
    )
    assert seeded.handoffs.list_by_status(SHOP, "open").items == []
    assert seeded.customers.get(SHOP, chat.state["customer_id"]).handoff_ticket_id is None
    complaint = chat.send("my delivery is 3 days late, this is unacceptable")
    assert "call us on 0700 000 001" in complaint
    assert seeded.handoffs.list_by_status(SHOP, "open").items == []
    assert "Nice to see" not in chat.send("hi")  # the bot still answers: nobody holds the conversation


def test_with_handoff_disabled_an_unanswerable_question_offers_no_person(chat: Chat, seeded: Services) -> None:
    tenant = seeded.tenants.get(SHOP)
    change_shop(seeded, handoff=tenant.handoff.model_copy(update={"enabled": False, "contact": None}))
    reply = chat.send("what is your policy on corporate invoicing?")
    assert "You can ask Duka Bora Electronics directly: +254700000001" in reply
    assert "Ask a person" not in reply


# marketing consent and preferences -----------------------------------------------------------------
def _order_two_speakers(chat: Chat, speaker: str = "jbl flip 6") -> str:
    chat.send(f"nipe {speaker} mbili, nitakuja dukani")
    return chat.send("blue")


def test_offer_tips_wait_for_an_opt_in_when_the_shop_requires_one(chat: Chat) -> None:
    summary = _order_two_speakers(chat)
    assert "Oda ORD-" in summary
    assert "WELCOME10" not in summary
    assert "Umejiunga kupokea ofa" in chat.send("nitumie ofa kwenye whatsapp")
    # another order (the same speakers said again while that sale is open are that same basket)
    assert "Kidokezo: unaweza kutumia code WELCOME10" in _order_two_speakers(chat, "jbl charge 5")


def test_offer_tips_go_to_everyone_not_opted_out_when_the_shop_needs_no_opt_in(chat: Chat, seeded: Services) -> None:
    tenant = seeded.tenants.get(SHOP)
    change_shop(seeded, compliance=tenant.compliance.model_copy(update={"marketing_requires_opt_in": False}))
    assert "code WELCOME10" in _order_two_speakers(chat)
    chat.phone = "+254733000222"
    chat.send("STOP")
    assert "code WELCOME10" not in _order_two_speakers(chat)


@pytest.mark.parametrize(
    ("message", "setting", "value", "expected"),
    [
        ("stop sending me order updates", "order_updates_whatsapp", False, "won't send you order updates"),
        ("usinitumie taarifa za oda", "order_updates_whatsapp", False, "haitakutumia tena taarifa za oda"),
        ("don't send me offers anymore", "marketing_opt_in", False, "You're unsubscribed"),
        ("send me offers on whatsapp please", "marketing_opt_in", True, "You're subscribed to offers"),
    ],
)
def test_preferences_are_set_in_chat_and_audited(
    chat: Chat, seeded: Services, message: str, setting: str, value: bool, expected: str
) -> None:
    reply = chat.send(message)
    assert expected in reply
    customer = seeded.customers.get(SHOP, chat.state["customer_id"])
    prefs = {"marketing_opt_in": customer.marketing_opt_in, **customer.notification_prefs.model_dump()}
    assert prefs[setting] is value
    if setting == "marketing_opt_in":  # offers on WhatsApp follow the marketing consent
        assert prefs["offers_whatsapp"] is value
    events = seeded.customers.consent_events(SHOP, customer.customer_id)
    assert [(e.field, e.new_value, e.source) for e in events if e.field == setting] == [
        (setting, value, "user_message")
    ]


def test_asking_about_settings_in_swahili_changes_nothing(chat: Chat, seeded: Services) -> None:
    # "nataka" (I want) once read as a yes to marketing: consent is never guessed
    reply = chat.send("nataka kujua mipangilio yangu")
    assert "ofa kwenye WhatsApp: zimezimwa" in reply
    customer = seeded.customers.get(SHOP, chat.state["customer_id"])
    assert customer.marketing_opt_in is None
    assert seeded.customers.consent_events(SHOP, customer.customer_id) == []


def test_order_updates_turned_back_on_and_the_settings_said_when_asked(chat: Chat, seeded: Services) -> None:
    chat.send("stop order updates please")
    assert "will send you updates about your orders" in chat.send("send me order updates")
    status = chat.send("what are my preferences?")
    assert "offers on WhatsApp: off; order updates: on" in status
    assert seeded.customers.get(SHOP, chat.state["customer_id"]).notification_prefs.order_updates_whatsapp is True


# the shop's texts in the reply's language -----------------------------------------------------------
def test_a_swahili_order_summary_carries_the_shops_swahili_eta(chat: Chat) -> None:
    chat.send("nataka jbl flip 6 mbili, niletee Buruburu")
    summary = chat.send("blue")
    assert "Usafirishaji (Eastlands, kesho yake): KES 350" in summary
    assert "next day" not in summary


def test_a_shop_text_without_a_swahili_value_falls_back_to_the_one_given() -> None:
    assert LocalText("next day").in_language("sw") == "next day"
    both = LocalText({"en": "next day", "sw": "kesho yake"})
    assert (both.in_language("sw"), both.in_language("sheng"), both.in_language("en")) == (
        "kesho yake",
        "kesho yake",
        "next day",
    )
    assert LocalText({"sw": "kesho yake"}).in_language("en", default="sw") == "kesho yake"
    with pytest.raises(ValueError, match="non-empty"):
        LocalText({"en": " "})


# Sheng ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("sheng_replies", "greeting", "shortlist"),
    [
        ("sheng", "Niaje! Mi ni Bora wa Duka Bora Electronics", "Hizi ndio nimepata"),
        ("sw", "Habari! Mimi ni Bora wa Duka Bora Electronics", "Hivi ndivyo nimepata"),
        ("en", "Hi! I'm Bora from Duka Bora Electronics", "Here's what I found"),
    ],
)
def test_the_shop_chooses_how_sheng_speakers_are_answered(
    seeded: Services, sheng_replies: str, greeting: str, shortlist: str
) -> None:
    tenant = seeded.tenants.get(SHOP)
    change_shop(seeded, languages=tenant.languages.model_copy(update={"sheng_replies": sheng_replies}))
    chat = Chat(conversations_for(seeded, RulesEngine()))
    assert chat.send("niaje msee").startswith(greeting)
    assert shortlist in chat.send("msee niko na budget ya 3k ya earphones")


def test_a_sheng_sale_in_sheng_from_item_to_payment_prompt(chat: Chat) -> None:
    chat.send("niaje msee, nipe jbl flip 6 mbili, nitakuja dukani")
    summary = chat.send("blue")
    assert "Subtotal: KES 29,000" in summary
    assert "Utalipa KES 29,000 aje?" in summary
    confirm = chat.send("1")
    assert confirm.startswith("Confirm: nikutumie M-Pesa prompt ya KES 29,000")
    sent = chat.send("Ee, tuma")
    assert "Nimetuma M-Pesa prompt ya KES 29,000" in sent
    assert "Umetoka: hautapata offers" in chat.send("STOP")


def test_a_sheng_speakers_plain_swahili_stays_in_sheng(chat: Chat) -> None:
    assert chat.send("niaje msee").startswith("Niaje!")
    chat.send("nipe jbl flip 6 mbili, nitakuja dukani")  # plain Swahili from a Sheng speaker
    assert "Utalipa KES 29,000 aje?" in chat.send("blue")


def test_a_typed_yes_with_its_verb_confirms_the_prompt_and_keeps_the_pickup(chat: Chat, seeded: Services) -> None:
    chat.send("nataka jbl flip 6 mbili, nitakuja dukani")
    chat.send("blue")
    assert "Tafadhali thibitisha" in chat.send("1")  # its button says "Ndiyo, tuma"
    sent = chat.send("Ee, tuma")  # typed, not tapped: "tuma" (send) is not a delivery
    assert "Nimetuma ombi la M-Pesa la KES 29,000" in sent
    assert seeded.orders.get(SHOP, chat.state["order_id"]).delivery.mode == "pickup"


def test_settings_changed_in_the_middle_of_a_sale_then_the_sale_goes_on(chat: Chat, seeded: Services) -> None:
    chat.send("nataka jbl flip 6 moja")
    chat.send("blue")
    assert "Tukuletee wapi?" in chat.send("niletee")
    off = chat.send("acha offers")  # not an address
    assert "Umejiondoa" in off
    assert "Turudi kwenye oda yako:\nTukuletee wapi?" in off
    updates = chat.send("stop order updates")
    assert "won't send you order updates" in updates
    assert "Where should we deliver?" in updates
    customer = seeded.customers.get(SHOP, chat.state["customer_id"])
    assert (customer.marketing_opt_in, customer.notification_prefs.order_updates_whatsapp) == (False, False)
    assert "Delivery (Nairobi West, same day or next morning): KES 300" in chat.send("Kilimani")


def test_a_typed_button_title_is_that_button(chat: Chat) -> None:
    chat.send("oraimo freepods lite")
    chat.send("white")
    asked = chat.send("Another number")  # the fourth button under "How many?", typed: not a quantity of 4
    assert "How many would you like? Send the number (for example 4)." in asked
    assert chat.state["frame"].lines[0].quantity is None
    chat.send("5")
    assert chat.state["frame"].lines[0].quantity == 5
