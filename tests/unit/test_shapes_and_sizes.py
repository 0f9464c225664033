"""Dozens, the smallest and largest of sizes that are measures, order references typed with characters ours
never use, the Swahili "of" in any noun class, what a customer has, decimals, dashes and numbers said in words
(issue 30, sixth session; found on eval/tuning/trades-6.txt and trades-7.txt: an agrovet, a beauty shop, a
stationer, a motorbike spares shop, a kitchenware shop, an electrical shop and a fabric shop)."""

from __future__ import annotations

import pytest

from tulia.domain.catalog import CatalogItem
from tulia.nlu.basket_words import count_in_name, items_said, name_number_said
from tulia.nlu.frame_extract import extract_order_ref, extract_quantity, measured_options, named_option
from tulia.nlu.lexicon import normalize
from tulia.nlu.rules import RulesEngine, catalog_evidence, detect_language
from tulia.search.catalog_index import CatalogIndex
from tulia.search.measures import is_own_measure, packs_of
from tulia.search.text import in_english


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("a dozen exercise books", 12),
        ("two dozen pens", 24),
        ("3 dozen pencils", 36),
        ("kalamu dazeni moja", 12),
        ("daftari dazeni mbili", 24),
        ("dazeni 2 za kalamu", 24),
        ("half a dozen eggs", 6),
        ("3 maclick blocks", 3),
        ("5 reams of paper", 5),
    ],
)
def test_dozens_and_the_shapes_things_come_in_count(message: str, count: int) -> None:
    said, _spans = extract_quantity(message)
    assert said is not None
    assert said.value == count


@pytest.mark.parametrize(
    ("message", "options", "chosen"),
    [
        ("vaseline ndogo nne", ["250ml", "100ml"], "100ml"),
        ("1 big vaseline", ["250ml", "100ml"], "250ml"),
        ("DAP ndogo", ["50kg", "25kg"], "25kg"),
        ("the larger one", ["500ml", "1L"], "1L"),
        ("medium please", ["1kg", "2kg", "5kg"], "2kg"),
        ("the 100ml", ["250ml", "100ml"], "100ml"),  # a size said outright is that size
    ],
)
def test_a_size_word_names_the_smallest_or_largest_measure(message: str, options: list[str], chosen: str) -> None:
    assert named_option(message, options) == chosen


def test_size_words_name_nothing_among_options_that_are_not_measures_of_one_kind() -> None:
    assert named_option("the small one", ["Red", "Blue"]) is None
    assert named_option("the big one", ["500ml", "2kg"]) is None  # a volume and a weight: no order between them
    assert measured_options(["500ml", "1L", "2L"]) == [500.0, 1000.0, 2000.0]
    assert measured_options(["S", "M"]) is None


@pytest.mark.parametrize(
    ("message", "ref"),
    [
        ("has ORD-U4N8R been dispatched", "ORD-U4N8R"),  # U is never in our references: still the one meant
        ("ORD-U7C2W imefika wapi", "ORD-U7C2W"),
        ("tracking for ORD-V8L3N", "ORD-V8L3N"),
        ("where is ORD-7F3K2", "ORD-7F3K2"),
        ("ord 7f3k2", "ORD-7F3K2"),
        ("ord hello there", None),  # a word after "ord" is not a reference
        ("ORD-ORDER", None),  # nor five letters none of which is a digit, with a character ours never use
    ],
)
def test_an_order_reference_is_read_even_mistyped(message: str, ref: str | None) -> None:
    assert extract_order_ref(message) == ref


def test_the_swahili_of_agrees_with_its_noun_in_a_phrase() -> None:
    assert in_english("taa za mbele") == in_english("taa ya mbele") == "headlight"
    assert in_english("vitabu vya shule") == "textbook"
    assert in_english("nipe tairi ya nyuma").endswith("tyre rear")


