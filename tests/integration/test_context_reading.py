"""What is on the screen and what the message says together read it (issue 53, part 3): a price wish said after a
shortlist picks from the shortlist, an option typed answers its question, a place keeps the shortlist, and at a shop
that books and sells goods a person or a day and a time said with a service book that service."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


def test_iko_ya_bei_poa_after_a_shortlist_is_its_cheapest_row(chat: Chat) -> None:
    shortlist = chat.send("nataka spika ya jbl")
    assert "JBL Go 3 Portable Speaker - KES 5,200" in shortlist
    reply = chat.send("iko ya bei poa?")  # Sheng: "is there a cheap one?"
    assert reply.startswith("JBL Go 3 Portable Speaker - KES 5,200")
    assert [line.item_id for line in chat.state["frame"].lines] == ["SP-001"]


def test_typing_an_option_with_its_dimension_answers_the_open_question(chat: Chat) -> None:
    salon = Chat(chat.conversations, tenant_id="demo-salon", phone="+254711000610")
    asked = salon.send("nataka knotless braids")
    assert "Shoulder" in asked
    assert "Mid-back" in asked
    salon.send("shoulder length")  # the option "Shoulder" of the length the salon asked, not a search
    assert "catalog_search" not in salon.tools()
    assert salon.state["booking"].variant_selection == {"length": "Shoulder"}


def test_a_place_said_after_a_shortlist_keeps_the_shortlist_and_the_place(chat: Chat) -> None:
    chat.send("nataka spika ya jbl")
    reply = chat.send("deliver to Kasarani")
    assert "JBL Go 3 Portable Speaker - KES 5,200" in reply  # the shortlist again, not "what are you looking for?"
    assert "Chargers & Cables" not in reply
    assert chat.state["frame"].fulfilment.zone == "Thika Road"  # Kasarani is in the Thika Road zone
    chat.send("2")
    assert [line.item_id for line in chat.state["frame"].lines] == ["SP-001"]
    assert chat.state["frame"].fulfilment.zone == "Thika Road"


@pytest.fixture
def chemist(seeded: Services) -> Chat:
    """A chemist that sells medicines and also books health checks with its two pharmacists."""
    return chat_at_pack(seeded, EVAL_PACKS / "chemist", "+254711000620")  # afya-plus


def test_a_service_a_person_a_day_and_a_time_in_one_message_book_that_time_with_that_person(chemist: Chat) -> None:
    # "I want a sugar test with Njeri on Saturday at three": the shop also sells a glucometer and test kits
    reply = chemist.send("nataka kupima sukari na Njeri jumamosi saa tisa")
    booking = chemist.state["booking"]
    assert booking.item_id == "AP-SVC-02"  # the Blood Sugar Test, not a shortlist of goods
    assert booking.chosen is not None
    assert booking.chosen.staff_id == "njeri"
    assert booking.chosen.start.startswith("2026-11-28T15:00")  # the Saturday after the test clock's Monday
    assert "Blood Sugar Test" in reply
    assert "Glucometer" not in reply


def test_a_day_and_a_time_with_a_service_word_book_it_in_english(chemist: Chat) -> None:
    reply = chemist.send("blood sugar test tomorrow at 10am")
    assert chemist.state["booking"].chosen.start.startswith("2026-11-24T10:00")
    assert "Blood Sugar Test" in reply


def test_goods_named_with_a_delivery_day_and_time_are_goods_not_an_appointment(chemist: Chat) -> None:
    chemist.send("I need a glucometer kit delivered tomorrow at 2pm")
    assert chemist.state.get("booking") is None
    assert [line.item_id for line in chemist.state["frame"].lines] == ["AP-DEV-03"]


def test_thanks_after_an_answer_is_thanks_not_the_menu(chat: Chat) -> None:
    chat.send("what time do you close today?")
    reply = chat.send("ok thank you")
    assert reply == "You're welcome! I'm here whenever you need anything else."
    assert chat.state["question"] != "menu"
    reply = chat.send("poa, asante boss")  # thanked again: another way of saying "you're welcome", in Swahili
    assert "Niko hapa" in reply
    assert "Kununua" not in reply  # no menu
