"""The words of a market stall, read in general (issue 30, third session; found on eval/tuning/trades-2.txt):
containers as counting words, one of a pack, measures said in words folded to the units of names, English
plurals in -oes, sizes after a count, the price of one that orders nothing."""

from __future__ import annotations

import pytest

from tulia.domain.catalog import CatalogItem
from tulia.nlu.basket_words import items_said
from tulia.nlu.frame_extract import extract_quantity, named_option
from tulia.search.catalog_index import CatalogIndex
from tulia.search.text import stem, terms


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("two trays of eggs", 2),
        ("nipe trei tatu za mayai", 3),
        ("3 bunches of sukuma", 3),
        ("gorogoro tatu za maharagwe", 3),
        ("debe mbili za mahindi", 2),
        ("gunia mbili za mahindi", 2),
        ("one 90kg bag of maize", 1),
        ("kienyeji eggs, one tray", 1),
        ("a crate of sprite", 1),
        ("katoni nne za juice", 4),
    ],
)
def test_containers_are_counting_words(message: str, count: int) -> None:
    said, _spans = extract_quantity(message)
    assert said is not None
    assert said.value == count


@pytest.mark.parametrize(
    "message",
    [
        "how much is a tray of eggs",
        "how many blocks does one bag of cement lay",
        "embe ni ngapi kwa moja",
        "the black one",
    ],
)
def test_a_pack_asked_about_or_pointed_at_is_no_count(message: str) -> None:
    assert extract_quantity(message)[0] is None


def test_english_plurals_in_oes_meet_their_singular() -> None:
    assert stem("mangoes") == "mango"
    assert stem("potatoes") == "potato"
    assert stem("shoes") == "shoe"


def test_measures_said_in_words_fold_to_the_units_of_names() -> None:
    assert set(terms("mahindi 5 kilo")) >= {"5kg", "kg"}
    assert set(terms("3 litres")) >= {"3l"}
    assert set(terms("20 metres")) >= {"20m"}


def test_large_after_a_count_is_the_size_not_litres() -> None:
    assert named_option("5 large avocados", ["Medium", "Large"]) == "Large"
    assert named_option("a 3 litre one", ["1L", "3L"]) == "3L"


def test_a_count_alone_after_a_comma_counts_the_item_before_it() -> None:
    said = items_said(
        "afia tropical, one pack and 2 crates of coke",
        names_product=lambda part: "afia" in part or "coke" in part,
    )
    assert [(s.text, s.quantity) for s in said] == [("afia tropical", 1), ("2 crates of coke", 2)]


def test_a_word_naming_an_item_keeps_its_meaning_beside_its_translation() -> None:
    index = CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="M1", name="Brookside Milk 500ml (packet)", category="Milk", price=65),
            CatalogItem(tenant_id="t", item_id="M2", name="Mala 500ml", category="Milk", price=90, tags=["mala"]),
        ]
    )
    assert index.search("mala").hits[0].item_id == "M2"
    assert index.full_matches("mala")[0] == ["M2"]


def test_a_swahili_verb_in_any_person_or_voice_names_the_option_of_its_english_participle() -> None:
    for said in ("samaki wanne wakaangwe", "nipe fish mbili zikaangwe", "samaki wa kukaanga"):
        assert named_option(said, ["Fresh", "Cleaned", "Fried"]) == "Fried", said


def test_swahili_sizes_in_any_class_name_the_size_options() -> None:
    sizes = ["Small", "Medium", "Large"]
    assert named_option("nataka ngege tatu kubwa", sizes) == "Large"  # kubwa: big or large
    assert named_option("zulia dogo moja", sizes) == "Small"  # dogo, cited as ndogo
    assert named_option("tilapia mbili za saizi ya kati", sizes) == "Medium"


def test_a_fried_fish_is_the_fish_that_comes_fried_not_the_smoked_one() -> None:
    index = CatalogIndex(
        [
            CatalogItem(
                tenant_id="t",
                item_id="TIL",
                name="Tilapia (whole)",
                category="Whole Fish",
                price=400,
                variants=[{"name": "prep", "options": [{"value": "Fresh"}, {"value": "Fried"}]}],
            ),
            CatalogItem(tenant_id="t", item_id="SMK", name="Smoked Fish (each)", category="Smoked", price=300),
        ]
    )
    assert index.search("samaki wakaangwe").hits[0].item_id == "TIL"
    assert index.search("smoked fish").hits[0].item_id == "SMK"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("ballast and sand, 2 tonnes each", [("ballast", 2), ("sand", 2)]),
        ("nipe sukari na unga mbili mbili", [("nipe sukari", 2), ("unga mbili mbili", 2)]),
        ("2 of each, sugar and salt", [("sugar", 2), ("salt", 2)]),
        ("3 cement and 2 sand", [("3 cement", 3), ("2 sand", 2)]),
        ("sukari moja na unga moja", [("sukari moja", 1), ("unga moja", 1)]),
    ],
)
def test_one_count_for_each_item_of_a_list(message: str, expected: list[tuple[str, int]]) -> None:
    listed = items_said(
        message,
        names_product=lambda part: any(
            w in part for w in ("ballast", "sand", "sukari", "unga", "sugar", "salt", "cement")
        ),
    )
    assert [(s.text, s.quantity) for s in listed] == expected


