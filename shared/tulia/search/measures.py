"""Measures said of items sold in packs of a measure: "2 kg" of "Wire Nails 1kg" is two of its packs,
"20 metres" of "Solar Cable 6mm (per metre)" twenty. Pure functions of digits and units (a measure said in
words is turned into digits by the understanding layer first)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tulia.domain.shop_words import fold

# the names of an area ("24 square feet", "sq ft", "futi za mraba", "m2"), each of its kind
_SQUARE_FEET = ("square feet", "square foot", "sq feet", "sq ft", "sqft", "ft2", "futi za mraba", "futi mraba")
_SQUARE_METRES = (
    "square metres", "square meters", "square metre", "square meter", "sq metres", "sq m", "sqm", "m2", "mita za mraba",
    "mita mraba",
)  # fmt: skip
AREA_NAMES = tuple(sorted((*_SQUARE_FEET, *_SQUARE_METRES), key=len, reverse=True))  # "sq ft" is no "ft"
_AREA_ALT = "|".join(re.escape(a).replace(r"\ ", r"\s+") for a in AREA_NAMES)
# a weight, volume, length or area in digits with its unit ("2 kg", "500ml", "20 metres", "24 sq ft")
MEASURE = re.compile(
    rf"(?<![\w.])(\d{{1,4}}(?:\.\d+)?)\s*({_AREA_ALT}|kg|kgs|kilo|kilos|g|gm|gms|gramu|grams|l|litre|litres|liter|"
    r"liters|lita|ltr|ml|m|metre|metres|meter|meters|mita|ft|feet|foot|futi)(?!\w)"
)
# an item sold by the measure ("Solar Cable 6mm (per metre)", "Beef per kg") is sold in packs of one of it
_PER_MEASURE = re.compile(rf"(?<!\w)per\s+({_AREA_ALT}|kg|kilo|litre|liter|l|metre|meter|m|foot|feet|ft)(?!\w)")
_UNIT_BASE = dict.fromkeys(("kg", "kgs", "kilo", "kilos"), ("g", 1000)) | dict.fromkeys(
    ("g", "gm", "gms", "gramu", "grams"), ("g", 1)
)
_UNIT_BASE |= dict.fromkeys(("l", "litre", "litres", "liter", "liters", "lita", "ltr"), ("ml", 1000)) | {
    "ml": ("ml", 1)
}
_UNIT_BASE |= dict.fromkeys(("m", "metre", "metres", "meter", "meters", "mita"), ("mm", 1000))
_UNIT_BASE |= dict.fromkeys(("ft", "feet", "foot", "futi"), ("ft", 1))  # feet never as metres: no whole packs
_UNIT_BASE |= dict.fromkeys(_SQUARE_FEET, ("sqft", 1)) | dict.fromkeys(_SQUARE_METRES, ("sqm", 1))


def _unit(said: str) -> tuple[str, float] | None:
    return _UNIT_BASE.get(re.sub(r"\s+", " ", said))


def measure_kind(term: str) -> str | None:
    """The base unit of one measure in digits ("2l", "500 ml": "ml"; "1kg": "g"), ``None`` when it is none."""
    said = MEASURE.fullmatch(term.strip().casefold())
    base = _unit(said.group(2)) if said else None
    return base[0] if base else None


def _plain(text: str) -> str:
    return re.sub(r"[^\w\s.]", " ", fold(text))  # the decimal point of "1.5L" kept


def _amounts(said_in_digits: str, item_name: str) -> tuple[float, float, bool] | None:
    """The one measure said and the item's own, in one base unit, and whether the item is sold per measure
    ("Cable (per metre)"); None when either is not one measure or they are of different kinds."""
    said = MEASURE.findall(said_in_digits.casefold())
    name = _plain(item_name)
    per_measure = [("1", unit) for unit in _PER_MEASURE.findall(name)]
    own = per_measure or MEASURE.findall(name)
    if len(said) != 1 or len(own) != 1:
        return None
    (said_value, said_unit), (own_value, own_unit) = said[0], own[0]
    said_base, own_base = _unit(said_unit), _unit(own_unit)
    if said_base is None or own_base is None or said_base[0] != own_base[0]:
        return None
    return float(said_value) * said_base[1], float(own_value) * own_base[1], bool(per_measure)


def packs_of(said_in_digits: str, item_name: str) -> int | None:
    """How many packs of ``item_name`` the one measure in ``said_in_digits`` is: "2 kg" of "Wire Nails 1kg"
    is 2, "3 litres" of "Fresha Milk 1L" 3, "20 metres" of "Cable (per metre)" 20. ``None`` when the measure
    is the item's own ("2kg" of "Jogoo Maize Flour 2kg"; but "1 litre" of "Bleach (per litre)" is 1), of another
    kind, or does not divide into packs."""
    amounts = _amounts(said_in_digits, item_name)
    if amounts is None:
        return None
    said_amount, own_amount, per_measure = amounts
    if own_amount <= 0 or (said_amount == own_amount and not per_measure):
        return None  # "2kg" of "Jogoo 2kg" is its size; "1 litre" of "Bleach (per litre)" is one of it
    packs = said_amount / own_amount
    return int(packs) if packs == int(packs) and (1 if per_measure else 2) <= packs <= 1000 else None


def packs_of_an_option(said_in_digits: str, options: Sequence[str]) -> tuple[str, int] | None:
    """The one measure said as packs of the largest option that makes it whole, of a thing that comes in packs of
    several measures ("kilo mbili" of 100g, 250g, 500g or 1kg: two of the 1kg), as a shopkeeper packs it; None when
    it is one of the options, says no measure, or no option of its kind makes it whole."""
    said = MEASURE.findall(said_in_digits.casefold())
    if len(said) != 1 or (base := _unit(said[0][1])) is None:
        return None
    amount = float(said[0][0]) * base[1]
    sizes: list[tuple[float, str]] = []
    for option in options:
        own = MEASURE.findall(_plain(option))
        own_base = _unit(own[0][1]) if len(own) == 1 else None
        if own_base is None or own_base[0] != base[0]:
            continue
        sizes.append((float(own[0][0]) * own_base[1], option))
    if not sizes or any(size == amount for size, _option in sizes):
        return None
    for size, option in sorted(sizes, reverse=True):
        packs = amount / size
        if size > 0 and packs == int(packs) and 2 <= packs <= 1000:
            return option, int(packs)
    return None


def is_own_measure(said_in_digits: str, item_name: str) -> bool:
    """Whether the one measure said is the item's own: "1 litre" of "Bleach (per litre)", "2kg" of "Jogoo Maize
    Flour 2kg"."""
    amounts = _amounts(said_in_digits, item_name)
    return amounts is not None and amounts[0] == amounts[1]


