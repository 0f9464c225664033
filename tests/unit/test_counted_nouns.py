"""Counts of any noun, sizes that are numbers, and words a shop spells its own way (issue 30, fifth session;
found on eval/tuning/trades-4.txt, a takeaway kitchen, a shoe shop and a printing cyber): a number before a
plural noun counts it unless the noun is a time or money; plates, cups, glasses, pages and copies count;
"size 36" is a size, not 36 pairs; a plural the light stemmer keeps ("chapatis") and a loanword said the
Swahili way ("folda") find the shop's own word; a part of a list that is counted ("a fanta") is an item even
when its word is an option of another."""

from __future__ import annotations

import pytest

from tulia.domain.catalog import CatalogItem
from tulia.graph.journeys.sale_common import count_for, count_in_words
from tulia.nlu.basket_words import items_said
from tulia.nlu.frame_extract import extract_quantity
from tulia.search.catalog_index import CatalogIndex


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("laminate 3 certificates", 3),
        ("print 20 pages black and white", 20),
        ("I need 50 copies of this form", 50),
        ("beans with chapati, 2 plates", 2),
        ("nataka pilau sahani mbili", 2),
        ("juisi ya embe glasi mbili", 2),
        ("nifanyie photocopy nakala 100", 100),
        ("nataka kuprint kurasa 30 za rangi", 30),
        ("10 samosas for the office", 10),
    ],
)
def test_a_number_before_a_counted_noun_is_the_count(message: str, count: int) -> None:
    said, _spans = extract_quantity(message)
    assert said is not None
    assert said.value == count


@pytest.mark.parametrize(
    "message",
    [
        "where is my food, I ordered 40 mins ago",
        "paid 430 shillings via mpesa",
        "I paid 4700 but got no confirmation",
        "a cake for 20 guests",
    ],
)
def test_a_time_an_amount_of_money_or_for_whom_counts_nothing(message: str) -> None:
    said, _spans = extract_quantity(message)
    assert said is None


SHOES = {
    "item_id": "SCH",
    "name": "School Shoes (Bata Toughees)",
    "variants": [{"name": "size", "options": ["28", "30", "34", "36"]}],
}


def test_a_number_after_the_name_of_a_size_is_the_size_and_the_pairs_are_the_count() -> None:
    words = "nataka viatu vya shule size 36 jozi mbili"
    said, _spans = extract_quantity(words)
    assert said is not None
    assert said.value == 36  # read alone, the pairs' number comes first in digits
    assert count_for(SHOES, said.value, words) == 2
    assert count_for(SHOES, 2, "2 pairs of toughees size 34") == 2
    assert count_for(SHOES, 36, "school shoes size 36") is None


def shop() -> CatalogIndex:
    return CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="CHP", name="Chapati", category="Bites", price=30, tags=["chapo"]),
            CatalogItem(tenant_id="t", item_id="FLD", name="Clear Folder", category="Stationery", price=50),
            CatalogItem(tenant_id="t", item_id="CHI", name="Chips", category="Chips", price=150,
                        variants=[{"name": "size", "options": [{"value": "Regular"}, {"value": "Large"}]}]),
            CatalogItem(tenant_id="t", item_id="SOD", name="Soda 500ml", category="Drinks", price=80,
                        variants=[{"name": "flavour", "options": [{"value": "Coke"}, {"value": "Fanta"}]}]),
            CatalogItem(tenant_id="t", item_id="BNS", name="Beans and Rice (plate)", category="Plates", price=200),
        ]
    )  # fmt: skip


def test_a_plural_or_a_swahili_loanword_finds_the_shops_own_word() -> None:
    index = shop()
    assert index.full_matches("chapatis")[0] == ["CHP"]
    assert index.full_matches("folda")[0] == ["FLD"]
    assert index.full_matches("printa")[0] == []  # no such word in this shop: still nothing


def test_a_counted_part_is_an_item_even_when_its_word_is_an_option() -> None:
    index = shop()
    said = items_said(
        "chips large plus a fanta",
        lambda part: bool(index.full_matches(part)[0]),
        index.conjoined,
        index.only_options,
    )
    assert [(i.text, i.quantity) for i in said] == [("chips large", None), ("a fanta", 1)]


def test_in_a_listed_part_a_number_before_the_words_counts_them() -> None:
    index = shop()
    said = items_said("breakfast: 2 chapati, 3 chips", lambda part: bool(index.full_matches(part)[0]), index.conjoined)
    assert [i.quantity for i in said] == [2, 3]


@pytest.mark.parametrize(
    ("words", "count"),
    [
        ("love 4 chapati", 4),  # "I would love 4 chapati": a number among words that name an item
        ("d 2 chapati", 2),  # "I'd like 2 chapati"
        ("chapati 2", 2),
        ("chapati za 3", 3),
        ("chips 2 kilo", None),  # a measure
        ("chips size 2", None),  # a size
        ("chapati 2 chips 3", None),  # two numbers: not one count
        ("stars 4", None),  # words that name nothing the shop sells
        ("chapati for 20 people", None),  # the number counts a word the shop does not sell: for whom
    ],
)
def test_one_number_among_the_words_of_an_item_is_its_count(words: str, count: int | None) -> None:
    assert count_in_words(words, shop())[1] == count