def test_a_number_of_rooms_said_in_the_singular_names_the_plural_option() -> None:
    rooms = ["Bedsitter", "1 bedroom", "2 bedrooms", "3 bedrooms"]
    assert named_option("cleaners for my 2 bedroom apartmnt in kilimani", rooms) == "2 bedrooms"  # not "1 bedroom"
    assert named_option("ni one bedroom", rooms) == "1 bedroom"
    assert named_option("my 3 bedroom house in south c", rooms) == "3 bedrooms"
    assert named_option("bedsitter yangu", rooms) == "Bedsitter"


@pytest.mark.parametrize(
    "said",
    [
        "costume ya spiderman ya kijana wa miaka sita",
        "my daughter turns 7 on saturday",
        "for a 3 year old",
        "mtoto wangu ana miezi miwili",
    ],
)
def test_an_age_is_no_count(said: str) -> None:
    from tulia.nlu.frame_extract import extract_delta

    assert extract_delta(said, zones=[], enabled_methods=[]).quantity is None


def test_a_count_beside_an_age_is_still_the_count() -> None:
    from tulia.nlu.frame_extract import extract_delta

    said = extract_delta("2 costumes for my twins, they are 5 years old", zones=[], enabled_methods=[]).quantity
    assert said is not None
    assert said.value == 2


def test_swahili_verb_forms_fold_to_the_generic_words_verb() -> None:
    from tulia.search.text import terms

    assert "return" in terms("naweza kuirudisha mnirudishie pesa?")  # to return it, refund me
    assert "return" in terms("deposit inarudishwa")  # it is returned
    assert "return" in terms("deposit haurudishwi")  # it is not returned
    assert terms("mtoto") == ["mtoto"]  # a noun is no verb form


def test_an_hour_said_with_its_tens_is_no_count() -> None:
    assert extract_quantity("nataka ku-book pt na achieng leo saa kumi na mbili jioni")[0] is None  # six o'clock
    said = extract_quantity("saa kumi na moja nataka sukari mbili")[0]
    assert said is not None
    assert said.value == 2
    twelve = extract_quantity("nataka mayai kumi na mbili")[0]
    assert twelve is not None
    assert twelve.value == 12


def test_a_size_of_two_dimensions_is_no_count() -> None:
    from tulia.nlu.frame_extract import extract_delta

    assert extract_delta("are the bedsheets for 3 by 6 beds?", zones=[], enabled_methods=[]).quantity is None
    two = extract_delta("godoro 5 by 6 mbili", zones=[], enabled_methods=[]).quantity
    assert two is not None
    assert two.value == 2


def test_a_swahili_pest_names_the_one_option_of_it_not_the_pair() -> None:
    pests = ["Bedbugs", "Cockroaches", "Bedbugs & Cockroaches"]
    name = "Fumigation (bedbugs & cockroaches)"
    assert named_option("oya mende wamejaa kwa keja", pests, name) == "Cockroaches"
    assert named_option("kunguni wamenisumbua sana", pests, name) == "Bedbugs"
    assert named_option("mende na kunguni", pests, name) == "Bedbugs & Cockroaches"


def test_an_option_said_with_a_no_names_nothing_unless_the_option_is_so_named() -> None:
    assert named_option("acoustic, sina electric", ["Acoustic", "Electric", "Bass"]) == "Acoustic"
    assert named_option("without sugar", ["With sugar", "Without sugar"]) == "Without sugar"


@pytest.mark.parametrize(
    ("said", "options", "named"),
    [
        ("ngozi yangu ni ya mafuta", ["Normal", "Oily", "Dry", "Sensitive"], "Oily"),  # the noun of the adjective
        ("nywele zangu ni za curls", ["Straight", "Curly"], "Curly"),
        ("za maua", ["Flowers", "Leaves", "Geometric"], "Flowers"),  # a phrase's folding ("floral") hides "flower"
        ("nataka gift voucher ya elfu kumi", ["3000", "5000", "10000"], "10000"),  # thousands in words
        ("the 5k one", ["3000", "5000", "10000"], "5000"),
        ("dry skin", ["Normal", "Oily", "Dry", "Sensitive"], "Dry"),
    ],
)
def test_an_option_is_named_by_its_noun_its_words_alone_and_thousands_in_words(
    said: str, options: list[str], named: str
) -> None:
    assert named_option(said, options) == named


def test_a_model_number_of_the_name_said_among_its_words_is_no_count() -> None:
    from tulia.nlu.basket_words import count_in_name

    bike = ["Raleigh Mountain Bike 26 inch (21-speed)"]
    assert count_in_name("i want the raleigh 26 mountain bike", 26, bike)  # the 26-inch bike, one of it
    assert not count_in_name("fanta 2 please", 2, ["Fanta Orange 2 Litre"])  # a small number among its words: a count
    assert not count_in_name("raleigh mountain bike 26", 3, bike)


@pytest.mark.parametrize(
    "said",
    ["nahitaji gitaa ya mtoto wa miaka 7, ile ya pink", "a princess dress for my 9yo and a tiara", "ana miaka 10."],
)
def test_an_age_before_a_comma_or_written_short_is_no_count(said: str) -> None:
    from tulia.nlu.frame_extract import without_negated_counts

    assert extract_quantity(without_negated_counts(said))[0] is None
