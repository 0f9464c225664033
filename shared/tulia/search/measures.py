"""Measures said of items sold in packs of a measure: "2 kg" of "Wire Nails 1kg" is two of its packs,
"20 metres" of "Solar Cable 6mm (per metre)" twenty. Pure functions of digits and units (a measure said in
words is turned into digits by the understanding layer first)."""

from __future__ import annotations

import re

from tulia.domain.shop_words import fold

# a weight, volume or length in digits with its unit ("2 kg", "500ml", "20 metres")
MEASURE = re.compile(
    r"(?<![\w.])(\d{1,4}(?:\.\d+)?)\s*(kg|kgs|kilo|kilos|g|gm|gms|gramu|grams|l|litre|litres|liter|liters|lita|ltr|ml|"
    r"m|metre|metres|meter|meters|mita)(?!\w)"
)
# an item sold by the measure ("Solar Cable 6mm (per metre)", "Beef per kg") is sold in packs of one of it
_PER_MEASURE = re.compile(r"(?<!\w)per\s+(kg|kilo|litre|liter|l|metre|meter|m)(?!\w)")
_UNIT_BASE = dict.fromkeys(("kg", "kgs", "kilo", "kilos"), ("g", 1000)) | dict.fromkeys(
    ("g", "gm", "gms", "gramu", "grams"), ("g", 1)
)
_UNIT_BASE |= dict.fromkeys(("l", "litre", "litres", "liter", "liters", "lita", "ltr"), ("ml", 1000)) | {
    "ml": ("ml", 1)
}
_UNIT_BASE |= dict.fromkeys(("m", "metre", "metres", "meter", "meters", "mita"), ("mm", 1000))


def measure_kind(term: str) -> str | None:
    """The base unit of one measure in digits ("2l", "500 ml": "ml"; "1kg": "g"), ``None`` when it is none."""
    said = MEASURE.fullmatch(term.strip().casefold())
    base = _UNIT_BASE.get(said.group(2)) if said else None
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
    said_base, own_base = _UNIT_BASE.get(said_unit), _UNIT_BASE.get(own_unit)
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
