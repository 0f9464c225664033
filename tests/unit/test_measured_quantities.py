"""Quantities of things sold by a measure (timber by the foot, glass by the square foot, nails by the kilo), read
from what a customer says: the whole she asks for, or her pieces times each piece's length or area."""

from __future__ import annotations

import pytest

from tulia.nlu.basket_words import quantity_by_measure
from tulia.nlu.frame_extract import named_option
from tulia.nlu.lexicon import normalize
from tulia.search.measures import measured_quantity, sold_by

TIMBER = "Cypress Timber (per foot)"
GLASS = "Clear Glass Cut to Size (per sq ft)"


@pytest.mark.parametrize(
    ("said", "item", "pieces", "quantity"),
    [
        ("vipande 14 vya futi kumi", TIMBER, 14, 140),
        ("12 lengths of 10ft", TIMBER, 12, 120),
        ("futi 140, yaani vipande 14 vya futi 10", TIMBER, 14, 140),  # the whole and its pieces agree
        ("futi 300", TIMBER, None, 300),
        ("300 feet", TIMBER, 300, 300),  # the count read is the measure itself
        ("mirror mbili za 4ft by 3ft", GLASS, 2, 24),
        ("6 panes each 2ft by 1.5ft", GLASS, 6, 18),
        ("a top of 4ft by 2.5ft", GLASS, None, 10),
        ("24 by 36 inches", GLASS, None, 6),
        ("two panels of 5 by 4, that's 40 square feet", GLASS, 2, 40),
        ("square feet 24", GLASS, None, 24),
        ("futi mraba 240", GLASS, None, 240),
        ("kilo tatu", "Roofing Nails (per kg)", None, 3),
        ("20 metres", "Solar Cable 6mm (per metre)", 20, 20),
    ],
)
def test_what_she_says_of_a_thing_sold_by_a_measure_is_counted_in_it(
    said: str, item: str, pieces: int | None, quantity: int
) -> None:
    assert quantity_by_measure(normalize(said), item, pieces) == quantity


@pytest.mark.parametrize(
    ("said", "item", "pieces"),
    [
        ("3", TIMBER, 3),  # no measure said: the count stays a count, asked or kept elsewhere
        ("futi 100, yaani vipande 14 vya futi 10", TIMBER, 14),  # the whole and the pieces disagree: asked
        ("20 by 30 inches", GLASS, 1),  # 4.17 square feet is no whole number of what is sold
        ("20 by 30 cm", GLASS, 1),  # a size in another system: asked, not guessed
        ("nusu kilo", "Beef (per kg)", None),  # half of what is sold by the kilo
        ("kilo tatu", "Wire Nails 1kg", 3),  # a pack of a measure is counted in packs elsewhere
        ("4ft by 3ft", "Hardboard 3mm 8x4", 2),  # sold by the sheet
    ],
)
def test_no_quantity_is_made_up_from_a_measure_that_does_not_fit(said: str, item: str, pieces: int | None) -> None:
    assert quantity_by_measure(normalize(said), item, pieces) is None


def test_what_an_item_is_sold_by_is_read_from_its_name() -> None:
    assert sold_by(TIMBER) == ("ft", 1)
    assert sold_by(GLASS) == ("sqft", 1)
    assert sold_by("Beef per kg") == ("g", 1000)
    assert sold_by("Treated Fencing Post") is None


@pytest.mark.parametrize(
    ("said", "chosen"),
    [
        ("sio kiln dried", "Standard"),
        ("not kiln dried please", "Standard"),
        ("sio standard", "Kiln Dried"),
        ("ya kawaida", "Standard"),
        ("not sure, kiln dried i guess", "Kiln Dried"),  # a doubt, not the option said away
    ],
)
def test_not_one_of_two_options_is_the_other(said: str, chosen: str) -> None:
    assert named_option(said, ["Standard", "Kiln Dried"], TIMBER) == chosen


def test_not_one_of_three_options_names_none() -> None:
    assert named_option("not the grey one", ["Bronze", "Grey", "Green"], "Tinted Glass") is None


@pytest.mark.parametrize(
    ("said", "chosen"),
    [
        ("half an acre", "1/2 Acre"),
        ("nusu eka", "1/2 Acre"),
        ("robo eka tu", "Up to 1/4 Acre"),
        ("one acre", "1 Acre"),
        ("I bought the half acre kit from you", "1/2 Acre"),
    ],
)
def test_a_half_or_a_quarter_said_in_words_is_the_option_written_as_a_fraction(said: str, chosen: str) -> None:
    assert named_option(said, ["Up to 1/4 Acre", "1/2 Acre", "1 Acre"], "Drip Irrigation Installation") == chosen


def test_half_of_a_litre_or_an_hour_is_still_its_measure() -> None:
    assert named_option("nusu lita", ["500ml", "1 Litre"], "Milk") == "500ml"
    assert named_option("nusu saa", ["30 minutes", "60 minutes"], "Massage") == "30 minutes"


@pytest.mark.parametrize(
    ("said", "name", "count"),
    [
        ("photocopy 200 pages", "Photocopy (per page)", 200),  # pages of a thing priced per page
        ("lamination 3 sheets", "Lamination (per sheet)", 3),
        ("print 12 copies", "Printing (per copy)", 12),  # "copies" of "per copy"
        ("buffet for 40 people", "Buffet (per person)", None),  # "people" is no plural of "person" here: asked
        ("photocopy 200 pages", "Photocopy A4", None),  # priced by the piece: the pages are no count of it
        ("20 metres", "Solar Cable (per metre)", 20),  # a measure stays a measure's
        ("200 pages and 30 pages", "Photocopy (per page)", None),  # two counts of it: asked
    ],
)
def test_a_thing_priced_per_a_counted_thing_is_counted_in_it(said: str, name: str, count: int | None) -> None:
    assert measured_quantity(said, name, None) == count
