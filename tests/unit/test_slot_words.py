"""Slots read the way customers say them (issue 30, third session; found on the slot tuning set
``eval/tuning/slots.txt``): measures in the Swahili order and in words, options said in Swahili or
without their pack counts, a shop's own coupon codes wherever they are said, numbers that belong to a
name or an option rather than a count, the places a zone's name lists, and Swahili plurals."""

from __future__ import annotations

from pathlib import Path

import pytest

from tulia.graph.journeys.sale_basket import find_wish, listed_items
from tulia.graph.journeys.sale_common import count_for, one_clear_match, recount
from tulia.nlu.basket_words import count_in_name, measured_count
from tulia.nlu.frame_extract import extract_coupon, extract_delta, extract_zone, measures_in_digits, named_option
from tulia.nlu.lexicon import normalize
from tulia.nlu.tagger import Span
from tulia.packs.loader import load_pack
from tulia.search.catalog_index import CatalogIndex
from tulia.search.text import Folding, in_english

ROOT = Path(__file__).resolve().parents[2]


def index_of(pack: str) -> CatalogIndex:
    loaded = load_pack(ROOT / pack)
    return CatalogIndex(loaded.catalog, loaded.tenant.vocabulary.root)


@pytest.fixture(scope="module")
def grocer() -> CatalogIndex:
    return index_of("packs/demo-grocer")


@pytest.fixture(scope="module")
def hardware() -> CatalogIndex:
    return index_of("packs/demo-hardware")


@pytest.fixture(scope="module")
def salon() -> CatalogIndex:
    return index_of("packs/demo-salon")


def quantity(text: str) -> int | None:
    said = extract_delta(text, zones=[], enabled_methods=[]).quantity
    return said.value if said else None


# measures ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("mafuta lita tatu", "mafuta 3 lita"),
        ("mchele kilo tano", "mchele 5 kilo"),
        ("three litres of oil", "3 litres of oil"),
        ("kilo 2 ya sukari", "2 kilo ya sukari"),
        ("fresh fri the 3 litre one", "fresh fri the 3 litre one"),  # "litre one" is not "one litre"
    ],
)
def test_a_measure_in_words_or_the_swahili_order_is_in_digits(text: str, digits: str) -> None:
    assert measures_in_digits(text) == digits


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("mafuta ya fresh fri lita tatu", None),  # three litres: a size
        ("three litres of oil", None),
        ("tanki la roto lita elfu moja", None),  # a thousand litres
        ("fresh fri ya lita moja nne", 4),  # four of the one litre
        ("unga mbili", 2),
    ],
)
def test_the_number_of_a_measure_is_not_a_count(text: str, count: int | None) -> None:
    assert quantity(text) == count


def test_a_measure_in_swahili_is_a_size_or_a_count_of_packs() -> None:
    assert named_option("mafuta ya fresh fri lita tatu", ["1L", "3L", "5L"]) == "3L"
    assert named_option("mchele pishori wa kilo tano", ["1kg", "2kg", "5kg"]) == "5kg"
    assert measured_count("vitunguu kilo mbili", "Red Onions 1kg") == 2
    assert measured_count("sukari kilo mbili", "Mumias Sugar 2kg") is None  # its own pack: not a count


# options ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "options", "named"),
    [
        ("pampers size 4", ["Size 3 (60)", "Size 4 (52)", "Size 5 (44)"], "Size 4 (52)"),
        ("softcare xl", ["Small (64)", "Medium (58)", "Large (50)", "XL (44)"], "XL (44)"),
        ("diapers za softcare large", ["Small (64)", "Medium (58)", "Large (50)", "XL (44)"], "Large (50)"),
        ("dawa ya kikohozi kikavu ya benylin", ["Dry Cough", "Chesty Cough"], "Dry Cough"),
        ("benylin chesty", ["Dry Cough", "Chesty Cough"], "Chesty Cough"),
        ("pedi za always ndefu", ["Normal", "Long", "Extra Long"], "Long"),
        ("always ultra extra long", ["Normal", "Long", "Extra Long"], "Extra Long"),
        ("tracksuit ya mtoto wa miaka 5-7", ["Age 2-4", "Age 5-7", "Age 8-10"], "Age 5-7"),
        ("braiding hair colour 1b", ["1B Black", "Brown 30", "Burgundy"], "1B Black"),
        ("knotless za mgongoni katikati", ["Shoulder", "Mid-back", "Waist"], "Mid-back"),
        ("the blue one", ["Black", "Blue", "Light Blue"], "Blue"),
        ("any colour is fine", ["Black", "Blue"], None),
    ],
)
def test_an_option_said_in_other_words(text: str, options: list[str], named: str | None) -> None:
    assert named_option(text, options) == named


