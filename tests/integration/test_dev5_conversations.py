"""What the fifth development conversations (eval/goals/dev5.yaml, on three shops a helper wrote from pack files: a
paint shop that sells by brand, colour and tin size, a garage that books mechanics and sells parts, a tailor that
books fittings and sells clothes) found, each as a test of what the customer sees: a message that opens with "and"
adds to the basket; a tin's size said as "lita 20" is no count of 20; "2 lita" of a paint sold in 1 L tins finds it;
"nitachukua mbili" is two taken, not a pickup; "inchi moja" is the 1 inch option."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tulia.nlu.basket_words import count_of
from tulia.nlu.frame_extract import extract_mode, named_option
from tulia.packs.loader import load_pack
from tulia.search.catalog_index import CatalogIndex

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


def test_a_message_that_opens_with_and_adds_to_the_basket(paints: Chat) -> None:
    paints.send("nataka crown silk vinyl emulsion lita 4 magnolia mbili na roller extension pole moja")
    assert paints.state["pending"] == "fulfilment"
    before = paints.basket()
    assert set(before) == {"Crown Silk Vinyl Emulsion", "Roller Extension Pole 2m"}
    paints.send("na sandpaper pakiti moja")
    after = paints.basket()
    assert set(after) >= set(before)  # nothing she had is lost
    assert "Sandpaper (pack of 10)" in after


def test_a_tins_size_said_after_its_measure_is_no_count() -> None:
    assert count_of("ile basco duracoat ya lita 20 iko") is None
    assert count_of("godoro yangu ni inchi 10 itatosha kwa hii kitanda") is None  # a mattress's depth, in inches
    assert count_of("breakfast 2 chapati") == 2  # a number before words still counts


def test_litres_said_of_a_paint_sold_in_litre_tins_find_it(paint_index: CatalogIndex) -> None:
    found, unknown = paint_index.full_matches("crown gloss nyeusi 2 lita")
    assert found == ["RP-GL-01"]  # the Crown gloss in 500 ml, 1 L and 4 L tins: no item is 2 L itself
    assert unknown == []


@pytest.mark.parametrize("said", ["nitachukua mbili pamoja na rola moja", "i'll take 2"])
def test_taking_a_count_is_no_pickup(said: str) -> None:
    assert extract_mode(said)[0] is None


@pytest.mark.parametrize("said", ["nitachukua dukani", "nitakuja kuchukua kesho", "nitachukua moja dukani"])
def test_collecting_is_still_a_pickup(said: str) -> None:
    assert extract_mode(said)[0] == "pickup"


@pytest.mark.parametrize(("said", "option"), [("ya inchi moja", "1 inch"), ("ile pana ya inchi mbili", "2 inch")])
def test_inches_in_swahili_name_the_width(said: str, option: str) -> None:
    assert named_option(said, ["1 inch", "2 inch"]) == option


def test_her_reason_before_her_list_leaves_the_things_she_names(paints: Chat) -> None:
    # "my iron door has rusted badly": why she buys, in the same part as the first thing she names
    reply = paints.send(
        "habari, mlango wangu wa chuma umeshika kutu sana. nataka red oxide lita moja na brashi moja ya 2 inch"
    )
    assert paints.basket() == {
        "Red Oxide Metal Primer": (1, {"size": "1L"}),
        "Paint Brush": (1, {"width": "2 inch"}),
    }
    assert "ipi?" not in reply  # nothing asked about "which of these"


def test_a_service_that_has_the_kind_said_in_its_name_is_found_by_it() -> None:
    # "oil" is the engine oils' kind; the garage's "Mobile Oil Service at Home" is an oil service all the same
    pack = load_pack(EVAL_PACKS / "fundi-motors")
    index = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    hits = index.search("mnaweza tuma fundi nyumbani abadilishe oil ya gari", limit=3).hits
    assert hits[0].item_id == "FM-HV-01"


def test_one_of_the_shops_people_asked_for_at_a_time_is_an_appointment(driving: Chat) -> None:
    # the reader alone is unsure what "anaweza kunifundisha" asks; a person of the shop and a time say it is a booking
    reply = driving.send("je, kiprono anaweza kunifundisha pikipiki jumatano saa nne asubuhi?")
    assert "Ili nikusaidie ipasavyo" not in reply, reply  # never "what would you like to do?"
    booking = driving.state["booking"]
    assert booking is not None, reply
    assert booking.item_id == "UD-MC-01"
    assert booking.staff_id == "kiprono"