# an item that is a pack of pieces says how many in its name: "Eggs (tray of 30)", "Smokies (pack of 10)",
# "Mandazi (dozen)", "Wood Screws Box (200)", "Oral Rehydration Salts (10 sachets)", "Water 500ml (24 pack)"
_PACK_OF = re.compile(
    r"\(\s*(?:(?:pack|packet|box|tray|crate|carton|case|set|bundle|bag|tin|jar|tub|bale)\s+of\s+(\d{1,4})|"
    r"(\d{1,4})(?:\s*(?:pack|pcs|pieces|sachets|tablets|capsules|bottles|cans|rolls|sticks))?|"
    r"(half\s+dozen|dozen|pair))\s*\)"
)
_NAMED_SIZES = {"dozen": 12, "half dozen": 6, "pair": 2}


def pieces_per_pack(item_name: str) -> int | None:
    """How many pieces one of ``item_name`` holds, when its name says so (see ``_PACK_OF``); else None."""
    m = _PACK_OF.search(re.sub(r"\s+", " ", fold(item_name)))
    if m is None:
        return None
    if m.group(3):
        return _NAMED_SIZES[m.group(3)]
    size = int(m.group(1) or m.group(2))
    return size if size >= 2 else None


def packs_of_pieces(count: int, item_name: str) -> int | None:
    """``count`` pieces of an item sold in packs, as packs, when they fill whole packs ("60 eggs" of "Eggs
    (tray of 30)" is 2, "2 dozen" (24) of "Stoney 350ml (pack of 12)" is 2); None otherwise."""
    size = pieces_per_pack(item_name)
    if size is None or count < size or count % size:
        return None
    return count // size


# a piece's two sides ("5ft by 4ft", "2 x 1.5 ft", "futi 4 kwa 3", "24 by 36 inches"): the area of one piece of a
# thing sold by the area; a side without its unit is in the other side's, else in the shop's own (feet, metres)
_SIDE = r"(\d{1,3}(?:\.\d+)?)\s*(ft|feet|foot|futi|inches|inch|inchi|in|cm|mm|m|metres|metre|meters|meter|mita)?"
_SIDES = re.compile(rf"(?<![\w.]){_SIDE}\s*(?:by|x|kwa|\*)\s*{_SIDE}(?![\w.])")
_SIDE_IN = {  # a side's unit in the length of the area it makes (square feet: feet; square metres: metres)
    "sqft": dict.fromkeys(("ft", "feet", "foot", "futi"), 1.0)
    | dict.fromkeys(("in", "inch", "inches", "inchi"), 1 / 12),
    "sqm": dict.fromkeys(("m", "metre", "metres", "meter", "meters", "mita"), 1.0) | {"cm": 0.01, "mm": 0.001},
}
_NATIVE_SIDE = {"sqft": "ft", "sqm": "m"}
MOST_OF_A_MEASURE = 100_000  # more than any shop's stock of feet or square feet: no quantity


def sold_by(item_name: str) -> tuple[str, float] | None:
    """The measure an item is sold by, as its base unit and how many of it one is ("(per foot)": ("ft", 1);
    "per kg": ("g", 1000); "(per sq ft)": ("sqft", 1)); None for an item sold by the piece or the pack."""
    per = _PER_MEASURE.findall(_plain(item_name))
    return _unit(per[0]) if len(per) == 1 else None