def test_swahili_words_in_english_with_their_class_prefixes_and_places() -> None:
    assert in_english("kikohozi kikavu") == "cough dry"
    assert in_english("nywele ndefu mrefu") == "hair long long"
    assert in_english("mgongoni") == "back"
    assert in_english("samsung galaxy") == "samsung galaxy"


# coupon codes -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "shop_codes", "code"),
    [
        ("hii blackfriday25 inafanya kwa simu?", ["BLACKFRIDAY25"], "BLACKFRIDAY25"),
        ("nitumie POA10 kwa hii oda", ["POA10"], "POA10"),
        ("I have the KARIBU15 code, can I use it?", [], "KARIBU15"),
        ("karibu sana, nataka unga", ["KARIBU"], None),  # a code of plain letters counts in capitals only
        ("KARIBU! nataka unga", ["KARIBU"], "KARIBU"),
        ("any discount codes this week?", ["WELCOME10"], None),
        ("brc a142 mesh roll", [], None),
        ("ORD-7KP2X code", [], None),
    ],
)
def test_the_shops_own_codes_anywhere_and_a_code_before_the_word(
    text: str, shop_codes: list[str], code: str | None
) -> None:
    assert extract_coupon(text, shop_codes)[0] == code


# numbers of names and options -------------------------------------------------------------------------
def test_a_number_beside_its_word_in_a_name_or_option_is_not_a_count() -> None:
    name = "Mabati Box Profile Gauge 30 (3m)"
    assert count_in_name("gauge 30 box profile", 30, [name])
    assert count_in_name("nywele brown 30 pakiti tatu", 30, ["Brown 30", "Burgundy"])
    assert not count_in_name("30 bags of cement", 30, [name])
    assert not count_in_name("3 jbl go 3", 3, ["JBL Go 3 Portable Speaker"])  # said twice: once a count


def test_a_count_read_from_an_option_is_read_again(salon: CatalogIndex, hardware: CatalogIndex) -> None:
    delta = extract_delta("nywele za kusuka brown 30 pakiti tatu", zones=[], enabled_methods=[])
    recount(delta, "nywele za kusuka brown 30 pakiti tatu", salon)
    assert delta.quantity is not None
    assert delta.quantity.value == 3
    delta = extract_delta("gauge 30 box profile, charcoal grey colour", zones=[], enabled_methods=[])
    recount(delta, "gauge 30 box profile, charcoal grey colour", hardware)
    assert delta.quantity is None
    delta = extract_delta("30 bags of simba cement", zones=[], enabled_methods=[])
    recount(delta, "30 bags of simba cement", hardware)
    assert delta.quantity is not None
    assert delta.quantity.value == 30


def test_the_count_of_an_item_found() -> None:
    item = {"name": "Pampers Baby-Dry Diapers", "variants": [{"name": "size", "options": ["Size 3 (60)", "Size 4"]}]}
    assert count_for(item, 3, normalize("pampers size 3 pakiti tatu")) == 3  # "tatu", not the size
    assert count_for(item, 3, normalize("pampers size 3")) is None
    nails = {"name": "Wire Nails 4 inch 1kg", "variants": []}
    assert count_for(nails, None, "5kg of 4 inch wire nails") == 5