def test_a_part_that_starts_with_the_of_of_the_part_before_repeats_its_thing() -> None:
    def names(part: str) -> bool:
        return "tairi" in part

    items = items_said("nipe tairi ya mbele na ya nyuma", names)
    assert [i.text for i in items] == ["nipe tairi ya mbele", "tairi ya nyuma"]
    counted = items_said("tairi mbili za mbele na ya nyuma", names)
    assert [(i.text, i.quantity) for i in counted] == [("tairi mbili za mbele", 2), ("tairi ya nyuma", None)]


def test_to_be_with_is_to_have_and_joins_nothing() -> None:
    items = items_said("niko na shamba, nipe DAP mbili na panga moja", lambda part: "dap" in part or "panga" in part)
    assert [i.text for i in items] == ["nipe dap mbili", "panga moja"]


def test_what_a_customer_has_is_no_evidence_of_buying() -> None:
    catalog = CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="DAP", name="DAP Fertiliser", category="Fertiliser", price=3500),
            CatalogItem(
                tenant_id="t", item_id="DRY", name="Dairy Meal", category="Feeds", price=2900, brand="Farm Care"
            ),
        ]
    )
    assert catalog_evidence("shamba", catalog)  # a farm's things are sold here ("Farm Care")
    assert catalog_evidence("niko na shamba", catalog) == 0
    assert catalog_evidence("i have a farm", catalog) == 0
    assert catalog_evidence("nipe dap", catalog) == 1


def test_a_number_of_an_option_is_said_with_its_dimension_in_any_form() -> None:
    names = ["Exercise Book A5", "pages 96", "pages 200"]
    assert count_in_name("a dozen 96 page exercise books", 96, names)
    assert name_number_said("a dozen 96 page exercise books", 96, names) == "96 page"
    assert name_number_said("exercise books 96 pages", 96, names) == "96 pages"
    assert name_number_said("96 exercise books", 96, names) is None  # beside no word of its option: a count


def test_a_decimal_point_stays_and_other_punctuation_goes() -> None:
    assert normalize("waya ya 2.5 mita 15.") == "waya ya 2.5 mita 15"
    assert normalize("thermos 1.8L (1), tray (2)") == "thermos 1.8l 1 tray 2"


def test_a_dash_between_words_is_not_noise() -> None:
    engine = RulesEngine()
    assert engine.understand("blue plates - 6, spoons - 6").governor == "business"
    assert engine.understand("----").governor == "spam"


def test_an_option_said_in_number_words_is_named_whole_never_by_a_lone_one() -> None:
    gangs = ["1 Gang", "2 Gang", "3 Gang"]
    assert named_option("4 three gang switches", gangs) == "3 Gang"
    assert named_option("swichi mbili za gang moja", gangs) == "1 Gang"
    assert named_option("the black one", gangs) is None


def test_a_number_word_of_a_name_stands_for_its_digits() -> None:
    names = ["Two-burner Gas Cooker"]
    assert count_in_name("the two burner gas cooker", 2, names)
    assert count_in_name("meko ya gesi ya burner mbili", 2, names)
    assert not count_in_name("two gas cookers", 2, names)


def test_a_counted_part_naming_only_an_option_is_one_more_item() -> None:
    def names(part: str) -> bool:
        return "breaker" in part

    items = items_said("three 20A breakers and one 32A", names, describes=lambda words: words.strip() == "32a")
    assert [(i.text, i.quantity) for i in items] == [("three 20a breakers", 3), ("one 32a", 1)]


def test_a_word_in_another_noun_class_is_evidence_of_the_shops_word() -> None:
    catalog = CatalogIndex(
        [
            CatalogItem(
                tenant_id="t", item_id="JER", name="Jerrican 20 Litre", category="Plastics", price=450, tags=["dumu"]
            )
        ]
    )
    assert catalog_evidence("madumu 2", catalog) == 1


