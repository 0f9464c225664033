"""WhatsApp message objects, templates in both languages, and the fact guard."""

from __future__ import annotations

import pytest

from tulia.nlg.guard import passes, unsupported_facts
from tulia.nlg.messages import OutboundMessage, buttons, listing, text
from tulia.nlg.templates import COUPON_REASONS, STATUS_WORDS, TEMPLATES, render


def test_every_template_exists_in_english_and_swahili() -> None:
    for table in (TEMPLATES, COUPON_REASONS, STATUS_WORDS):
        assert all(set(v) in ({"en", "sw"}, {"en", "sw", "sheng"}) for v in table.values())


SHENG_JOURNEYS = (
    "welcome", "shortlist", "shortlist_footer", "ask_variant", "ask_quantity", "order_summary",
    "ask_payment_method", "confirm_stk", "stk_sent", "payment_status_paid", "handoff", "handoff_after_hours",
    "opted_out", "opted_in",
)  # fmt: skip


def test_the_main_journeys_have_sheng_with_the_same_facts_as_english() -> None:
    import string

    def facts(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    assert [key for key in SHENG_JOURNEYS if "sheng" not in TEMPLATES[key]] == []
    for key, texts in TEMPLATES.items():
        if "sheng" in texts:
            assert facts(texts["sheng"]) == facts(texts["en"]), key


def test_sheng_uses_the_tenants_fallback_language() -> None:
    assert render("ask_what", "sheng", sheng_fallback="sw") == render("ask_what", "sw")
    assert render("ask_what", "sheng", sheng_fallback="en") == render("ask_what", "en")
    assert render("ask_what", "mixed") == render("ask_what", "sw")


def test_reply_buttons_become_an_interactive_message() -> None:
    payload = buttons("Lipa vipi?", [("pay_mpesa", "M-Pesa"), ("pay_card", "Card")]).to_whatsapp(to="+254712345678")
    assert payload["to"] == "254712345678"
    assert payload["interactive"]["type"] == "button"
    assert [b["reply"]["title"] for b in payload["interactive"]["action"]["buttons"]] == ["M-Pesa", "Card"]


def test_too_many_buttons_fall_back_to_numbered_text() -> None:
    msg = buttons("Pick one", [(str(n), f"Option {n}") for n in range(4)])
    payload = msg.to_whatsapp(to="254712345678")
    assert payload["type"] == "text"
    assert "1. Option 0" in payload["text"]["body"]
    assert "4. Option 3" in payload["text"]["body"]


def test_button_titles_longer_than_20_chars_fall_back() -> None:
    assert buttons("x", [("a", "A very long button title here")]).to_whatsapp(to="1")["type"] == "text"


def test_lists_clip_rows_to_whatsapp_limits_and_fall_back_past_ten_rows() -> None:
    rows = [(f"sku{n}", f"Samsung Galaxy A55 5G 256GB Awesome {n}", "KES 54,000 " + "x" * 80) for n in range(6)]
    payload = listing("Here you go", rows, button="See options").to_whatsapp(to="254712345678")
    row = payload["interactive"]["action"]["sections"][0]["rows"][0]
    assert len(row["title"]) <= 24
    assert len(row["description"]) <= 72
    eleven = listing("Too many", [(str(n), f"Item {n}", None) for n in range(11)], button="See")
    assert eleven.to_whatsapp(to="1")["type"] == "text"


def test_long_text_is_clipped_to_whatsapp_limit() -> None:
    assert len(text("x" * 5000).to_whatsapp(to="1")["text"]["body"]) == 4096


def test_a_user_without_a_phone_is_addressed_by_recipient_id() -> None:
    payload = text("hi").to_whatsapp(recipient="KE.1502576394655843")
    assert payload["recipient"] == "KE.1502576394655843"
    assert "to" not in payload


def test_plain_text_form_numbers_the_choices() -> None:
    msg = OutboundMessage(kind="list", body="Choose", choices=[{"id": "a", "title": "Alpha", "description": "KES 1"}])
    assert msg.plain_text() == "Choose\n\n1. Alpha - KES 1"


TOOL_OUTPUT = {
    "order_ref": "ORD-7F3K2",
    "totals": {"total": 21800, "delivery_fee": 300},
    "eta": "next day",
    "offers": [{"code": "WELCOME10", "value": 10}],
}


@pytest.mark.parametrize(
    "good",
    [
        "Your order ORD-7F3K2 comes to KES 21,800 including KES 300 delivery.",
        "Use WELCOME10 for 10% off.",
        "Order ORD-7F3K2 arrives next day.",
    ],
)
def test_the_guard_passes_facts_from_tool_output(good: str) -> None:
    assert passes(good, TOOL_OUTPUT)


@pytest.mark.parametrize(
    ("bad", "invented"),
    [
        ("Your total is KES 19,999.", "19999"),
        ("Use code SAVE50 for half price!", "SAVE50"),
        ("It arrives in 2 days.", "2"),
        ("Order ORD-9ZZZZ is on its way.", "ORD-9ZZZZ"),
        ("Get 15% off today", "15"),
    ],
)
def test_the_guard_catches_invented_facts(bad: str, invented: str) -> None:
    assert invented in unsupported_facts(bad, TOOL_OUTPUT)


def test_the_guard_reads_timestamps_as_dates_and_identifiers_as_wholes() -> None:
    ticket = {"ticket_id": "HND-3YYH7", "created_at": "2026-11-23T09:15:05Z", "expected_response": "within 2 hours"}
    # the digits of the clock time and of the reference are not facts the model may reuse
    assert unsupported_facts("Someone will reply within 15 minutes.", ticket) == ["15", "within 15 minutes"]
    assert unsupported_facts("Ticket HND-3YYH8 is open.", ticket) == ["HND-3YYH8"]
    assert passes("Ticket HND-3YYH7, opened 23/11/2026: a reply within 2 hours.", ticket)


def test_the_guard_ignores_list_numbering_but_not_numbers_in_steps() -> None:
    steps = {"business": "600984", "amount": 2610}
    assert passes("1. Go to Lipa na M-Pesa\n2. Paybill 600984\n3. Pay KES 2,610", steps)
    assert unsupported_facts("1. Paybill 600984\n2. Pay KES 2,500", steps) == ["2500"]


@pytest.mark.parametrize(
    ("wording", "facts"),
    [
        ("Get ten percent off everything this week!", {"value": 15}),
        ("Pata punguzo la asilimia kumi leo!", {"value": 15}),
        ("Delivery to Westlands costs three hundred shillings.", {"fee": 350}),
        ("Utalipa elfu mbili mia tano tu.", {"total": 2400}),
        ("Free delivery today!", {"fee": 300}),
        ("Tunaleta bure leo.", {"fee": 300}),
    ],
)
def test_the_guard_reads_numbers_and_free_claims_written_in_words(wording: str, facts: dict[str, int]) -> None:
    """ "ten percent", "asilimia kumi", "free" and "bure" need this turn's tool output like digits do."""
    assert unsupported_facts(wording, facts)


@pytest.mark.parametrize(
    ("wording", "facts"),
    [
        ("Get ten percent off everything!", {"value": 10}),
        ("Pata punguzo la asilimia kumi!", {"value": 10}),
        ("Ten percent off, this week only.", {"value": 10, "valid_to": "this week"}),
        ("Utalipa elfu mbili mia tano tu.", {"total": 2500}),
        ("Pickup is free at our shop.", {"fee": 0}),
        ("One of our team will reply shortly.", {}),
    ],
)
def test_numbers_in_words_backed_by_the_tool_output_pass(wording: str, facts: dict[str, int]) -> None:
    assert unsupported_facts(wording, facts) == []


@pytest.mark.parametrize(
    ("wording", "promise"),
    [
        ("It arrives tomorrow.", "tomorrow"),
        ("We can deliver by Friday.", "by Friday"),
        ("Itafika kesho asubuhi.", "kesho"),
        ("You will have it within a week.", "within a week"),
        ("Everything is half price this week!", "half price"),
        ("Don't worry, we have plenty available.", "plenty"),
        ("Zipo nyingi, usijali.", "Zipo nyingi"),
        ("Yes, it is in stock.", "in stock"),
    ],
)
def test_the_guard_catches_promises_of_when_price_and_stock_no_tool_made(wording: str, promise: str) -> None:
    assert promise in unsupported_facts(wording, TOOL_OUTPUT)


@pytest.mark.parametrize(
    ("wording", "facts"),
    [
        ("It arrives the next day.", {"eta": "next day"}),
        ("Itafika kesho yake.", {"eta": {"sw": "kesho yake"}}),
        ("It is in stock: KES 5,200.", {"results": [{"name": "JBL Go 3", "price": 5200, "stock": 40}]}),
        ("Your booking is on Friday.", {"booking": {"start": "2026-11-27T10:00:00+03:00"}}),
        ("We deliver the same day if you pay before 4pm.", {"eta": "same day if paid before 4pm"}),
        ("Tunafungua Jumatatu hadi Jumamosi 8am.", {"text": "Monday to Saturday 8am to 7pm"}),  # in Swahili
        ("Open Monday to Saturday.", {"text": "Jumatatu hadi Jumamosi"}),
    ],
)
def test_promises_the_tool_output_makes_pass(wording: str, facts: dict[str, object]) -> None:
    assert unsupported_facts(wording, facts) == []
