"""Reading several items in one message, counts corrected away, options said in other words, and
coupon codes said a few words after the word for them (pure functions; shop words passed in)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tulia.graph.journeys.sale_common import count_in_words
from tulia.nlu.basket_words import ItemSaid, item_words, items_said, measured_count
from tulia.nlu.frame_extract import extract_coupon, extract_delta, named_option
from tulia.nlu.lexicon import normalize
from tulia.nlu.rules import catalog_evidence
from tulia.packs.loader import load_pack
from tulia.search.catalog_index import CatalogIndex

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def grocer() -> CatalogIndex:
    pack = load_pack(ROOT / "packs" / "demo-grocer")
    return CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)


@pytest.fixture(scope="module")
def hardware() -> CatalogIndex:
    pack = load_pack(ROOT / "packs" / "demo-hardware")
    return CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)


def listed(text: str, index: CatalogIndex) -> list[ItemSaid]:
    return items_said(text, lambda part: bool(catalog_evidence(part, index)), index.conjoined)


def test_a_swahili_list_with_counts_after_the_items_and_a_place(grocer: CatalogIndex) -> None:
    items = listed("Nataka Jogoo unga 2kg tatu na sukari Mumias 2kg moja, niletee Mwiki", grocer)
    assert [(i.quantity, item_words(i.text)) for i in items] == [(3, "jogoo unga 2kg"), (1, "sukari mumias 2kg")]


def test_counts_before_the_items_and_articles_are_counts(grocer: CatalogIndex) -> None:
    items = listed("one eggs tray, two Festive bread and a kilo of tomatoes", grocer)
    assert [i.quantity for i in items] == [1, 2, 1]


def test_kumi_na_mbili_is_twelve_not_a_list(grocer: CatalogIndex) -> None:
    assert listed("nataka maziwa Brookside kumi na mbili", grocer) == []
    items = listed("maziwa Brookside kumi na mbili na mkate Festive moja", grocer)
    assert [(i.quantity, item_words(i.text)) for i in items] == [(None, "maziwa brookside 12"), (1, "mkate festive")]
    assert count_in_words("maziwa brookside 12", grocer) == ("maziwa brookside", 12)  # the journey's count


def test_a_count_written_as_a_count_lists_and_leaves_the_name(grocer: CatalogIndex) -> None:
    items = listed("sukari mumias 2pkts, unga jogoo x3", grocer)
    assert [(i.quantity, item_words(i.text)) for i in items] == [(2, "sukari mumias"), (3, "unga jogoo")]


def test_one_wish_is_not_a_list(grocer: CatalogIndex) -> None:
    assert listed("nataka Jogoo unga tatu, niletee Mwiki, nitalipa na M-Pesa", grocer) == []
    assert listed("nataka unga\nya Jogoo", grocer) == []  # one wish in two quick messages


def test_a_join_inside_a_shop_name_is_not_a_list(hardware: CatalogIndex) -> None:
    items = listed("2 Twin and Earth Cable and 3 LED bulbs", hardware)
    assert [(i.quantity, item_words(i.text)) for i in items] == [(2, "twin and earth cable"), (3, "led bulbs")]


def test_an_item_the_shop_lacks_with_its_own_count_is_a_listed_item(hardware: CatalogIndex) -> None:
    items = listed("nataka Bosch drill moja na ngazi moja", hardware)
    assert [item_words(i.text) for i in items] == ["bosch drill", "ngazi"]


def test_a_measure_of_an_item_sold_in_packs_is_a_count_of_packs() -> None:
    assert measured_count("2 kg of 3 inch wire nails", "Wire Nails 3 inch 1kg") == 2
    assert measured_count("3 litres", "Fresha Long Life Milk 1L") == 3
    assert measured_count("jogoo 2kg", "Jogoo Maize Flour 2kg") is None  # its own size
    assert measured_count("500ml", "Fresha Long Life Milk 1L") is None  # not a number of packs


def test_a_count_corrected_away_is_not_read() -> None:
    def count(text: str) -> int | None:
        said = extract_delta(text, zones=[], enabled_methods=[]).quantity
        return said.value if said else None

    assert count("hapana, unga ni pakiti tatu sio moja") == 3
    assert count("sukari ni moja sio mbili") == 1
    assert count("no, two not one") == 2
    assert count("no, Menengai should be one not six") == 1


def test_options_said_in_other_words() -> None:
    assert named_option("large black", ["S", "M", "L", "XL"]) == "L"
    assert named_option("nipe tshirt nyeusi m", ["S", "M", "L"]) == "M"
    assert named_option("I'm looking for a tshirt", ["S", "M", "L"]) is None  # the m of I'm
    assert named_option("it's large", ["S", "M", "L"]) == "L"
    assert named_option("1 litre", ["1L", "3L", "5L"]) == "1L"
    assert named_option("the 128 one", ["64GB", "128GB"]) == "128GB"


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("isiyopakwa rangi", "Unpainted"),  # which is not painted
        ("zile hazijapakwa rangi", "Unpainted"),  # those not yet painted
        ("sitaki iliyopakwa rangi", "Unpainted"),
        ("not painted please", "Unpainted"),
        ("iliyopakwa rangi", "Painted"),
        ("the painted one, not unpainted", "Painted"),
        ("not sure, painted i guess", "Painted"),  # a doubt, not the option said away
        ("sina uhakika, iliyopakwa rangi", "Painted"),
    ],
)
def test_not_said_of_an_option_is_the_option_without_it(text: str, option: str) -> None:
    assert named_option(normalize(text), ["Unpainted", "Painted"], "Langstroth Hive (Complete)") == option


def test_without_said_of_an_options_thing_is_the_option_without_it() -> None:
    assert named_option("bila sukari", ["With sugar", "Without sugar"]) == "Without sugar"
    assert named_option("with sugar", ["With sugar", "Without sugar"]) == "With sugar"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("code ya punguzo ni SAVE10", "SAVE10"),
        ("promo code for today is KARIBU10", "KARIBU10"),
        ("apply WELCOME10 please", "WELCOME10"),
        ("nina kuponi hii: JUMA20", "JUMA20"),
        ("pay for ORD-7K2PX with code HAPPY5", "HAPPY5"),
        ("apply the discount to my order ORD-7K2PX", None),
        ("I want to use 2 coupons", None),
        ("use my discount", None),
    ],
)
def test_a_coupon_code_a_few_words_after_the_word_for_it(text: str, code: str | None) -> None:
    assert extract_coupon(text)[0] == code


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("nataka maziwa kumi na mbili", 12),
        ("a couple of bags of cement", 2),
        ("fourteen pieces of the blue one", 14),
        ("kesho saa kumi na moja, nataka 2", 2),  # five o'clock is not a count
    ],
)
def test_counts_in_more_words(text: str, count: int) -> None:
    said = extract_delta(text, zones=[], enabled_methods=[]).quantity
    assert said is not None
    assert said.value == count


def test_an_option_with_a_hyphen_said_with_a_space() -> None:
    assert named_option("box braids mid back please", ["Shoulder", "Mid-back", "Waist"]) == "Mid-back"


def test_a_thing_the_customer_has_is_no_evidence_of_buying_it() -> None:
    """Found when the reader was retrained with more trades: "where can I park my car?" at a shop that sells
    car chargers was read as maybe buying (the clarifying menu instead of the parking passage)."""
    pack = load_pack(ROOT / "packs" / "demo-shop")
    shop = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    assert catalog_evidence("where can i park my car", shop) == 0
    assert catalog_evidence("simu yangu imeharibika", shop) == 0
    assert catalog_evidence("i need a car charger", shop) == 2
    assert catalog_evidence("nataka cover ya simu yangu", shop) == 1  # the cover is wanted, the phone is hers


def test_a_models_code_of_the_catalog_is_read_as_a_thing_not_an_offers_code() -> None:
    """Found when the reader was retrained with a tuning set of offer codes: "I want a Romoss PAC20 20000mAh" was read
    as a question about offers (letters and digits are an offer's code to the reader); the catalog proves it a model."""
    from tulia.nlu.rules import RulesEngine, models_named

    pack = load_pack(ROOT / "packs" / "demo-shop")
    shop = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    assert models_named("I want a Romoss PAC20 20000mAh", shop) == "I want a Romoss model 20000mAh"
    assert models_named("can i use WELCOME10 here?", shop) == "can i use WELCOME10 here?"  # no thing of the shop's
    assert RulesEngine().understand("I want a Romoss PAC20 20000mAh", catalog=shop).intent == "sales_discovery"
    assert RulesEngine().understand("does WELCOME10 work on power banks?", catalog=shop).intent == "discounts_offers"
