"""What the tenth development conversations found (eval/goals/dev10.yaml: a timber and glass yard that sells timber by
the running foot and glass and mirrors by the square foot, a physiotherapy clinic, an irrigation supplier that books
technicians), each as a test of what the customer sees: pieces of a length are that many feet ("vipande 8 vya futi
12" of timber by the foot is 96 feet), panes of a size are that many square feet ("3 panes of 3ft by 2ft" is 18), the
whole she counted is the quantity ("that's 24 square feet"), at the question of how many as in her first message; "ya
kawaida" is the standard grade and "not kiln dried", of two grades, the other one; "nitakam" (Sheng: I will come) is
pickup; naming the service instead of a row of the list keeps the person, day, time and place she asked for; "3/4"
typed as an option is no date; a thing named by its name is chosen over one only tagged so; "sorry, please cancel."
before her reason cancels; a thing she says stays as it is is no new line; a question of returns before anything is
paid is answered from the documents, a refund asked after paying goes to a person."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def yard(seeded: Services) -> Chat:
    """A customer of a timber and glass yard: cypress by the foot, glass and mirrors cut to size by the square foot."""
    return chat_at_pack(seeded, EVAL_PACKS / "mbao-timber", "+254711000961")


def test_pieces_of_a_length_of_timber_sold_by_the_foot_are_that_many_feet(yard: Chat) -> None:
    reply = yard.send("nataka cypress ya 2 by 3 vipande 8 vya futi 12, kiln dried")

    assert yard.basket() == {"Cypress Timber (per foot)": (96, {"size": "2x3", "grade": "Kiln Dried"})}
    assert "96 x Cypress Timber (per foot)" in reply


def test_the_feet_she_asks_for_are_the_quantity_whatever_the_words(yard: Chat) -> None:
    yard.send("I'd like 250 feet of pine timber, 2x2, planed")

    assert yard.basket() == {"Pine Timber (per foot)": (250, {"size": "2x2", "finish": "Planed"})}


def test_panes_of_a_size_of_glass_sold_by_the_square_foot_are_that_many_square_feet(yard: Chat) -> None:
    yard.send("I want clear glass 4mm for my kitchen windows, 3 panes of 3ft by 2ft")

    assert yard.basket() == {"Clear Glass Cut to Size (per sq ft)": (18, {"thickness": "4mm"})}


def test_one_piece_of_a_size_is_its_area(yard: Chat) -> None:
    yard.send("mirror ya 5ft by 2ft, bevelled edges, ya salon")

    assert yard.basket() == {"Mirror Cut to Size (per sq ft)": (10, {"edge": "Bevelled"})}


@pytest.mark.parametrize(
    "said",
    ["three panes of 4 by 2, so 24 square feet", "24 sq ft", "futi mraba 24"],
)
def test_the_square_feet_she_counts_at_the_question_of_how_many_are_the_quantity(yard: Chat, said: str) -> None:
    yard.send("tinted glass please, the green one")
    assert yard.state["pending"] == "quantity"

    yard.send(said)

    assert yard.basket() == {"Tinted Glass Cut to Size (per sq ft)": (24, {"colour": "Green"})}


def test_the_standard_grade_said_in_swahili_is_chosen(yard: Chat) -> None:
    yard.send("nipe cypress 2 by 6 futi 50, ile ya kawaida")

    assert yard.basket() == {"Cypress Timber (per foot)": (50, {"size": "2x6", "grade": "Standard"})}


def test_not_the_one_of_two_grades_is_the_other(yard: Chat) -> None:
    yard.send("cypress 2 by 4 futi 60")
    assert yard.state["pending"] == "variant"

    yard.send("sio kiln dried")

    assert yard.basket() == {"Cypress Timber (per foot)": (60, {"size": "2x4", "grade": "Standard"})}


def test_coming_to_the_yard_in_sheng_is_pickup(yard: Chat) -> None:
    yard.send("nataka hardboard mbili")
    assert yard.state["pending"] == "fulfilment"

    reply = yard.send("nitakam na pickup yangu jioni")

    assert yard.state["frame"].fulfilment.mode == "pickup"
    assert yard.state["pending"] == "payment_method"
    assert "KES 1,300" in reply


def test_naming_the_service_instead_of_a_row_keeps_the_person_day_time_and_place_she_asked_for(
    seeded: Services,
) -> None:
    farm = chat_at_pack(seeded, EVAL_PACKS / "shamba-drip", "+254711000962")
    farm.send("shamba langu liko Juja, maji ya tanki hayafiki kwa mimea. nataka Akinyi aje jumatano saa nne asubuhi")
    assert farm.state["pending"] == "item_selection"  # a list of services, not the one she wants

    farm.send("Tank and Pump Hook-up")  # typed, not tapped
    reply = farm.send("Water Tank")

    booking = farm.state["booking"]
    assert (booking.name, booking.variant_selection) == ("Tank and Pump Hook-up", {"source": "Water Tank"})
    assert booking.zone == "Ruiru & Juja"
    assert "(10:00) na Akinyi" in reply
    assert "Jumatano" in reply


def test_a_fraction_typed_as_the_option_asked_at_a_shop_that_books_is_the_option_not_a_date(seeded: Services) -> None:
    farm = chat_at_pack(seeded, EVAL_PACKS / "shamba-drip", "+254711000963")
    farm.send("nataka impact sprinkler mbili")
    assert farm.state["pending"] == "variant"

    farm.send("3/4")  # also read as the 3rd of April

    assert farm.basket() == {"Impact Sprinkler": (2, {"size": "3/4 Inch"})}


def test_a_thing_her_words_name_by_its_name_is_chosen_over_one_they_only_tag(yard: Chat) -> None:
    reply = yard.send("nataka hardboard tatu")  # "hardboard" is also a tag of the panel pins that fix it

    assert yard.basket() == {"Hardboard 3mm 8x4": (3, {})}
    assert "3 x Hardboard 3mm 8x4" in reply


def test_sorry_please_cancel_before_her_reason_at_the_payment_question_cancels_the_order(
    yard: Chat, seeded: Services
) -> None:
    yard.send("nataka blockboard mbili")
    yard.send("I'll collect from the yard")
    order = yard.state["frame"].order
    assert order is not None
    assert yard.state["pending"] == "payment_method"

    yard.send("I'm really sorry, please cancel. My landlord says we cannot start the shelves until he approves")

    assert seeded.orders.get(yard.tenant_id, order.order_id).status == "cancelled"


def test_a_thing_she_says_stays_as_it_is_is_no_new_line(seeded: Services) -> None:
    clinic = chat_at_pack(seeded, EVAL_PACKS / "afya-physio", "+254711000964")
    clinic.send("I'd like 2 knee sleeves in M and one roll of blue kinesiology tape, pickup please")
    assert clinic.state["pending"] == "payment_method"

    clinic.send("Sorry, make the sleeves L. The tape stays blue")

    assert clinic.basket() == {
        "Elastic Knee Support Sleeve": (2, {"size": "L"}),
        "Kinesiology Tape Roll": (1, {"colour": "Blue"}),
    }


def test_a_question_of_returns_before_anything_is_paid_is_answered_from_the_documents_not_handed_over(
    seeded: Services,
) -> None:
    clinic = chat_at_pack(seeded, EVAL_PACKS / "afya-physio", "+254711000965")
    clinic.send("I want a TENS machine, I will pick it up")
    assert clinic.state["pending"] == "payment_method"

    reply = clinic.send("If the TENS doesn't work for me, can I take it back and get a refund?")

    assert "TENS machine na heating pad" in reply  # the shop's own words on returns (its document is in Swahili)
    assert "HND-" not in reply
    assert not clinic.state["in_handoff"]
    assert clinic.state["pending"] == "payment_method"


def test_a_part_that_only_says_the_size_of_the_thing_before_is_its_size(yard: Chat) -> None:
    yard.send("clear glass please: 5mm, 3ft by 2ft. And one white silicone")

    assert yard.basket() == {
        "Clear Glass Cut to Size (per sq ft)": (6, {"thickness": "5mm"}),
        "Silicone Sealant 300ml": (1, {"colour": "White"}),
    }


def test_a_question_led_in_and_followed_by_her_plans_at_the_payment_question_is_answered(yard: Chat) -> None:
    yard.send("nataka blockboard moja")
    yard.send("I'll collect from the yard")
    assert yard.state["pending"] == "payment_method"

    reply = yard.send("One thing first: what time do you close on Saturday? I'll come after my shift ends")

    assert "7:30 am to 6:00 pm" in reply  # the shop's hours, from its own settings
    assert yard.state["pending"] == "payment_method"


def test_a_count_after_a_number_of_her_story_is_the_count(seeded: Services) -> None:
    books = chat_at_pack(seeded, EVAL_PACKS / "soma-bookshop", "+254711000967")
    books.send("nataka top mark ya maths moja, nitachukua dukani")
    assert books.state["pending"] == "payment_method"

    # two cousins of hers want it too; make it four
    reply = books.send("subiri kidogo, binamu zangu wawili wanataka pia. fanya nne tafadhali")

    assert books.basket() == {"Top Mark KCSE Revision Book": (4, {"subject": "Mathematics"})}
    assert "4 x Top Mark KCSE Revision Book" in reply
