"""What the fourth development conversations (eval/goals/dev4.yaml, on three shops a helper wrote from pack files: a
furniture and mattress showroom, a driving school that books lessons with instructors and sells learner gear, a plant
nursery that books garden visits) found, each as a test of what the customer sees: a yes said with a few words more
at the prompt's confirmation sends the prompt; a description after a comma is no thing of its own; where she
collects is the shop, not a lesson it books; a length said picks the range option that holds it; a minibus stage in
her address is no count."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.nlu.fastpath import fast_path
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.mark.parametrize("said", ["yes that one", "eeh hizo", "ndiyo ni sawa hiyo", "yes correct"])
def test_a_yes_with_a_few_words_more_is_yes(said: str) -> None:
    hit = fast_path(said, awaiting_answer=True)
    assert hit is not None
    assert hit.kind == "yes"


@pytest.mark.parametrize(
    "said", ["yes the other number", "yes but make it 3", "ndio lakini nataka tatu", "yes i want a sofa too"]
)
def test_a_yes_that_asks_for_something_else_is_not_a_plain_yes(said: str) -> None:
    hit = fast_path(said, awaiting_answer=True)
    assert (hit.kind if hit is not None else None) != "yes"


def test_a_yes_with_words_more_at_the_prompts_confirmation_sends_the_prompt(furniture: Chat) -> None:
    furniture.send("nataka vitafoam orthopaedic mattress 5 by 6, 8 inch")
    furniture.send("1")
    furniture.send("niletee kasarani")
    assert "Tafadhali thibitisha: nitume ombi la M-Pesa la KES 18,300" in furniture.send("mpesa")
    sent = furniture.send("eeh hizo")
    assert "Nimetuma ombi la M-Pesa la KES 18,300" in sent


def test_a_description_after_a_comma_is_no_thing_of_its_own(furniture: Chat) -> None:
    # "wooden" also names a coffee table and a bed: here it says what the dining table is made of
    reply = furniture.send("good evening. looking for a 6 seater dining table, wooden, we are hosting. what do u have?")
    assert furniture.basket() == {"Mninga 6-Seater Dining Set": (1, {})}
    assert "Which finish would you like?" in reply
    assert "Coffee Table" not in reply


def test_where_she_collects_is_the_shop_not_a_lesson_it_books(driving: Chat) -> None:
    driving.send("do you have the highway code book in english?")
    driving.send("Kenya Highway Code Handbook", reply_id="item:UD-BK-01")
    driving.send("1")
    reply = driving.send("I'll collect at the school")
    assert "Pickup at the shop: free" in reply
    assert "How would you like to pay KES 450?" in reply
    assert driving.state["booking"] is None


@pytest.fixture
def nursery(seeded: Services) -> Chat:
    """A plant nursery on Kiambu Road that sells seedlings, pots and soil and books gardeners to her home."""
    return chat_at_pack(seeded, EVAL_PACKS / "bustani-nursery", "+254711000662")


def test_a_length_said_picks_the_range_that_holds_it(nursery: Chat) -> None:
    nursery.send("nataka hedge trimming na ochieng jumamosi saa mbili asubuhi")
    assert nursery.state["pending"] == "booking_variant"
    reply = nursery.send("ni kama mita arobaini")
    assert nursery.state["booking"].variant_selection == {"length": "20 to 50m"}
    assert "hatufiki" not in reply


def test_a_minibus_stage_in_her_address_is_no_count(nursery: Chat) -> None:
    # "matatu" is also "three" (of a ma- noun): said in the landmark of her address, it is the minibus
    nursery.send("nataka miche ya sukuma full tray moja")
    reply = nursery.send("githurai 45, karibu na stage ya matatu")
    assert nursery.basket() == {"Sukuma Wiki (Kale) Seedlings": (1, {"tray": "Full Tray"})}
    assert "Thika Road" in reply


def test_a_whole_tray_is_the_full_tray() -> None:
    from tulia.nlu.frame_extract import named_option

    assert named_option("trei nzima", ["Half Tray", "Full Tray"]) == "Full Tray"
    assert named_option("nusu trei", ["Half Tray", "Full Tray"]) == "Half Tray"


def test_one_thing_described_over_several_parts_is_one_line(nursery: Chat) -> None:
    # "pots za maua" are flower pots (the thing said "of" another is that one's), described over four parts
    nursery.send("niaje, nataka pots za maua tatu, za plastic, medium, rangi ya terracotta, na udongo ya kupanda")
    if nursery.state["pending"] == "item_selection":  # asked which pot, when "pots za maua" fits several
        nursery.send("Plastic Flower Pot", reply_id="item:BN-PT-01")
    assert nursery.basket() == {
        "Plastic Flower Pot": (3, {"size": "Medium", "colour": "Terracotta"}),
        "Potting Soil Mix": (1, {}),
    }


def test_an_option_of_another_line_said_to_a_question_is_told_not_repeated(nursery: Chat) -> None:
    nursery.send("nataka bougainvillea tatu na plastic pot medium ya terracotta")
    assert nursery.state["pending"] == "variant"
    reply = nursery.send("Terracotta")  # the pot's colour, not one of the bougainvillea's
    assert 'Samahani, Bougainvillea haipatikani kwa "terracotta"' in reply
    assert "colour gani?" in reply  # the question again


def test_a_count_said_apart_from_the_thing_it_counts_sets_its_line(nursery: Chat) -> None:
    nursery.send("sasa, nataka bougainvillea za purple tano")
    nursery.send("thindigua")
    nursery.send("aki fanya nane, fence ni ndefu kuliko nilidhani")
    assert nursery.basket() == {"Bougainvillea": (8, {"colour": "Purple"})}


def test_the_shops_own_word_for_a_thing_names_none_of_its_options(nursery: Chat) -> None:
    # the shop calls its rose "waridi", which is also the colour pink: "waridi nyekundu" are red roses
    nursery.send("naomba waridi nne nyekundu, ni za kupanda kwa balcony")
    assert nursery.basket() == {"Rose Bush (potted)": (4, {"colour": "Red"})}


def test_the_shops_own_word_for_the_one_thing_wished_names_none_of_its_options(nursery: Chat) -> None:
    nursery.send("naomba waridi nyekundu")
    assert nursery.basket() == {"Rose Bush (potted)": (None, {"colour": "Red"})}


def test_a_count_said_with_her_reason_counts_the_one_line_of_her_basket(furniture: Chat) -> None:
    # "another room" names the shop's Living Room category; here it is why she wants three beds, not a thing to add
    furniture.send("nataka metal bed frame 4 kwa 6 mbili, rangi nyeusi")
    furniture.send("tutakuja kuchukua")
    furniture.send("samahani, fanya vitatu, nimekumbuka kuna chumba kingine")
    assert furniture.basket() == {"Metal Bed Frame": (3, {"size": "4x6", "colour": "Black"})}


def test_things_she_needs_with_a_delivery_question_start_her_order_there(driving: Chat) -> None:
    reply = driving.send("i need a fire extinguisher and first aid kit. do you deliver to rongai?")
    assert driving.basket() == {"Car Fire Extinguisher 1kg": (1, {}), "Car First Aid Kit": (1, {})}
    assert "Delivery (Karen & Rongai, same day): KES 400" in reply
