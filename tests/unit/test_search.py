"""Catalog search behaviour a shopper would notice: Swahili words, typos, the right kind of thing."""

from __future__ import annotations

import pytest

from tulia.domain.catalog import CatalogItem
from tulia.packs.loader import Pack
from tulia.search.catalog_index import CatalogIndex, Filters
from tulia.search.text import GENERIC_WORDS, terms


@pytest.fixture(scope="module")
def index(demo_packs: dict[str, Pack]) -> CatalogIndex:
    shop = demo_packs["demo-shop"]
    return CatalogIndex(shop.catalog, shop.tenant.vocabulary.root)


def categories(index: CatalogIndex, query: str, n: int = 5, **filters: object) -> list[str]:
    hits = index.search(query, Filters(**filters), limit=n).hits  # type: ignore[arg-type]
    by_id = {d.item_id: d for d in index.docs}
    return [by_id[h.item_id].category_folded for h in hits]


def names(index: CatalogIndex, query: str, n: int = 5) -> list[str]:
    by_id = {d.item_id: d for d in index.docs}
    return [by_id[h.item_id].name for h in index.search(query, limit=n).hits]


def test_swahili_and_sheng_words_map_to_catalog_words_through_the_shops_vocabulary(index: CatalogIndex) -> None:
    assert index.terms("Nataka simu ya Samsung") == ["phone", "samsung"]
    assert index.terms("chaja ya iPhone") == ["charger", "iphone"]
    assert index.terms("earbuds nyeusi") == ["earphone", "black"]
    assert "featurephone" in index.terms("kadudu")
    assert index.terms("a power bank") == ["powerbank"]  # a phrase of the vocabulary is one term


def test_product_code_folds_no_word_of_a_trade(demo_packs: dict[str, Pack]) -> None:
    """Words of buying, paying, delivery and support are generic; a trade's words come from its pack
    (a pack cannot even claim a generic word: it would not load). "saa ngapi" asks the time (the general
    lexicon), never for a watch, and "cut" is not a haircut."""
    trade_words = {w for p in demo_packs.values() for t, ws in p.tenant.vocabulary.root.items() for w in [t, *ws]}
    assert trade_words & GENERIC_WORDS.keys() == set()
    assert terms("saa ngapi") == ["time"]
    assert terms("cut the price") == ["cut"]
    assert terms("deliver it, I will pay by mpesa") == ["delivery", "will", "payment"]


def test_swahili_phone_request_finds_smartphones(index: CatalogIndex) -> None:
    assert set(categories(index, "nataka simu ya samsung")) == {"smartphones"}
    assert all(n.startswith("Samsung") for n in names(index, "simu ya samsung"))


def test_phone_case_request_finds_cases_not_phones(index: CatalogIndex) -> None:
    assert set(categories(index, "samsung a15 case", 3)) == {"phone cases & covers"}
    assert names(index, "cover ya samsung a15", 1)[0].startswith("Samsung Galaxy A15")


@pytest.mark.parametrize("typo", ["samsnug phone", "samsung fone", "infinx hot 40", "powebank 20000"])
def test_typos_still_find_the_right_things(index: CatalogIndex, typo: str) -> None:
    result = index.search(typo, limit=3)
    assert result.hits, typo
    assert result.confidence >= 0.5


def test_brand_prefix_finds_the_brand(index: CatalogIndex) -> None:
    assert all("Oraimo" in n for n in names(index, "oraim", 3))


def test_feature_phone_slang_finds_basic_phones(index: CatalogIndex) -> None:
    assert set(categories(index, "kabambe")) == {"feature phones"}


def test_filters_price_stock_type_and_category(index: CatalogIndex, demo_packs: dict[str, Pack]) -> None:
    items = {i.item_id: i for i in demo_packs["demo-shop"].catalog}
    hits = index.search("phone", Filters(max_price=15_000, in_stock_only=True), limit=10).hits
    assert hits
    assert all(items[h.item_id].price <= 15_000 and items[h.item_id].in_stock for h in hits)
    assert set(categories(index, "samsung", 10, category="tablets")) == {"tablets"}
    assert index.search("braids", Filters(type="service")).hits == []


def test_unknown_words_give_no_results_and_no_confidence(index: CatalogIndex) -> None:
    result = index.search("zxqv wobblefrotz")
    assert result.hits == []
    assert result.confidence == 0.0


def test_vague_query_reports_many_matches(index: CatalogIndex) -> None:
    assert index.search("phone", limit=6).total_matches >= 20