# finding the one item -----------------------------------------------------------------------------------
def test_a_part_naming_only_options_describes_the_item_before_it(hardware: CatalogIndex) -> None:
    items = listed_items("gauge 30 box profile, charcoal grey colour", hardware)
    assert items == []  # one item, not a list of two
    assert hardware.only_options("charcoal grey colour")
    assert not hardware.only_options("claw hammer")


def test_of_names_that_fit_the_one_within_the_others_is_named(grocer: CatalogIndex) -> None:
    results = [
        {"item_id": "GR-EGG-01", "name": "Kienyeji Eggs Tray (30)", "brand": "", "variants": []},
        {"item_id": "GR-EGG-02", "name": "Eggs Tray (30)", "brand": "", "variants": []},
    ]
    named, fitting = find_wish("tray of eggs", results, grocer)
    assert named is not None
    assert named["item_id"] == "GR-EGG-02"
    assert len(fitting) == 2


def test_a_measure_of_packs_does_not_stop_a_clear_match(hardware: CatalogIndex) -> None:
    results = [
        {"item_id": "HW-NAI-02", "name": "Wire Nails 4 inch 1kg", "variants": []},
        {"item_id": "HW-NAI-01", "name": "Wire Nails 3 inch 1kg", "variants": []},
    ]
    named = one_clear_match("5kg of 4 inch wire nails", results, hardware.terms)
    assert named is not None
    assert named["item_id"] == "HW-NAI-02"


def test_a_measure_fits_items_sold_in_packs_of_it(grocer: CatalogIndex, hardware: CatalogIndex) -> None:
    assert grocer.full_matches("tomatoes 2kg")[0] == ["GR-VEG-01"]  # two of the 1 kg
    assert hardware.full_matches("roto tank 1000l")[0] == ["HW-PLB-03"]  # not the 5000 L
    assert grocer.search("tomatoes 2kg", limit=1).hits[0].item_id == "GR-VEG-01"  # not "Potatoes 2kg"


# places and plurals -----------------------------------------------------------------------------------
def test_a_place_a_zone_name_lists_or_an_area_without_town_is_that_zone() -> None:
    zones = [("Rongai", ["Rongai Town"]), ("Kiserian & Ngong", ["Kiserian", "Ngong Town"])]
    assert extract_zone("mnaleta ngong?", zones)[0] == "Kiserian & Ngong"
    assert extract_zone("niletee rongai", zones)[0] == "Rongai"
    assert extract_zone("deliver to karen", zones)[0] is None


def test_a_swahili_plural_is_its_singular() -> None:
    folding = Folding({"tap": ["mfereji"]})
    assert folding.terms("mifereji mitatu")[0] == "tap"
    assert folding.terms("vigoda")[0] == "stool"  # the general lexicon has kigoda only
    assert folding.terms("minimal") == ["minimal"]


def test_a_swahili_verb_is_read_by_its_root_and_until_is_no_word_of_a_question() -> None:
    from tulia.search.text import terms

    assert terms("mnaleta mpaka saa ngapi?") == ["delivery", "time"]  # m-na-leta: you bring
    assert terms("until what time do you deliver?") == ["time", "delivery"]
    assert terms("nataka simu") == ["phone"]  # "nataka" is no verb of a shop word


def test_a_payer_fits_by_the_masked_number_or_its_hash() -> None:
    import hashlib

    from tulia.payments.reconcile import payer_fits

    assert payer_fits("2547 ***** 126", ["+254712345126"])
    assert not payer_fits("2547 ***** 126", ["+254712345127"])
    assert not payer_fits("2541 ***** 126", ["+254712345126"])
    assert payer_fits(hashlib.sha256(b"254712345126").hexdigest(), ["+254712345126"])
    assert not payer_fits(hashlib.sha256(b"254712345126").hexdigest(), ["+254700000000"])
    assert payer_fits("", ["+254700000000"])  # money kept before payers were recorded
    assert not payer_fits("2547 ***** 126", [])