def test_a_number_of_an_items_name_or_option_is_not_a_count() -> None:
    index = CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="J4", name="Jordan 4 Retro", category="Sneakers", price=6500,
                        variants=[{"name": "size", "options": [{"value": "42"}, {"value": "43"}]}]),
        ]
    )  # fmt: skip
    assert count_in_words("jordan 4 retro", index) == ("jordan 4 retro", None)
    assert count_in_words("jordan 42", index) == ("jordan 42", None)


def listed(message: str, index: CatalogIndex) -> list[tuple[str, int | None]]:
    said = items_said(
        message,
        lambda part: bool(index.full_matches(part)[0]),
        index.conjoined,
        index.only_options,
        one_item=lambda words: bool(index.full_matches(words)[0]),
    )
    return [(i.text, i.quantity) for i in said]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("2 chapati 3 chips", [("2 chapati", 2), ("3 chips", 3)]),
        ("chapati 2 chips 3", [("chapati 2", None), ("chips 3", None)]),  # the count after: read by count_in_words
        ("chapati mbili chips tatu", [("chapati mbili", 2), ("chips tatu", 3)]),
        ("one chapati one soda", [("one chapati", 1), ("one soda", 1)]),
        ("chapati x2 chips x3", [("chapati x2", 2), ("chips x3", 3)]),
        ("2 chapati/2 chips", [("2 chapati", 2), ("2 chips", 2)]),
    ],
)
def test_a_list_without_joins_is_cut_at_its_counts(message: str, expected: list[tuple[str, int | None]]) -> None:
    assert listed(message, shop()) == expected


def test_a_names_own_number_never_cuts_it() -> None:
    index = CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="J4", name="Jordan 4 Retro", category="Sneakers", price=6500),
            CatalogItem(tenant_id="t", item_id="AF1", name="Air Force 1", category="Sneakers", price=4500),
        ]
    )
    assert listed("jordan 4 retro 2", index) == []
    assert listed("2 jordan 4", index) == []
    assert listed("1/2 jordan", index) == []


MODELS = {"name": "model", "options": [{"value": "Samsung A14"}, {"value": "Tecno Spark 10"}]}


def phone_shop() -> CatalogIndex:
    return CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="SCR", name="Screen Replacement Samsung A14", category="Screens",
                        price=3800, brand="Samsung", tags=["screen"]),
            CatalogItem(tenant_id="t", item_id="SPK", name="Screen Replacement Tecno Spark 10", category="Screens",
                        price=2500, brand="Tecno", tags=["screen"]),
            CatalogItem(tenant_id="t", item_id="CAS", name="Phone Case", category="Cases", price=500, tags=["case"],
                        variants=[MODELS,
                                  {"name": "colour", "options": [{"value": "Clear"}, {"value": "Black"}]}]),
            CatalogItem(tenant_id="t", item_id="GLS", name="Screen Protector", category="Protectors", price=300,
                        tags=["glass"],
                        variants=[MODELS]),
            CatalogItem(tenant_id="t", item_id="DRK", name="Chick Drinker 3 Litre", category="Equipment", price=250,
                        tags=["kinywaji"]),
            CatalogItem(tenant_id="t", item_id="CKS", name="Day-old Chicks", category="Chicks", price=110,
                        tags=["vifaranga"]),
        ]
    )  # fmt: skip


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("clear cases for samsung a14", "CAS"),  # the head is the word before "for"
        ("screen protector for tecno spark 10", "GLS"),
        ("samsung a14 clear", "CAS"),  # a brand named by an item's options is of that item too
        ("vinywaji vya vifaranga", "DRK"),  # a Swahili plural of the shop's singular, the head before "vya"
    ],
)
def test_the_thing_wanted_comes_first_not_what_it_is_for(query: str, first: str) -> None:
    assert phone_shop().search(query).hits[0].item_id == first


def test_a_pack_word_the_shop_names_an_item_by_in_its_tags_narrows_the_search() -> None:
    from tulia.graph.journeys.sale_common import with_pack_words

    assert with_pack_words("samsung a14", "glass ya samsung a14", phone_shop()) == "samsung a14 glass"


def test_one_pair_is_one() -> None:
    said, _spans = extract_quantity("one pair of oraimo freepods 4")
    assert said is not None
    assert said.value == 1


def laundry() -> CatalogIndex:
    return CatalogIndex(
        [
            CatalogItem(tenant_id="t", item_id="SHT", name="Shirt (wash and iron)", category="Wash and Iron",
                        price=100, tags=["shati"]),
            CatalogItem(tenant_id="t", item_id="TRS", name="Trousers (wash and iron)", category="Wash and Iron",
                        price=150, tags=["suruali"]),
            CatalogItem(tenant_id="t", item_id="SHO", name="Shoe Cleaning (pair)", category="Shoes", price=300,
                        tags=["viatu", "sneakers"]),
        ]
    )  # fmt: skip


@pytest.mark.parametrize("query", ["viatu vioshwe", "sneakers zioshwe"])
def test_a_swahili_verb_form_beside_the_thing_is_what_is_done_to_it_not_the_thing(query: str) -> None:
    assert laundry().search(query).hits[0].item_id == "SHO"
