"""What the fifth development conversations still found at the ninth session, each as a test of what the customer
sees (eval/goals/dev5.yaml; the shops: a paint shop, a garage, a tailor): a count said with its pack beside her reason
or a size ("tins tatu kwa chumba cha watoto", "2 tins of 4L", "lita 4 mara tatu") counts the thing before it; one
thing said twice in a message ("a grey paint... the Sadolin one in dove grey") is one line; of several things her
words fit, the shop's own word for one picks it ("rola") and brands she did not say are asked ("gloss nyeusi": the
Crown or the Basco); litres said of a gloss sold in litre tins fit it as well as a spray can; a count answering "how
many?" never changes a tin's size; a tapped row's title gives no option ("Men's" is no size S); an option the item
lacks, said twice, leaves the item out instead of asking for ever; a cancellation said with its reason is read in
its own sentence; a reason whose words the shop does not know is no thing to sell."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tulia.graph.journeys.sale_basket import listed_items
from tulia.nlu.basket_words import count_of, items_said
from tulia.nlu.frame_extract import named_option
from tulia.nlu.order_words import order_cancel_said
from tulia.nlu.tagger import Span
from tulia.packs.loader import load_pack
from tulia.search.catalog_index import CatalogIndex
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # her reason after the count with its pack: three tins of the paint, no "kids' room" to find
        (
            "nataka crown silk vinyl lita 4 rangi ya sky blue, tins tatu, kwa chumba cha wageni. pia set ya brashi",
            {"Crown Silk Vinyl Emulsion": (3, {"size": "4L", "colour": "Sky Blue"}), "Brush Set (5 pieces)": (1, {})},
        ),
        # the size with the count and its pack: two 4 L tins of the paint just named
        (
            "the basco duracoat in magnolia, 2 tins of 4L please, and one brush set",
            {
                "Basco Duracoat Matt Emulsion": (2, {"size": "4L", "colour": "Magnolia"}),
                "Brush Set (5 pieces)": (1, {}),
            },
        ),
    ],
)
def test_a_count_said_with_its_pack_counts_the_thing_before_it(
    paints: Chat, message: str, expected: dict[str, tuple[int, dict[str, str]]]
) -> None:
    reply = paints.send(message)
    assert paints.basket() == expected
    assert "watoto" not in reply
    assert "wageni" not in reply


def test_a_pack_word_with_a_thing_after_it_is_still_a_thing_of_its_own() -> None:
    said = items_said("sugar 2kg, a pack of nappies", lambda part: "sugar" in part or "nappies" in part)
    assert [(item.text, item.quantity) for item in said] == [("sugar 2kg", None), ("a pack of nappies", 1)]


def test_one_thing_said_as_she_needs_it_and_then_as_she_wants_it_is_one_line(paints: Chat) -> None:
    paints.send(
        "I want a washable paint for the kids bedroom. The Sadolin one in dove grey, 2 tins of 4L, and a brush set"
    )
    assert paints.basket() == {
        "Sadolin Super Matt Emulsion": (2, {"size": "4L", "colour": "Dove Grey"}),
        "Brush Set (5 pieces)": (1, {}),
    }


def test_times_said_after_a_size_is_the_count(paints: Chat) -> None:
    paints.send("nataka crown weatherguard, cream, lita 4 mara tatu")
    assert paints.basket() == {"Crown Weatherguard Exterior Paint": (3, {"size": "4L", "colour": "Cream"})}


def test_the_shops_own_word_for_one_of_several_things_picks_it(paints: Chat) -> None:
    paints.send("nataka crown silk vinyl lita 4 magnolia mbili na rola moja")
    assert "Paint Roller 9 inch with Tray" in paints.basket()  # tagged "rola"; not the "rola ndogo" mini roller
    assert "Mini Roller 4 inch" not in paints.basket()


def test_a_brand_she_did_not_say_is_asked_not_guessed(paints: Chat) -> None:
    reply = paints.send("nataka red oxide lita moja na gloss nyeusi lita mbili")
    assert paints.basket() == {"Red Oxide Metal Primer": (1, {"size": "1L"})}
    assert paints.state["pending"] == "item_selection"
    assert "Crown Full Gloss Enamel" in reply
    assert "Basco Gloss Enamel" in reply
    paints.send("Crown Full Gloss Enamel", reply_id="item:RP-GL-01")
    assert paints.basket()["Crown Full Gloss Enamel"][1]["colour"] == "Black"


def test_litres_of_a_gloss_sold_in_litre_tins_fit_it_beside_a_spray_can(paint_index: CatalogIndex) -> None:
    found, _unknown = paint_index.full_matches("gloss nyeusi 2 lita")
    assert set(found) == {"RP-GL-01", "RP-GL-02", "RP-SP-01"}  # 2 L: two 1 L tins, five 400 ml cans


def test_a_count_answering_how_many_never_changes_a_tins_size(paints: Chat) -> None:
    paints.send("nataka gloss ya crown, nyeupe, lita 4 na thinner ya lita 5. bei ngapi zote?")
    for _ in range(4):  # the options and counts still asked, answered with the first row
        if paints.state["pending"] not in ("variant", "quantity"):
            break
        paints.send("1")
    lines = paints.basket()
    assert lines["Crown Full Gloss Enamel"][1]["size"] == "4L"  # "1" was one tin, never the 1 L tin
    assert lines["Thinner"][1]["size"] == "5L"


def test_a_tapped_rows_title_gives_no_option(tailor: Chat) -> None:
    tailor.send("hi, a kitenge shirt for my husband please, long sleeves. he wears XL")
    if tailor.state["pending"] == "item_selection":
        tailor.send("Men's Kitenge Shirt (Long Sleeve)", reply_id="item:MT-RW-02")
    size = tailor.basket()["Men's Kitenge Shirt (Long Sleeve)"][1].get("size")
    assert size == "XL"  # never the S of "Men's"


def test_an_option_the_item_lacks_said_twice_leaves_it_out(paints: Chat) -> None:
    paints.send("nataka spray paint na brashi ya inch 2")
    assert paints.state["pending"] == "variant"
    first = paints.send("dove grey")  # a colour of the shop's emulsions, not of its spray
    assert "dove grey" in first.casefold()
    assert paints.state["pending"] == "variant"
    second = paints.send("dove grey")
    assert "Spray Paint Can 400ml" not in paints.basket()
    assert "Black, Silver, Gold, White, Red" in second  # what it does come in, to say if she wants one
    assert paints.basket() == {"Paint Brush": (1, {"width": "2 inch"})}
    assert paints.state["pending"] != "variant"  # the sale goes on


@pytest.mark.parametrize(
    "said",
    [
        "samahani, fundi ameniambia atakuja na rangi yake mwenyewe. cancel hiyo oda tafadhali",
        "so sorry, my landlord says he will buy everything himself. please cancel this order",
    ],
)
def test_a_cancellation_said_with_its_reason_is_read_in_its_own_sentence(said: str) -> None:
    assert order_cancel_said(said, "checkout")
    assert not order_cancel_said("fundi ameniambia atakuja na rangi yake mwenyewe", "checkout")


def test_a_cancellation_with_its_reason_at_the_checkout_drops_the_order(paints: Chat, seeded: Services) -> None:
    paints.send("nataka crown silk vinyl nyeupe lita 20 moja")
    paints.send("nitakuja kuchukua")
    assert paints.state["pending"] == "payment_method"
    ref = paints.state["frame"].order.order_id
    reply = paints.send("samahani, fundi ameniambia atakuja na rangi yake mwenyewe. cancel hiyo oda tafadhali")
    assert f"oda {ref}" in reply
    assert "imefutwa" in reply
    assert paints.state["frame"] is None
    assert seeded.orders.get(paints.tenant_id, ref).status == "cancelled"


def test_a_reason_whose_words_the_shop_does_not_know_is_no_thing_to_sell(garage: Chat) -> None:
    paints_reply = garage.send(
        "mambo, nataka wiper blades mbili za 18 inch, na air freshener ya black ice moja, gari ya uber inanuka"
    )
    basket = garage.basket()
    assert set(basket) == {"Bosch Wiper Blade", "Car Air Freshener"}
    assert "Tyre" not in paints_reply


def test_a_count_said_as_so_many_of_them_counts_the_thing(garage: Chat) -> None:
    garage.send("hi, i need all terrain tyres for my prado 265/65 R17, four of them. how much?")
    if garage.state["pending"] == "item_selection":
        garage.send("Yokohama Geolandar SUV Tyre", reply_id="item:FM-TY-02")
    assert garage.basket()["Yokohama Geolandar SUV Tyre"][0] == 4


def test_a_count_set_with_her_reason_at_the_payment_question_sets_the_line(garage: Chat) -> None:
    garage.send("nataka yokohama geolandar 265/65 R17 nne")
    garage.send("pickup")
    assert garage.state["pending"] == "payment_method"
    reply = garage.send("sorry, make it 2 tyres only, my mechanic says the other ones are still fine")
    assert garage.basket() == {"Yokohama Geolandar SUV Tyre": (2, {"size": "265/65 R17"})}
    assert "Dunlop" not in reply  # no shortlist of tyres to choose again
    assert garage.state["pending"] == "payment_method"


def test_a_swap_said_with_her_reason_at_the_payment_question_replaces_the_line(paints: Chat) -> None:
    paints.send("nataka crown full gloss nyeupe lita 4 moja na thinner ya lita 5 general purpose moja")
    paints.send("nitachukua dukani")
    assert paints.state["pending"] == "payment_method"
    paints.send("aki fundi amesema si thinna, ni tapentaini. toa thinna weka turpentine ya lita 5 badala yake")
    assert paints.basket() == {
        "Crown Full Gloss Enamel": (1, {"size": "4L", "colour": "Brilliant White"}),
        "Turpentine (White Spirit)": (1, {"size": "5L"}),
    }


def test_the_whole_name_of_a_thing_not_on_the_shortlist_typed_is_that_thing(tailor: Chat) -> None:
    tailor.send("habari, mnashona suruali? fundi anaweza kunipima?")
    assert tailor.state["pending"] == "item_selection"
    shown = {str(o["id"]) for o in tailor.state["pending_options"]}
    assert "item:MT-HM-01" not in shown  # the home visit is not among the rows
    reply = tailor.send("Home Measurement Visit")
    assert "Home Measurement Visit" in reply
    assert "Measurement and Style Consultation" not in reply  # never the row that shares a word with it


def test_a_sizes_number_is_no_count() -> None:
    assert count_of("saizi 42 rangi ya navy") is None
    assert count_of("tyres 265 65 r17") is None  # a tyre's size as "265/65 R17" reads once normalised
    assert count_of("breakfast 2 chapati") == 2


def test_ready_made_said_in_swahili_is_the_ready_made_thing_in_its_size(tailor: Chat) -> None:
    tailor.send("nahitaji suti ya kaunda iliyo tayari, saizi 42, navy")
    # the ready-made suit, never the custom one booked for a measurement; no 42 suits: how many is asked
    assert tailor.basket() == {"Men's Kaunda Suit (Ready-Made)": (None, {"size": "42", "colour": "Navy"})}
    assert tailor.state["pending"] == "quantity"


def test_a_swahili_returns_question_is_answered_from_the_shops_returns_passage(paints: Chat) -> None:
    # "naeza" and "ambayo" ask nothing; "sijafungua" (not yet opened) is a verb form the folding reads
    reply = paints.send("naeza rudisha mtungi moja ambayo sijafungua?")
    assert "siku 14" in reply
    assert "Sina taarifa" not in reply


def test_a_number_in_her_address_never_changes_a_tins_size(paints: Chat) -> None:
    paints.send("nataka basco duracoat magnolia lita 4 mbili")
    assert paints.state["pending"] == "fulfilment"
    reply = paints.send("Buruburu phase 1, near the shopping centre")
    assert paints.basket() == {"Basco Duracoat Matt Emulsion": (2, {"size": "4L", "colour": "Magnolia"})}
    assert "(4L, Magnolia)" in reply


def test_amps_said_of_a_battery_are_its_size_not_a_count() -> None:
    assert count_of("nataka betri ya varta 70 amps") is None
    assert count_of("betri mbili za 70 amps") == 2


def test_an_option_answered_with_her_reason_is_the_option_and_no_new_thing(paints: Chat) -> None:
    paints.send("the sadolin super matt in dove grey, 2 tins of 4L please, plus a paint roller")
    assert paints.state["pending"] == "variant"  # which pile, of the roller
    reply = paints.send("short, the walls are smooth")
    assert paints.basket()["Paint Roller 9 inch with Tray"] == (1, {"pile": "Short Pile"})
    assert paints.state["pending"] == "fulfilment"  # no shortlist of "walls smooth"
    assert "Which" not in reply


def test_the_black_one_describes_the_thing_before_it(bathrooms: Chat) -> None:
    bathrooms.send("I need a 1000 litre Roto tank, black one, plus a gate valve 3/4 inch")
    assert bathrooms.basket() == {
        "Roto Water Tank": (1, {"capacity": "1000L", "colour": "Black"}),
        "Brass Gate Valve": (1, {"size": "3/4 inch"}),
    }


def test_a_word_said_again_in_the_next_part_stays_that_parts() -> None:
    # the tagger reads "matt" apart from "basin mixer" and again before "towel rail": the mixer is the first part's
    pack = load_pack(EVAL_PACKS / "bafu-bora")
    index = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    said = "I want a matt black basin mixer, a matt black towel rail (the longer one) and one of those LED mirrors"
    tags = [
        Span("ITEM", "add", "matt", 9, 13),
        Span("ITEM", "add", "basin mixer", 20, 31),
        Span("ITEM", "add", "matt", 35, 39),
        Span("ITEM", "add", "towel rail", 46, 56),
        Span("ITEM", "add", "LED mirrors", 91, 102),
    ]
    assert [item.named.partition(" ; ")[0] for item in listed_items(said, index, tags)][:2] == [
        "basin mixer",
        "towel rail",
    ]


def test_a_size_of_two_dimensions_said_without_its_unit_is_the_option_with_it() -> None:
    assert named_option("the 60 by 80", ["50x70cm", "60x80cm"]) == "60x80cm"
    assert named_option("ile ya 60 kwa 80", ["50x70cm", "60x80cm"]) == "60x80cm"
    assert named_option("5 kwa 6", ["4x6", "5x6", "6x6"]) == "5x6"


def test_a_cancellation_whose_reason_names_the_basket_drops_the_order(bathrooms: Chat, seeded: Services) -> None:
    bathrooms.send("need 3 squatting pans standard and 2 waste pipes 4 inch")
    bathrooms.send("pickup")
    assert bathrooms.state["pending"] == "payment_method"
    assert len(bathrooms.basket()) == 2
    ref = bathrooms.state["frame"].order.order_id
    reply = bathrooms.send("sorry, please cancel this order. my contractor says he already bought the pans and pipes")
    assert f"order {ref}" in reply
    assert "is cancelled" in reply
    assert bathrooms.state["frame"] is None
    assert seeded.orders.get(bathrooms.tenant_id, ref).status == "cancelled"


def test_taking_one_thing_out_of_several_still_keeps_the_order(bathrooms: Chat) -> None:
    bathrooms.send("need 3 squatting pans standard and 2 waste pipes 4 inch")
    bathrooms.send("pickup")
    bathrooms.send("cancel the waste pipes please")
    assert set(bathrooms.basket()) == {"Squatting Pan (Asian Toilet)"}


def test_a_thing_said_with_its_feature_is_the_thing_not_the_feature(bathrooms: Chat) -> None:
    bathrooms.send(
        "Good evening, I'd like the Roca rimless toilet with the soft close seat. The old one's waste pipe goes into "
        "the wall behind it, not the floor"
    )
    assert list(bathrooms.basket()) == ["Roca Debba Rimless Toilet with Soft-Close Seat"]
    assert bathrooms.basket()["Roca Debba Rimless Toilet with Soft-Close Seat"][1] == {}  # "one's" chose no S-Trap


def test_a_possessive_whose_apostrophe_was_folded_away_names_no_size() -> None:
    assert named_option("the old one s waste pipe goes into the wall", ["S-Trap", "P-Trap"]) is None
    assert named_option("men s kitenge shirt", ["S", "M", "L"]) is None
    assert named_option("size s", ["S", "M", "L"]) == "S"
    assert named_option("ile ya s", ["S", "M", "L"]) == "S"


def test_her_own_thing_broken_and_a_technician_at_a_time_is_a_repair_not_a_sale(computers: Chat) -> None:
    reply = computers.send(
        "Hi, my son dropped my HP laptop and now the screen is cracked, half of it is black. Can Kevin replace it "
        "tuesday around 10am?"
    )
    assert computers.basket() == {}  # no laptop of KES 62,000 put in her basket
    assert computers.state["pending"] == "item_selection"
    assert reply.index("Laptop Screen Replacement") < reply.index("Laptop Battery Replacement")
    assert "HP 250 G9" not in reply  # the services he does, not the shop's laptops
    computers.send("Laptop Screen Replacement", reply_id="item:TT-SV-02")
    booking = computers.state["booking"]
    assert booking is not None
    assert booking.staff_id == "kevin"
