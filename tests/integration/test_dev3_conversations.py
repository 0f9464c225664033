"""What the third development conversations (eval/goals/dev3.yaml, on three shops a helper wrote from pack files: a
bicycle shop that books repairs with mechanics, a curtains and decor shop that sells by the metre and books home
measuring visits, a spa that books therapists and sells oils and scrubs) found, each as a test of what the customer
sees: a place said with the words of her address keeps her basket; an area's name inside a thing's name ("scrub ya
kahawa") is no delivery; pickup said with the shop's area is pickup; a model's number of the name is no count; "iko poa"
is yes; a cancellation given with a reason at a booking's summary lets the time go."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.nlu.fastpath import fast_path
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def bikes(seeded: Services) -> Chat:
    """A bicycle shop on Ngong Road that sells bikes and parts and books repairs with its mechanics."""
    return chat_at_pack(seeded, EVAL_PACKS / "baiskeli-hub", "+254711000650")


@pytest.fixture
def curtains(seeded: Services) -> Chat:
    """A curtains and decor shop in Ngara that sells fabric by the metre and books home measuring visits."""
    return chat_at_pack(seeded, EVAL_PACKS / "pazia-decor", "+254711000651")


@pytest.fixture
def spa(seeded: Services) -> Chat:
    """A spa in Westlands that books therapists and sells oils and scrubs."""
    return chat_at_pack(seeded, EVAL_PACKS / "tulivu-spa", "+254711000652")


def test_a_place_said_with_the_words_of_her_address_keeps_her_basket(bikes: Chat) -> None:
    bikes.send("nataka kids helmet pink")
    reply = bikes.send("south c, off mugoya road")  # "road" is no road bike here: it is where she lives
    assert "Here's what I found" not in reply
    assert bikes.basket() == {"Kids Helmet": (None, {"colour": "Pink"})}
    assert bikes.state["frame"].fulfilment.zone == "Langata & Karen"


def test_an_areas_name_inside_a_things_name_is_no_delivery(spa: Chat) -> None:
    spa.send("mna scrub ya kahawa? nataka tatu")  # coffee scrub; Kahawa is also an area of a zone
    assert spa.state["frame"].fulfilment.zone is None
    spa.send("niletee kahawa west")  # said as a place to deliver to, it is one
    assert spa.state["frame"].fulfilment.zone == "Eastlands & Thika Road"


def test_pickup_said_with_the_shops_own_area_is_pickup(curtains: Chat) -> None:
    curtains.send("mna cushion covers za velvet? nataka nne za mustard")
    curtains.send("nitakuja kuchukua ngara")  # she comes to the shop in Ngara: no delivery to Ngara
    assert curtains.state["frame"].fulfilment.mode == "pickup"
    assert curtains.state["frame"].fulfilment.zone is None


def test_a_model_number_of_the_name_is_no_count_and_her_options_said_after_it_are_its_own(bikes: Chat) -> None:
    bikes.send("i want the raleigh 26 mountain bike, medium frame in blue")
    if bikes.state["pending"] == "item_selection":
        bikes.send("1")
    assert bikes.basket() == {"Raleigh Mountain Bike 26 inch (21-speed)": (None, {"frame": "M", "colour": "Blue"})}


@pytest.mark.parametrize("said", ["iko poa", "iko fiti", "ni sawa"])
def test_sheng_ways_of_saying_it_is_fine_are_yes(said: str) -> None:
    hit = fast_path(said, awaiting_answer=True)
    assert hit is not None
    assert hit.kind == "yes"


def test_a_cancellation_with_a_reason_at_a_bookings_summary_lets_the_time_go(bikes: Chat, seeded: Services) -> None:
    bikes.send("naomba kubook gear tuning na wekesa ijumaa saa nne asubuhi")
    if bikes.state["pending"] == "item_selection":
        bikes.send("Gear Tuning & Indexing", reply_id="item:BH-SV-05")
    held = bikes.state["booking"].held
    assert held is not None
    bikes.send("aki nimebadilisha mpango, cancel hiyo booking tafadhali")
    assert seeded.bookings.get(bikes.tenant_id, held.booking_ref).status == "cancelled"


def test_a_short_answer_naming_an_option_of_the_service_is_that_option_not_another_service(spa: Chat) -> None:
    spa.send("hi! id like to book a swedish massage with amina on friday at 6pm")
    if spa.state["pending"] == "item_selection":
        spa.send("Swedish Relaxation Massage", reply_id="item:TS-MS-01")
    assert spa.state["pending"] == "booking_variant"
    spa.send("90 minutes")  # not the "Deep Tissue Massage (90 min)"
    booking = spa.state["booking"]
    assert (booking.name, booking.variant_selection.get("length")) == ("Swedish Relaxation Massage", "90 min")


def test_an_option_the_item_does_not_come_in_is_said_so_and_asked_again_not_searched(bikes: Chat) -> None:
    bikes.send("nataka kids helmet")
    assert bikes.state["pending"] == "variant"
    reply = bikes.send("ile nyeusi")  # black: other things come in black (and "Black Mamba" is a bike), not this one
    assert 'Kids Helmet haipatikani kwa "nyeusi"' in reply
    assert "Black Mamba" not in reply
    assert bikes.state["pending"] == "variant"
    assert bikes.basket() == {"Kids Helmet": (None, {})}


def test_the_line_she_keeps_beside_the_one_she_takes_out_is_kept_not_added_again(curtains: Chat) -> None:
    curtains.send("hi, i'd like 2 of the ready made blackout curtains in beige, plus gold tiebacks")
    curtains.send("pangani, juja road")
    curtains.send("please remove the tiebacks, just the curtains")  # "curtains" is also in "Curtain Tiebacks"
    assert curtains.basket() == {"Ready-made Blackout Curtain Pair": (2, {"colour": "Beige"})}


def test_a_pickup_verb_with_its_object_is_pickup(spa: Chat) -> None:
    spa.send("nataka gift voucher ya elfu kumi")
    assert spa.basket() == {"Tulivu Gift Voucher": (None, {"value": "10000"})}
    spa.send("1")
    spa.send("nitaichukua reception")  # I will pick it up at reception
    assert spa.state["frame"].fulfilment.mode == "pickup"


def test_a_streets_name_in_her_address_is_no_thing(bikes: Chat) -> None:
    bikes.send("nataka kids helmet pink")
    bikes.send("1")
    reply = bikes.send("kileleshwa, othaya road near the shell")  # no "Road Bike" here
    assert "Here's what I found" not in reply
    assert bikes.state["frame"].fulfilment.zone == "Kilimani & Ngong Road"


def test_an_option_said_by_its_noun_answers_the_bookings_question(spa: Chat) -> None:
    spa.send("habari, nataka facial na nyambura jumatano saa tano asubuhi")
    if spa.state["pending"] == "item_selection":
        spa.send("Classic Facial", reply_id="item:TS-FC-01")
    reply = spa.send("ngozi yangu ni ya mafuta")  # my skin is oily: not the document about the shop's oils
    assert spa.state["booking"].variant_selection == {"skin": "Oily"}
    assert "Hati yetu" not in reply


def test_card_at_a_bookings_summary_pays_by_card_where_the_shop_sells_a_gift_card(spa: Chat) -> None:
    spa.send("hi, its our anniversary on the 12th. do you do couples massage?")
    spa.send("saturday 12th at 3pm with amina, the 90 min one")
    assert spa.state["pending"] == "booking_confirm"
    reply = spa.send("card")  # the gift voucher "in a card" is no new wish here
    assert "/checkout?OrderTrackingId=" in reply
    assert "What are you looking for" not in reply


def test_the_option_she_says_she_does_not_want_is_not_chosen(spa: Chat) -> None:
    spa.send("habari, nataka mani pedi na nyambura jumapili ijayo tarehe 6 saa sita mchana")
    if spa.state["pending"] == "item_selection":
        spa.send("Mani-Pedi Combo", reply_id="item:TS-NL-04")
    spa.send("rangi ya kawaida, sio gel")  # the ordinary one, not gel
    assert spa.state["booking"].variant_selection == {"polish": "Regular"}


def test_metres_said_at_the_count_question_of_a_fabric_sold_by_the_metre_are_its_count(curtains: Chat) -> None:
    curtains.send("nataka turkish printed curtain fabric ya maua")
    if curtains.state["pending"] == "item_selection":
        curtains.send("1")
    curtains.send("mita nane")  # eight metres
    assert curtains.basket() == {"Turkish Printed Curtain Fabric (per metre)": (8, {"pattern": "Flowers"})}


def test_a_size_said_after_the_thing_is_its_option_not_a_count_of_another(curtains: Chat) -> None:
    curtains.send("hi do you have blackout roller blinds? need 2 for my bedroom windows, 120 wide")
    curtains.send("white")
    assert curtains.basket() == {"Roller Blind (Blackout)": (2, {"width": "120cm", "colour": "White"})}
