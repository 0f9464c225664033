"""No purchase goes to a person by a word list (issue 53). Words that ask for a person ("human", "agent", "call me",
"the owner") and words of a sensitive topic ("medicine", "dawa ya") are evidence the reader weighs, never a verdict
over it: a message the reader is sure buys or asks about an item is the sale's, whatever words it holds; the same
words in a message that asks for a person, or asks for medical advice, still reach a person."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from bench.word_lists import FRAMES, ITEMS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.chat import Chat, conversations_for
from tests.conftest import seed_packs_beside_the_demo_packs
from tulia.nlu.rules import RulesEngine
from tulia.services import Services

PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"
BEAUTY, CHEMIST, AGROVET = "urembo-cosmetics", "afya-plus", "shamba-bora"
_phones = itertools.count(711_300_000)


@pytest.fixture
def shops(seeded: Services) -> Services:
    return seed_packs_beside_the_demo_packs(seeded, *(PACKS / name for name in ("cosmetics", "chemist", "agrovet")))


def customer(services: Services, tenant_id: str) -> Chat:
    return Chat(conversations_for(services, RulesEngine()), tenant_id=tenant_id, phone=f"+254{next(_phones)}")


def tickets(services: Services, tenant_id: str) -> list[str]:
    return [t.reason for t in services.handoffs.list_by_status(tenant_id, "open").items]


def test_i_need_a_human_hair_wig_shows_the_beauty_shops_wigs_and_opens_no_ticket(shops: Services) -> None:
    reply = customer(shops, BEAUTY).send("I need a human hair wig")
    assert "Wig" in reply
    assert tickets(shops, BEAUTY) == []


def test_call_me_when_my_order_arrives_asks_about_the_order_not_for_a_person(shops: Services) -> None:
    chat = customer(shops, "demo-shop")
    chat.send("call me when my order arrives")
    assert chat.state["intent"] == "order_status"
    assert tickets(shops, "demo-shop") == []


def test_do_you_have_medicine_for_a_cough_shows_the_chemists_cough_medicines(shops: Services) -> None:
    reply = customer(shops, CHEMIST).send("do you have medicine for a cough")
    assert "Cough" in reply  # the chemist's Cough & Cold shelf: Benylin Cough Syrup, Strepsils
    assert tickets(shops, CHEMIST) == []


def test_nataka_dawa_ya_wadudu_shows_the_agrovets_insecticide(shops: Services) -> None:
    reply = customer(shops, AGROVET).send("nataka dawa ya wadudu")
    assert "Duduthrin Insecticide" in reply
    assert tickets(shops, AGROVET) == []


@pytest.mark.parametrize(
    "words",
    [
        "I want to talk to a human",
        "nataka kuongea na mtu",
        "call me please",
        "the owner",
        "my mpesa was deducted, call me",
    ],
)
def test_asking_for_a_person_in_those_words_still_opens_a_ticket(shops: Services, words: str) -> None:
    customer(shops, "demo-shop").send(words)
    assert tickets(shops, "demo-shop") == ["human_requested"]


@pytest.mark.parametrize(
    "words", ["do you have medicine for a cough?", "medicine for a cough iko?", "cough medicine for my child iko?"]
)
def test_a_purchase_read_between_buying_and_asking_about_it_goes_to_no_person(shops: Services, words: str) -> None:
    # read as buying a little under the threshold and as asking about the thing for the rest: a purchase either way
    chat = customer(shops, CHEMIST)
    chat.send(words)
    assert tickets(shops, CHEMIST) == []
    assert "handoff" not in chat.nodes()


def test_asking_whether_a_medicine_is_safe_in_pregnancy_still_goes_to_a_person(shops: Services) -> None:
    customer(shops, CHEMIST).send("is this medicine safe when pregnant")
    assert tickets(shops, CHEMIST) == ["sensitive_topic"]


# the purchases bench/word_lists.py counts at four shops: every item holding a word of the lists, in every frame
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(word=st.sampled_from(sorted(ITEMS)), data=st.data())
def test_no_purchase_holding_a_word_of_the_lists_goes_to_a_person(
    shops: Services, word: str, data: st.DataObject
) -> None:
    item = data.draw(st.sampled_from(ITEMS[word]), label="item")
    message = data.draw(st.sampled_from(FRAMES), label="frame").format(item)
    tenant = data.draw(st.sampled_from([BEAUTY, CHEMIST, AGROVET, "demo-shop"]), label="shop")
    chat = customer(shops, tenant)  # a new customer each example: the examples share the shops
    chat.send(message)
    assert shops.customers.get(tenant, chat.state["customer_id"]).handoff_ticket_id is None
    assert "handoff" not in chat.nodes()