@pytest.mark.parametrize(
    ("message", "options", "chosen"),
    [
        ("mala mbili za nusu lita", ["500ml", "1L"], "500ml"),
        ("half a litre please", ["500ml", "1L"], "500ml"),
        ("samli ya robo kilo", ["250g", "500g"], "250g"),
        ("quarter kilo", ["250g", "500g"], "250g"),
        ("nusu kilo", ["1kg", "2kg"], None),  # no such size: nothing named
    ],
)
def test_half_and_quarter_measures_name_their_size(message: str, options: list[str], chosen: str | None) -> None:
    assert named_option(message, options) == chosen


def test_a_measure_of_a_thing_sold_by_that_measure_counts_it_from_one() -> None:
    assert packs_of("1 lita", "Bleach (per litre)") == 1
    assert packs_of("3 litres", "Bleach (per litre)") == 3
    assert packs_of("2kg", "Jogoo Maize Flour 2kg") is None  # its own size, not a count
    assert is_own_measure("2kg", "Jogoo Maize Flour 2kg")
    assert not is_own_measure("5kg", "Jogoo Maize Flour 2kg")


def test_a_tag_that_ends_with_a_kind_makes_the_item_that_kind() -> None:
    index = CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="LQS", name="Liquid Soap", category="Liquid Soap", price=80),
            CatalogItem(
                tenant_id="t", item_id="DSW", name="Dishwashing Liquid", category="Dishwashing", price=100,
                tags=["dish soap"],
            ),
        ]
    )  # fmt: skip
    assert [hit.item_id for hit in index.search("dish soap").hits][:1] == ["DSW"]


def test_english_names_of_things_that_end_in_a_consonant_are_weak_evidence_of_english() -> None:
    language, sure = detect_language("3 maclick blocks plus 2 dairy meal")
    assert language == "en"
    assert sure >= 0.75  # enough to answer in English in a shop whose default is Swahili
    assert detect_language("nataka rice na sugar")[0] == "sw"  # English names in a Swahili sentence
    assert detect_language("chapati 3")[1] < 0.35  # said in both languages: no evidence, the conversation's stays
    assert detect_language("samsung galaxy")[1] < 0.35  # a brand is no language
    language, sure = detect_language("has ORD-U4N8R been dispatched")  # "been" is an English word too
    assert language == "en"
    assert sure >= 0.75


def test_a_count_of_pairs_or_packets_is_never_an_option_of_that_number() -> None:
    # "make the dumbbells 2 pairs" turned the 5kg pair into the 2kg one
    weights = ["2kg", "5kg", "10kg"]
    assert named_option("sorry make the dumbbells 2 pairs", weights) is None
    assert named_option("nataka pakiti 2", weights) is None
    assert named_option("the 5 one", weights) == "5kg"


def test_a_word_of_the_services_own_name_names_none_of_its_options() -> None:
    # "naomba kubook yoga ..." booked the Private Yoga Session as "Power Yoga" without asking
    styles = ["Hatha", "Power Yoga", "Prenatal"]
    assert named_option("naomba kubook yoga na achieng", styles, "Private Yoga Session (1 hour)") is None
    assert named_option("power yoga please", styles, "Private Yoga Session (1 hour)") == "Power Yoga"
    assert named_option("hatha", styles, "Private Yoga Session (1 hour)") == "Hatha"


def test_who_an_option_is_for_is_read_in_swahili() -> None:
    # "ya mtoto" to "which size: Kids or Adult?" got the menu
    assert named_option("ya mtoto", ["Kids", "Adult"]) == "Kids"
    assert named_option("ya watu wazima", ["Kids", "Adult"]) == "Adult"


@pytest.mark.parametrize("said", ["5 by 6", "5 x 6", "ya 5 kwa 6", "five by six", "tano kwa sita", "the 5x6 one"])
def test_a_size_of_two_dimensions_is_read_however_it_is_written(said: str) -> None:
    assert named_option(said, ["4x6", "5x6", "6x6", "6x7"]) == "5x6"
