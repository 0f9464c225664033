"""Her basket is kept at the checkout (the eighth development conversations: a basket searched again and replaced at
the delivery and payment questions): a thing named there joins the basket, said "also" or not; her address, with a
street, an estate, a building and a house number, is no thing to find and its house number no count; a question
about a thing of her basket that the shop's documents answer is answered, and the step asked again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import GROCER, chat_at_pack
from tulia.graph.conversation import Conversations
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def grocer(conversations: Conversations) -> Chat:
    return Chat(conversations, tenant_id=GROCER, phone="+254711000931")


@pytest.fixture
def pests(seeded: Services) -> Chat:
    """A customer of a pest-control company that books technicians and sells products."""
    return chat_at_pack(seeded, EVAL_PACKS / "dudu-safi-pest", "+254711000932")


def counts(chat: Chat) -> dict[str, int | None]:
    return {name: line[0] for name, line in chat.basket().items()}


def test_a_thing_named_at_the_payment_question_joins_the_basket_and_the_order(grocer: Chat) -> None:
    grocer.send("nataka sukari Mumias 2")
    asked = grocer.send("Kasarani")
    assert "KES 760" in asked  # 2 x 330 and the delivery of 100: the order, and its payment asked

    reply = grocer.send("I want 1 Festive bread")

    assert counts(grocer) == {"Mumias Sugar 2kg": 2, "Festive White Bread 400g": 1}
    assert "KES 825" in reply  # the order again, with the bread: 660 + 65 + 100


def test_a_house_number_in_her_address_is_no_count_and_no_thing(grocer: Chat) -> None:
    grocer.send("nataka mkate Festive 1")

    reply = grocer.send("Kasarani, Kangundo road, house 12")

    assert counts(grocer) == {"Festive White Bread 400g": 1}
    assert "(Kasarani" in reply  # the order built with her place's delivery, never a search
    assert "KES 165" in reply  # 65 + delivery 100


def test_a_question_about_a_thing_of_her_basket_is_answered_and_the_step_asked_again(pests: Chat) -> None:
    pests.send("I'll take the ultrasonic repeller, the pack of 3, and two of the metal snap traps")
    pests.send("Westlands, Brookside drive, Acacia court flat 9")
    before = counts(pests)
    assert before == {"Ultrasonic Pest Repeller": 1, "Metal Snap Rat Trap": 2}

    reply = pests.send("Before I pay, is the ultrasonic one safe with a baby and a cat around?")

    assert "safe around babies, dogs and cats" in reply  # the shop's own words, from its documents
    assert "How would you like to pay KES 5,300" in reply  # the payment asked again, the order as it was
    assert counts(pests) == before
    assert "found" not in reply  # no search


@pytest.mark.parametrize(
    "said",
    [
        "actually make the sprayer the battery one, and keep the Termidor",
        "badilisha sprayer iwe ya battery, Termidor iko sawa",
    ],
)
def test_a_line_changed_to_the_option_it_has_is_kept_and_said_back(pests: Chat, said: str) -> None:
    pests.send("I need a 16 litre knapsack sprayer, battery powered, and Termidor 100ml")
    pests.send("Eastleigh")
    before = counts(pests)
    assert before == {"Knapsack Sprayer 16L": 1, "Termidor SC Termiticide": 1}

    reply = pests.send(said)

    assert counts(pests) == before  # the line kept, never taken out for its own option
    assert pests.basket()["Knapsack Sprayer 16L"][1] == {"type": "Battery Powered"}
    assert "Knapsack Sprayer 16L (Battery Powered)" in reply


def test_a_question_about_a_line_that_also_says_her_place_keeps_the_place(pests: Chat) -> None:
    pests.send("I'll take the ultrasonic repeller, the pack of 3, and two of the metal snap traps")
    pests.send("delivery")

    reply = pests.send("is the ultrasonic one safe with a baby and a cat around? we are in Westlands")

    assert "safe around babies, dogs and cats" in reply
    assert "Delivery (Westlands & Kilimani" in reply  # her place kept: the order built, not the place asked again
    assert counts(pests) == {"Ultrasonic Pest Repeller": 1, "Metal Snap Rat Trap": 2}


def test_a_question_about_swapping_a_line_takes_nothing_out(grocer: Chat) -> None:
    grocer.send("nataka sukari Mumias 2 na mkate Festive 1")
    grocer.send("Kasarani")

    grocer.send("if the sugar doesn't fit my tin, can I change it?")  # the tagger reads the sugar taken out

    assert counts(grocer) == {"Mumias Sugar 2kg": 2, "Festive White Bread 400g": 1}


def test_a_removal_asked_with_a_question_mark_takes_the_line_out(grocer: Chat) -> None:
    grocer.send("nataka sukari Mumias 2 na mkate Festive 1")
    grocer.send("Kasarani")

    grocer.send("bila mkate?")

    assert counts(grocer) == {"Mumias Sugar 2kg": 2}
