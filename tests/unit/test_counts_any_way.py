"""How a count is read whatever its shape (issue 30, seventh session; found by the grammar of counts and measures
over every tuning shop, ``scripts/make_quantity_grammar.py``): "one" before a noun, Swahili verbs of asking in
any person, a count after a measure that has its amount, a pack word before a weight, tens in Swahili, pieces of
items sold in packs, and a slash inside a name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script
from tulia.domain.shop_words import REQUEST_VERBS, STOPWORDS
from tulia.graph.journeys.sale_common import count_for
from tulia.nlu.basket_words import items_said
from tulia.nlu.frame_extract import extract_quantity, measures_in_digits, named_option
from tulia.nlu.lexicon import normalize
from tulia.search.measures import packs_of_pieces, pieces_per_pack

ROOT = Path(__file__).resolve().parents[2]


def count(message: str) -> int | None:
    said, _spans = extract_quantity(measures_in_digits(normalize(message)))
    return said.value if said is not None else None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("one claw hammer", 1),
        ("nipe one bulb", 1),
        ("hi, one pair of scissors", 1),
        ("the black one", None),  # the pronoun, not a count
        ("this one please", None),
        ("one of them", None),
        ("which one is cheaper", None),
        ("one minute", None),
        ("boss nipatie 3 claw hammers", 3),
        ("mnipatie 2 bulbs", 2),
        ("uniuzie mbili", 2),
        ("sukari 1 kg sita", 6),  # "1 kg" has its amount: "sita" counts packs
        ("wire nails ya 1 kg mbili", 2),
        ("body lotion ya robo lita tano", 5),
        ("maziwa nusu lita mbili", 2),
        ("lita tano", None),  # a measure, not a count
        ("dry maize bag 90 kg x5", 5),  # "bag 90 kg" is the bag's weight
        ("nipe mayai sitini", 60),
        ("seventy bricks", 70),
        ("naomba two-burner gas cooker mbili", 2),  # "two-burner" is the cooker's name
        ("three-piece suit", None),
    ],
)
def test_counts_said_in_any_shape(message: str, expected: int | None) -> None:
    assert count(message) == expected


def test_verbs_of_asking_are_built_from_roots_in_every_person_and_never_item_words() -> None:
    for verb in ("nipatie", "niletee", "mniletee", "unipatie", "nipatieni", "niuzie", "nitafutie", "nipakulie"):
        assert verb in REQUEST_VERBS
        assert verb in STOPWORDS
    assert not {"nini", "nikiwa", "ninja", "nice"} & REQUEST_VERBS


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("Eggs (tray of 30)", 30),
        ("Kienyeji Eggs Tray (30)", 30),
        ("Mandazi (dozen)", 12),
        ("Wood Screws Box (200)", 200),
        ("Oral Rehydration Salts (10 sachets)", 10),
        ("Mineral Water 500ml (24 pack)", 24),
        ("Side Mirrors (pair)", 2),
        ("Kitenge (6 yards)", None),  # a length, not pieces
        ("Full Body Massage (60 min)", None),
        ("Dry Maize Bag (90kg)", None),
        ("Snack Platter for 20", None),
    ],
)
def test_an_item_that_is_a_pack_of_pieces_says_how_many(name: str, size: int | None) -> None:
    assert pieces_per_pack(name) == size


def item(name: str) -> dict[str, object]:
    return {"item_id": "X", "name": name, "variants": []}


@pytest.mark.parametrize(
    ("name", "said", "words", "expected"),
    [
        ("Eggs (tray of 30)", 60, "eggs 60", 2),
        ("Eggs (tray of 30)", 3, "3 trays of eggs", 3),
        ("Eggs (tray of 30)", 60, "60 trays of eggs", 60),  # trays said: trays
        ("Eggs (tray of 30)", 12, "a dozen eggs", None),  # fills no tray: asked
        ("Eggs (tray of 30)", 65, "65 eggs", None),
        ("Stoney 350ml (pack of 12)", 24, "2 dozen stoney", 2),
        ("Wood Screws Box (200)", 600, "600 wood screws box", 3),  # "box" is the item's own word
        ("Wood Screws Box (200)", 600, "600 wood screws", 3),
        ("Wood Screws Box (200)", 2, "2 boxes of wood screws", 2),
    ],
)
def test_pieces_of_an_item_sold_in_packs_are_counted_in_packs(
    name: str, said: int, words: str, expected: int | None
) -> None:
    assert count_for(item(name), said, normalize(words)) == expected


def test_pieces_are_packs_only_when_they_fill_whole_packs() -> None:
    assert packs_of_pieces(60, "Eggs (tray of 30)") == 2
    assert packs_of_pieces(20, "Eggs (tray of 30)") is None
    assert packs_of_pieces(45, "Eggs (tray of 30)") is None


def test_a_slash_inside_a_name_does_not_cut_a_list() -> None:
    parts = [p.text for p in items_said("thinkpad core i5 16gb/512gb x5 and hp charger x3", lambda _words: True)]
    assert parts == ["thinkpad core i5 16gb 512gb x5", "hp charger x3"]
    assert len(items_said("unga 2kg x2 / 3 sukari", lambda _words: True)) == 2  # a slash before a count still is


def test_gm_is_grams_in_an_option() -> None:
    assert named_option("ghee 250gm", ["250g", "500g"]) == "250g"


def test_the_generated_grammar_set_is_what_its_script_writes() -> None:
    written = (ROOT / "eval" / "generated" / "quantities.txt").read_text(encoding="utf-8")
    assert load_script("make_quantity_grammar").render() == written, (
        "run scripts/make_quantity_grammar.py after changing it or the packs"
    )
    assert "moto-gas|" not in written  # the second blind set's own shops are left out
    assert "tamu-bakery|" not in written


def test_an_item_whose_name_is_said_whole_is_found_though_another_word_said_is_a_kind() -> None:
    from tulia.packs.loader import load_pack
    from tulia.search.catalog_index import CatalogIndex

    butchery = load_pack(ROOT / "eval" / "packs" / "butchery")
    index = CatalogIndex(butchery.catalog, butchery.tenant.vocabulary.root)
    # "beef" is a kind (the Beef category) but Beef Liver 1kg is of the offal: its whole name was said
    assert index.search("maini beef 1kg").hits[0].item_id == "NB-BEF-04"
    assert index.search("beef 1kg").hits[0].item_id != "NB-BEF-04"  # beef alone is still the kind beef
    shop = load_pack(ROOT / "packs" / "demo-shop")
    laptops = CatalogIndex(shop.catalog, shop.tenant.vocabulary.root).search("dell laptop")
    assert laptops.hits[0].item_id.startswith("LP-")  # not the Dell laptop charger: its name has more than was said


def test_the_generated_swahili_names_set_is_what_its_script_writes() -> None:
    written = (ROOT / "eval" / "generated" / "swahili-names.txt").read_text(encoding="utf-8")
    assert load_script("make_swahili_names").render() == written, (
        "run scripts/make_swahili_names.py after changing it, the lexicon or the packs"
    )
    assert "moto-gas|" not in written
    assert "tamu-bakery|" not in written