def _area_of_each(said: str, kind: str) -> float | None:
    areas = set()
    for m in _SIDES.finditer(said):
        units = {u for u in (m.group(2), m.group(4)) if u}
        if len(units) > 1 and not units <= _SIDE_IN[kind].keys():
            return None
        unit = next(iter(units), _NATIVE_SIDE[kind])
        if unit not in _SIDE_IN[kind]:
            return None  # "20 by 30 cm" of a glass sold by the square foot: asked, not guessed
        side_a = float(m.group(1)) * _SIDE_IN[kind].get(m.group(2) or unit, 0.0)
        side_b = float(m.group(3)) * _SIDE_IN[kind].get(m.group(4) or unit, 0.0)
        areas.add(side_a * side_b)
    return areas.pop() if len(areas) == 1 else None


def measured_quantity(
    said_in_digits: str, item_name: str, pieces: int | None, options: Sequence[str] = ()
) -> int | None:
    """How much of an item sold by a measure ("(per foot)", "(per sq ft)", "per kg") a message says, in that
    measure: the whole said ("futi 140", "24 square feet"), or its pieces times each piece's ("vipande 14 vya futi
    10": 140 feet; "2 mirrors of 4ft by 3ft": 24 square feet; "6 panes each 2ft by 1.5ft": 18). ``pieces`` is the
    count read from the same words, if any; a measure that is one of its ``options`` is that option ("polythene ya
    upana wa mita 8, mita 30": 30 metres of the 8m wide). None when the item is sold by the piece, nothing of its
    measure is said, what is said disagrees ("futi 100, vipande 14 vya futi 10") or makes no whole number of it."""
    sold = sold_by(item_name)
    if sold is None:
        return counted_per_piece(said_in_digits, item_name)
    kind, one = sold
    text = said_in_digits.casefold()
    own = {
        (base[0], float(value) * base[1])
        for o in options
        for value, unit in MEASURE.findall(_plain(o))
        if (base := _unit(unit))
    }
    wholes = sorted(
        {
            float(value) * base[1] / one
            for value, unit in MEASURE.findall(text)
            if (base := _unit(unit)) and base[0] == kind and (kind, float(value) * base[1]) not in own
        }
    )
    each = _area_of_each(text, kind) if kind in _SIDE_IN else None
    many = pieces if pieces is not None and pieces >= 2 else 1
    if kind not in _SIDE_IN and len(wholes) == 2 and pieces is not None and wholes[1] == wholes[0] * pieces:
        amount = wholes[1]  # "futi 140, yaani vipande 14 vya futi 10"
    elif len(wholes) > 1:
        return None
    elif wholes and each is not None:
        amount = wholes[0]  # "2 of 4 by 3, so 24 square feet": the whole she counted
        if amount != each * many:
            return None
    elif wholes:
        # one measure with a count of pieces beside it is each piece's ("14 pieces of 10 feet"); the count that
        # is the measure itself ("20 metres" read as 20) is the whole
        amount = wholes[0] * many if kind not in _SIDE_IN and many != wholes[0] else wholes[0]
    elif each is not None:
        amount = each * many
    else:
        return None
    whole = round(amount)
    return whole if abs(amount - whole) < 1e-6 and 1 <= whole <= MOST_OF_A_MEASURE else None


def says_a_measure(said_in_digits: str) -> bool:
    """Whether the words say a measure or a piece's two sides ("3 panes of 3ft by 2ft", "futi 10" as "10 futi")."""
    text = said_in_digits.casefold()
    return MEASURE.search(text) is not None or _SIDES.search(text) is not None


# an item priced per a thing that is counted, not measured ("Photocopy (per page)", "Lamination (per sheet)",
# "Buffet (per person)"): "200 pages" of it is 200 of it
_PER_PIECE = re.compile(r"(?<!\w)per\s+([a-z]{3,})(?!\w)")


def counted_per_piece(said_in_digits: str, item_name: str) -> int | None:
    """How many of an item priced per a counted thing the words say ("photocopy 200 pages" of "Photocopy (per
    page)": 200); None when the item is priced by the piece or a measure, or the words count no such thing."""
    per = _PER_PIECE.findall(_plain(item_name))
    if len(per) != 1 or _unit(per[0]) is not None:
        return None
    word = per[0]
    forms = {word, f"{word}s", f"{word}es"} | ({f"{word[:-1]}ies"} if word.endswith("y") else set())
    alternatives = "|".join(sorted(map(re.escape, forms), key=len, reverse=True))
    counted = re.compile(rf"(?<![\w.])(\d{{1,5}})\s*(?:{alternatives})(?!\w)")
    said = {int(m.group(1)) for m in counted.finditer(fold(said_in_digits))}
    if len(said) != 1:
        return None
    many = said.pop()
    return many if 1 <= many <= MOST_OF_A_MEASURE else None