def test_empty_query_browses_cheapest_first() -> None:
    items = [
        CatalogItem(tenant_id="t", item_id=f"S{n}", name=f"Thing {n}", category="Misc", price=p)
        for n, p in enumerate([500, 100, 300])
    ]
    hits = CatalogIndex(items).search("", limit=2).hits
    assert [h.item_id for h in hits] == ["S1", "S2"]


def test_a_word_that_is_one_of_an_items_options_ranks_that_item_first() -> None:
    """ "kinyozi fade": the salon folds both words to "haircut", but only the men's cut comes in Fade."""
    from pathlib import Path

    from tulia.packs.loader import load_pack

    pack = load_pack(Path(__file__).resolve().parents[2] / "packs" / "demo-salon")
    index = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    assert index.search("kinyozi fade").hits[0].item_id == "SV-HC-01"
    assert index.search("kinyozi fade").hits[1].item_id == "SV-HC-02"


def test_the_general_lexicon_finds_what_no_shop_word_names() -> None:
    """Issue 30's examples: "kusafisha meno" finds a dental clinic's cleaning and "rangi ya mabati" a roofing
    paint, in shops whose catalogs and vocabularies have none of those Swahili words."""
    clinic = [
        CatalogItem(tenant_id="t", item_id="DN-01", name="Dental Check-up", category="Dental", price=2000),
        CatalogItem(
            tenant_id="t", item_id="DN-02", name="Scale and Polish (Teeth Cleaning)", category="Dental", price=3500
        ),
        CatalogItem(tenant_id="t", item_id="DN-03", name="Tooth Extraction", category="Dental", price=4000),
    ]
    assert CatalogIndex(clinic).search("nataka kusafisha meno").hits[0].item_id == "DN-02"
    paints = [
        CatalogItem(tenant_id="t", item_id="P-1", name="Silk Vinyl Emulsion 4L", category="Paint", price=3000),
        CatalogItem(tenant_id="t", item_id="P-2", name="Roof Paint Red 20L", category="Paint", price=9000),
        CatalogItem(tenant_id="t", item_id="P-3", name="Iron Sheet Gauge 30", category="Roofing", price=1100),
    ]
    assert CatalogIndex(paints).search("rangi ya mabati").hits[0].item_id == "P-2"


# a lexicon word of several meanings, read in the shop's own words (issue 30, the trades tuning set) -----------
def test_a_word_of_two_meanings_takes_the_one_the_shops_catalog_uses() -> None:
    from tulia.search.text import Folding

    assert Folding(shop_text=["Solar Cable 6mm (per metre)"]).terms("waya") == ["cable"]
    assert Folding(shop_text=["Barbed Wire 25kg"]).terms("waya") == ["wire"]
    # both meanings in the shop's words: still left alone, as with no catalog at all
    assert Folding(shop_text=["Wire Nails 1kg", "Twin and Earth Cable"]).terms("waya") == ["waya"]
    assert Folding().terms("waya") == ["waya"]


def test_of_meanings_that_say_more_and_more_of_one_thing_the_fullest_the_shop_uses() -> None:
    from tulia.search.text import Folding

    assert Folding(shop_text=["Goat Meat 1kg"]).terms("mbuzi") == ["goat", "meat"]
    assert Folding(shop_text=["Dairy Goat (in kid)"]).terms("mbuzi") == ["goat"]


def test_hundreds_said_in_swahili_words_are_digits_and_a_unit_before_its_number_joins_it() -> None:
    from tulia.search.text import Folding, swahili_hundreds_in_digits

    assert swahili_hundreds_in_digits("paneli ya watt mia moja") == "paneli ya watt 100"
    assert swahili_hundreds_in_digits("mia mbili na hamsini") == "250"
    assert swahili_hundreds_in_digits("elfu tatu") == "3000"
    assert swahili_hundreds_in_digits("mia") == "mia"  # no number said
    assert "100w" in Folding().terms("watt mia moja")
    assert "200w" in Folding().terms("200 watts")


def test_a_panel_of_watt_mia_moja_is_the_100w_one_of_three_panels() -> None:
    items = [
        CatalogItem(
            tenant_id="t", item_id=f"P{watts}", name=f"Solar Panel {watts}W", category="Panels", price=watts * 60
        )
        for watts in (50, 100, 200)
    ]
    index = CatalogIndex(items, {"panel": ["paneli"]})
    assert index.full_matches("paneli za watt mia moja") == (["P100"], [])
    assert index.full_matches("200 watts panel") == (["P200"], [])
    assert index.search("paneli ya watt mia mbili", limit=3).hits[0].item_id == "P200"
