"""The shop's stated facts (tulia.rag.shop_facts): hours, where it is, where it delivers and for how much, how to pay,
said from its settings in the customer's language, matched to a question by what each is about (issue 53)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tulia.domain.hours import OpeningHours
from tulia.domain.tenant import Tenant
from tulia.packs.loader import load_pack
from tulia.rag.shop_facts import answer_from_facts, hours_words, shop_facts

PACKS = Path(__file__).resolve().parents[2] / "packs"


@pytest.fixture(scope="module")
def shop() -> Tenant:
    return load_pack(PACKS / "demo-shop").tenant


@pytest.fixture(scope="module")
def grocer() -> Tenant:
    return load_pack(PACKS / "demo-grocer").tenant


def test_hours_are_said_per_run_of_days_in_english_and_in_swahili_time() -> None:
    hours = OpeningHours.parse("Mon-Sat 08:00-19:00; Sun 10:00-16:00")
    assert hours_words(hours, "en") == "Monday to Saturday 8:00 am to 7:00 pm, Sunday 10:00 am to 4:00 pm"
    assert hours_words(hours, "sw") == (
        "Jumatatu hadi Jumamosi saa 2 asubuhi hadi saa 1 usiku, Jumapili saa 4 asubuhi hadi saa 10 jioni"
    )


def test_days_not_named_are_said_closed_and_a_lunch_break_is_two_spans() -> None:
    hours = OpeningHours.parse("Tue-Fri 09:00-13:00; Tue-Fri 14:00-18:00")
    assert hours_words(hours, "en") == (
        "Tuesday to Friday 9:00 am to 1:00 pm and 2:00 pm to 6:00 pm; closed on Monday, Saturday, Sunday"
    )
    assert hours_words(hours, "sw").endswith("; tumefunga Jumatatu, Jumamosi, Jumapili")


@pytest.mark.parametrize(
    ("question", "lang", "kind", "said"),
    [
        ("duka lenu liko wapi?", "sw", "location", "Tunapatikana Moi Avenue, mkabala na Kenya National Archives"),
        ("where are you located?", "en", "location", "You'll find us at Moi Avenue, opposite the Kenya National"),
        ("mnafungua saa ngapi jumapili?", "sw", "hours", "Jumapili saa 4 asubuhi hadi saa 10 jioni"),
        ("what time do you open on sunday", "en", "hours", "Sunday 10:00 am to 4:00 pm"),
        ("mnaleta hadi Kasarani?", "sw", "delivery", "Tunaleta:"),
        ("naweza kulipa aje?", "sheng", "payment", "Unaweza kulipa kwa M-Pesa"),
    ],
)
def test_a_question_finds_its_fact_said_in_the_customers_language(
    shop: Tenant, question: str, lang: str, kind: str, said: str
) -> None:
    fact = answer_from_facts(shop, question, lang)
    assert fact is not None
    assert fact.kind == kind
    assert said in fact.text


def test_a_question_no_fact_is_about_goes_to_the_documents(shop: Tenant) -> None:
    assert answer_from_facts(shop, "do you accept trade in of an old phone?", "en") is None
    assert answer_from_facts(shop, "warranty ya simu ni muda gani?", "sw") is None


def test_a_shop_that_states_no_hours_has_no_hours_fact_and_a_zones_eta_is_no_answer_to_when_it_opens(
    grocer: Tenant,
) -> None:
    assert grocer.hours is None
    assert "hours" not in {f.kind for f in shop_facts(grocer, "en")}
    assert answer_from_facts(grocer, "what time do you open?", "en") is None  # its zones deliver "within 2 hours"


def test_the_delivery_fact_names_the_zone_asked_about_its_fee_and_eta_in_her_language(grocer: Tenant) -> None:
    fact = answer_from_facts(grocer, "delivery to Juja ni pesa ngapi?", "sw")
    assert fact is not None
    assert fact.kind == "delivery"
    assert "- Ruiru (Kimbo, Membley, Kamakis, Juja, Tatu City): KES 250, siku hiyo hiyo" in fact.text
    assert "- Kasarani (" not in fact.text  # Juja is in Ruiru: the zone she asked about, not all of them
    every = answer_from_facts(grocer, "delivery ni pesa ngapi?", "sw")  # no place named: every zone
    assert every is not None
    assert "- Ruiru (" in every.text
    assert "- Kasarani (" in every.text


def test_payment_says_only_the_methods_the_shop_offers_with_its_own_numbers(grocer: Tenant) -> None:
    [fact] = [f for f in shop_facts(grocer, "en") if f.kind == "payment"]
    assert fact.text == "You can pay by M-Pesa (I send a payment prompt to your phone); M-Pesa Till 7012345."
    assert "card" not in fact.text  # the grocer takes no card


# answers from documents: her language's sentences, WhatsApp's formatting (issue 53) -----------------------------------
BILINGUAL = (
    "## Saa za kazi / Opening hours\n"
    "Tuko wazi Jumanne hadi Jumapili, saa mbili asubuhi hadi saa moja jioni (8am to 7pm).\n"
    "We are open Tuesday to Sunday, 8am to 7pm, and closed on Mondays."
)


def test_a_document_written_in_both_languages_gives_her_languages_sentences_only() -> None:
    from tulia.rag.answer import best_sentences

    swahili = best_sentences(BILINGUAL, "mnafungua saa ngapi", lang="sw")
    assert "Tuko wazi Jumanne hadi Jumapili" in swahili
    assert "We are open" not in swahili
    english = best_sentences(BILINGUAL, "what time do you open", lang="en")
    assert "We are open Tuesday to Sunday" in english
    assert "Tuko wazi" not in english


def test_a_document_in_one_language_is_answered_whole_and_known_to_be_in_it() -> None:
    from tulia.rag.answer import best_sentences, written_in

    english = "We are open Tuesday to Sunday, 8am to 7pm. Parking is free for customers."
    assert best_sentences(english, "saa ngapi", lang="sw") == english
    assert written_in(english) == "en"
    assert written_in("Tuko wazi Jumanne hadi Jumapili, saa mbili asubuhi.") == "sw"


def test_markdown_is_said_as_whatsapp_shows_text() -> None:
    from tulia.rag.answer import whatsapp_text

    markdown = (
        "# Delivery\nWe deliver **every day**, see [our zones](https://example.com/z).\n"
        "| Zone | Fee |\n|---|---|\n| Kasarani | KES 100 |"
    )
    assert whatsapp_text(markdown) == (
        "*Delivery*\nWe deliver *every day*, see our zones (https://example.com/z).\nZone: Fee\n\nKasarani: KES 100"
    )


def test_a_shop_that_books_states_its_deposit_and_its_rule_for_changes_in_her_language() -> None:
    salon = load_pack(PACKS / "demo-salon").tenant
    fact = answer_from_facts(salon, "do I need to pay a deposit to book?", "en")
    assert fact is not None
    assert fact.text == (
        "To book, you pay a deposit of 30% of the price; the rest is paid at the appointment. You can change or "
        "cancel on WhatsApp up to 24 hours before; then the deposit is refunded, later it is kept."
    )
    swahili = answer_from_facts(salon, "nikighairi booking nitarudishiwa pesa?", "sw")
    assert swahili is not None
    assert "hadi saa 24 kabla; hapo amana inarudishwa, baada ya hapo haitarudishwa" in swahili.text
    assert "booking" not in {f.kind for f in shop_facts(load_pack(PACKS / "demo-shop").tenant, "en")}


def test_a_message_that_says_more_than_its_question_is_answered_for_its_question(shop: Tenant) -> None:
    # "niko town kesho" (I'm in town tomorrow) names a zone and a day; the question is where the shop is
    fact = answer_from_facts(shop, "duka lenu liko wapi hasa? niko town kesho", "sw")
    assert fact is not None
    assert fact.kind == "location"