# found on the trades tuning set (a butchery and a solar shop, issue 30) ---------------------------------------
def test_a_word_after_promo_is_a_code_only_when_it_looks_like_one_or_is_the_shops() -> None:
    assert extract_coupon("no more promo messages please")[0] is None
    assert extract_coupon("stop the promo texts")[0] is None
    assert extract_coupon("promo code save10 please")[0] == "SAVE10"
    assert extract_coupon("code KARIBU")[0] == "KARIBU"
    assert extract_coupon("code karibu", ["KARIBU"])[0] == "KARIBU"  # the shop's own, typed in lowercase


def test_an_item_sold_by_the_metre_is_counted_in_metres() -> None:
    assert measured_count("20 metres of red solar cable", "Solar Cable 6mm (per metre)") == 20
    assert measured_count("waya mita kumi", "Solar Cable 6mm (per metre)") == 10
    assert measured_count("200m of twin and earth", "Twin and Earth Cable 2.5mm (100m)") == 2
    assert measured_count("a 5m tape", "Measuring Tape 5m") is None  # its own measure


def test_a_payment_request_that_did_not_come_names_the_prompt() -> None:
    from tulia.nlu.frame_extract import extract_method

    assert extract_method("sijapata ombi la kulipa kwa simu", ["mpesa_stk", "mpesa_c2b"])[0] == "mpesa_stk"
    assert extract_method("sijapata ombi la malipo", ["mpesa_stk"])[0] == "mpesa_stk"


@pytest.mark.parametrize("said", ["I'll pick it at the gym", "ntapitia reception", "i will pass by the studio"])
def test_ways_of_saying_she_will_collect_are_pickup(said: str) -> None:
    from tulia.nlu.frame_extract import extract_mode

    assert extract_mode(normalize(said))[0] == "pickup"


def test_a_swahili_verb_made_of_a_word_the_shop_writes_is_that_word() -> None:
    folding = Folding(shop_text=["Home Personal Training", "Document Printing", "Kevin trains you at home"])
    assert "training" in folding.terms("kevin anaweza kunitrain home")  # "to train me": the shop's Training
    assert "printing" in folding.terms("nataka kuprint cv yangu")
    assert folding.terms("kuzungumza") == ["kuzungumza"]  # a Swahili verb of no word the shop writes stays itself
    assert Folding().terms("kunitrain") == ["kunitrain"]  # without the shop's words nothing is guessed


def test_a_thing_of_her_story_in_the_part_of_her_wish_is_not_the_thing_she_wants() -> None:
    bathrooms = index_of("eval/packs/bafu-bora")
    said = (
        "Hello, I would like the wash basin with pedestal. "
        "The old one's angle valve sits low on the wall, not the floor"
    )
    basin, valve = said.index("wash basin"), said.index("angle valve")
    tags = [
        Span("ITEM", "add", "wash basin", basin, basin + 10),
        Span("ITEM", "hers", "angle valve", valve, valve + 11),
    ]
    assert [item.named for item in listed_items(said, bathrooms, tags, [])] == ["wash basin"]
    # read as wanted both, the last thing of the part is the one she names (the tagger's act decides)
    both = [Span("ITEM", "add", "wash basin", basin, basin + 10), Span("ITEM", "add", "angle valve", valve, valve + 11)]
    assert [item.named for item in listed_items(said, bathrooms, both, [])] == ["angle valve"]


def test_a_thing_read_as_replaced_is_wished_unless_it_is_a_line_of_her_basket(grocer: CatalogIndex) -> None:
    said = "2 Mumias sugar and 1 Festive bread"
    sugar, bread = said.index("Mumias sugar"), said.index("Festive bread")
    tags = [
        Span("ITEM", "add", "Mumias sugar", sugar, sugar + 12),
        Span("ITEM", "old", "Festive bread", bread, bread + 13),
    ]
    # nothing in her basket: nothing she can replace, so the bread is wished (a later pick never takes it out)
    assert [item.act for item in listed_items(said, grocer, tags, [])] == ["add", "add"]
    # the bread in her basket: the tagger's "old" has its proof
    assert "old" in [item.act for item in listed_items(said, grocer, tags, ["Festive White Bread 400g"])]
