"""What is on the screen reads the next message (issue 53, part 3): a price wish said after a shortlist picks from the
shortlist."""

from __future__ import annotations

from tests.chat import Chat


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
