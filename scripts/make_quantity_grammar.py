"""Write ``eval/generated/quantities.txt``: counts and measures said in many shapes, over every tuning pack.

A grammar, not a list of remembered phrases: for each product of each tuning pack it says a count (digits,
English words, Swahili words agreeing with the pack word) and the item's measure (its name's "2kg" or a size
option) in the orders and forms customers type them in English, Swahili and Sheng, with the label the
project's convention gives (a measure that is the item's own is its name, not a count; "one X" is a count of
one). It checks the quantity and option reading across shops the hand-written sets cover by a handful of
messages each. The packs of the second blind set (gas, bakery) are left out: tuning for what that set shows
is done on other shops.

The output is deterministic (a fixed seed); it is tuning data (misses listed by ``bench/understanding.py
grammar``), never the reader's corpus (it is templated, its intents all alike).

    .venv/bin/python scripts/make_quantity_grammar.py
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))

from tulia.domain.catalog import CatalogItem  # noqa: E402
from tulia.evaluation import NOT_TRAINED_ON  # noqa: E402
from tulia.packs.loader import load_pack  # noqa: E402
from tulia.search.measures import pieces_per_pack  # noqa: E402

OUT = ROOT / "eval" / "generated" / "quantities.txt"
SEED = 30

EN = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 10: "ten"}
SW = {1: "moja", 2: "mbili", 3: "tatu", 4: "nne", 5: "tano", 6: "sita", 10: "kumi"}
# Swahili counts agree with the noun class of the pack word before them
VI = {1: "kimoja", 2: "viwili", 3: "vitatu", 4: "vinne", 5: "vitano", 6: "sita", 10: "kumi"}
MI = {1: "mmoja", 2: "miwili", 3: "mitatu", 4: "minne", 5: "mitano", 6: "sita", 10: "kumi"}
SW_PACKS = [("pakiti", SW, "za"), ("vipande", VI, "vya"), ("mifuko", MI, "ya")]
EN_PACKS = ["pieces", "pcs", "packets", "units"]

_MEASURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(kg|g|ml|l|litres?|m)(?!\w)", re.IGNORECASE)


def measure_of(text: str) -> tuple[float, str] | None:
    m = _MEASURE.search(text)
    if m is None:
        return None
    unit = m.group(2).lower()
    unit = "l" if unit.startswith("litre") else unit
    return float(m.group(1)), unit


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def measure_sw(value: float, unit: str) -> str:
    """The measure as a Swahili speaker says it: 'kilo mbili', 'nusu lita', 'robo kilo', 'lita tano'."""
    if unit == "g" and value in (500, 250):
        return "nusu kilo" if value == 500 else "robo kilo"
    if unit == "ml" and value in (500, 250):
        return "nusu lita" if value == 500 else "robo lita"
    word = {"kg": "kilo", "l": "lita", "m": "mita"}.get(unit)
    if word is None or value != int(value) or int(value) not in SW:
        return f"{_num(value)}{unit}"
    return f"{word} {SW[int(value)]}"


def measure_digits(value: float, unit: str, rng: random.Random) -> str:
    unit_said = {
        "kg": ["kg", "kgs", " kg"],
        "l": ["L", "l", " litres", "ltr"],
        "g": ["g", "gm", " grams"],
        "ml": ["ml", " ml"],
        "m": ["m", " metres"],
    }[unit]
    return f"{_num(value)}{rng.choice(unit_said)}"


SW_COLOURS = {
    "black": "nyeusi",
    "white": "nyeupe",
    "blue": "blue",
    "red": "nyekundu",
    "green": "kijani",
    "pink": "pinki",
    "silver": "silver",
    "gold": "gold",
    "grey": "grey",
    "brown": "brown",
}


def option_said(dim: str, value: str, lang: str, rng: random.Random) -> str:
    """An option as a customer types it: a colour in her language, a size with its word ("size M", "saizi 42")."""
    plain = value.lower()
    if dim.lower() in ("colour", "color") and plain in SW_COLOURS and lang != "en":
        return rng.choice([SW_COLOURS[plain], f"rangi {SW_COLOURS[plain]}"])
    if dim.lower() in ("size", "waist"):
        word = {"en": ["size", dim.lower()], "sw": ["saizi", "size"]}[lang if lang == "en" else "sw"]
        return f"{rng.choice(word)} {value}"
    return plain


def base_name(item: CatalogItem) -> str:
    """The name without its measure and bracketed notes: what a customer calls it."""
    name = re.sub(r"\([^)]*\)", " ", item.name)
    name = _MEASURE.sub(" ", name)
    return re.sub(r"\s+", " ", name).strip().lower()


def short_names(item: CatalogItem) -> list[str]:
    base = base_name(item)
    out = [base]
    if item.brand and item.brand.lower() in base and base != item.brand.lower():
        rest = base.replace(item.brand.lower(), " ").split()
        if rest:
            out.append(" ".join(rest))
    return out


def size_options(item: CatalogItem) -> tuple[str, list[str]] | None:
    for dim in item.variants:
        values = [o.value for o in dim.options]
        if len(values) > 1 and all(measure_of(v) for v in values):
            return dim.name, values
    return None


def _unique(items: list[CatalogItem], item: CatalogItem, name: str) -> bool:
    """No other product's name holds all of these words: the message names this item."""
    words = set(name.split())
    return not any(o.item_id != item.item_id and words <= set(base_name(o).split()) for o in items)


def lines_for(pack: str, items: list[CatalogItem], item: CatalogItem, rng: random.Random) -> list[str]:
    names = [n for n in short_names(item) if n and _unique(items, item, n)]
    if not names:
        return []
    own = measure_of(item.name)
    sizes = size_options(item)
    out: list[str] = []

    def add(lang: str, labels: str, text: str) -> None:
        out.append(f"{pack}|{lang}|sales_discovery|want={item.item_id}{labels}|{text}")

    size = pieces_per_pack(item.name)
    if size is not None:  # a pack of pieces: pieces that fill packs are packs, packs said are packs
        name = rng.choice(names)
        packs = rng.choice([1, 2, 3])
        if packs > 1 or size > 2:
            add("en", f";qty={packs}", rng.choice([f"{size * packs} {name}", f"{name} {size * packs} pieces"]))
        add("sw", f";qty={packs}", f"nipe {rng.choice(['pakiti', 'paketi'])} {SW[packs]} za {name}")
        return out
    for _ in range(2):
        name = rng.choice(names)
        count = rng.choice([2, 3, 4, 5, 6, 10])
        pack_sw, class_words, of = rng.choice(SW_PACKS)
        if own is not None:
            m_en = measure_digits(*own, rng)
            m_sw = rng.choice([measure_sw(*own), measure_digits(*own, rng)])
            en = [
                f"{count} {name} {m_en}",
                f"{name} {m_en} x{count}",
                f"{EN[count]} {name} {m_en} please",
                f"I want {count} of the {m_en} {name}",
                f"{name} {m_en}, {count} {rng.choice(EN_PACKS)}",
            ]
            sw = [
                f"nipe {name} ya {m_en} {SW[count]}",
                f"nataka {pack_sw} {class_words[count]} {of} {name} {m_sw}",
                f"{name} ya {m_sw} {pack_sw} {class_words[count]}",
                f"naomba {SW[count]} za {name} {m_en}",
            ]
            sheng = [
                f"boss nipatie {name} {m_en} {SW[count]}",
                f"niaje, nataka {count} {name} za {m_sw}",
            ]
            add("en", f";qty={count}", rng.choice(en))
            add("sw", f";qty={count}", rng.choice(sw))
            add("sheng", f";qty={count}", rng.choice(sheng))
            add(*rng.choice([("en", "", f"{name} {m_en}"), ("sw", "", f"nipe {name} ya {m_sw}")]))
        elif sizes is not None:
            dim, values = sizes
            value = rng.choice(values)
            v = measure_of(value)
            assert v is not None
            m_en = measure_digits(*v, rng)
            m_sw = rng.choice([measure_sw(*v), measure_digits(*v, rng)])
            option = f";option={dim}:{value}"
            add(
                "en",
                f";qty={count}{option}",
                rng.choice([f"{count} {name} {m_en}", f"{EN[count]} {m_en} {name}", f"{name} {m_en} x{count}"]),
            )
            add(
                "sw",
                f";qty={count}{option}",
                rng.choice(
                    [
                        f"nipe {name} {SW[count]} za {m_sw}",
                        f"{name} ya {m_sw} {SW[count]}",
                        f"nataka {pack_sw} {class_words[count]} {of} {name} {m_sw}",
                    ]
                ),
            )
            add("sheng", f";qty={count}{option}", f"boss nipatie {name} {SW[count]} za {m_en}")
            add(*rng.choice([("en", option, f"{name} {m_en}"), ("sw", option, f"nipe {name} ya {m_sw}")]))
        elif item.variants:  # options that are not measures: colours, sizes, prints, storage
            dims = rng.sample(item.variants, min(len(item.variants), rng.choice([1, 2])))
            chosen = [(d.name, rng.choice(d.options).value) for d in dims]
            option = ";option=" + ",".join(f"{d}:{v}" for d, v in chosen)
            en_opts = " ".join(option_said(d, v, "en", rng) for d, v in chosen)
            sw_opts = " ".join(option_said(d, v, "sw", rng) for d, v in chosen)
            add(
                "en",
                f";qty={count}{option}",
                rng.choice(
                    [
                        f"{count} {name} {en_opts}",
                        f"{EN[count]} {name}, {en_opts}",
                        f"{name} {en_opts} x{count}",
                        f"I need {count} {name} in {en_opts}",
                    ]
                ),
            )
            add(
                "sw",
                f";qty={count}{option}",
                rng.choice(
                    [
                        f"nipe {name} {sw_opts} {SW[count]}",
                        f"nataka {name} {SW[count]} {sw_opts}",
                        f"{name} {sw_opts}, {pack_sw} {class_words[count]}",
                    ]
                ),
            )
            add("sheng", f";qty={count}{option}", f"boss nipatie {count} {name} {sw_opts}")
        else:
            add(
                "en",
                f";qty={count}",
                rng.choice(
                    [
                        f"{count} {name}",
                        f"{EN[count]} {name} please",
                        f"{name} x{count}",
                        f"{name}, {count} {rng.choice(EN_PACKS)}",
                    ]
                ),
            )
            add("sw", f";qty={count}", rng.choice([f"nipe {name} {SW[count]}", f"naomba {name} {SW[count]}"]))
            add("sheng", f";qty={count}", f"boss nipatie {count} {name}")
            add(*rng.choice([("en", ";qty=1", f"one {name}"), ("sw", ";qty=1", f"nipe {name} moja")]))
    return out


def said_alone(items: list[CatalogItem], item: CatalogItem, rng: random.Random) -> str | None:
    """A name for ``item`` inside a list: its shortest unique name, with its measure when its name has one ("jogoo
    maize flour 2kg"); an item with options or sold in packs of pieces is left out (checked alone)."""
    if item.variants or pieces_per_pack(item.name):
        return None
    names = [n for n in short_names(item) if n and _unique(items, item, n)]
    if not names:
        return None
    own = measure_of(item.name)
    return min(names, key=len) + (f" {measure_digits(*own, rng)}" if own else "")


def list_lines(pack: str, items: list[CatalogItem], rng: random.Random) -> list[str]:
    """Several items in one message, each with its count, in the ways lists are typed."""
    named = [(i, n) for i in items if (n := said_alone(items, i, rng)) is not None]
    out: list[str] = []
    for _ in range(10):
        if len(named) < 2:
            break
        parts = rng.sample(named, rng.choice([2, 2, 3]) if len(named) > 2 else 2)
        if any(set(a.split()) & set(b.split()) for (_, a), (_, b) in itertools.combinations(parts, 2)):
            continue  # names sharing a word make the list ambiguous
        counts = [rng.choice([1, 2, 3, 4, 5]) for _ in parts]
        labels = ",".join(f"{i.item_id}*{c}" for (i, _), c in zip(parts, counts, strict=True))
        lang = rng.choice(["en", "sw", "sheng"])
        if lang == "en":
            said = [
                rng.choice([f"{c} {n}", f"{EN[c]} {n}", f"{n} x{c}"]) for (_, n), c in zip(parts, counts, strict=True)
            ]
            text = rng.choice([", ".join(said[:-1]) + " and " + said[-1], "; ".join(said), ", ".join(said)])
            text = rng.choice(["", "I want ", "please send ", "hi, I need "]) + text
        else:
            said = [rng.choice([f"{n} {SW[c]}", f"{c} {n}"]) for (_, n), c in zip(parts, counts, strict=True)]
            text = ", ".join(said[:-1]) + " na " + said[-1]
            text = (
                rng.choice(
                    ["nipe ", "naomba ", "nataka ", "boss niletee "]
                    if lang == "sw"
                    else ["niaje, nipatie ", "boss nisort na "]
                )
                + text
            )
        out.append(f"{pack}|{lang}|sales_discovery|items={labels}|{text}")
    return out


def render() -> str:
    """The whole file, as written (deterministic)."""
    rng = random.Random(SEED)
    lines: list[str] = []
    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    for directory in dirs:
        if directory.name in NOT_TRAINED_ON or not (directory / "tenant.yaml").exists():
            continue
        pack = load_pack(directory)
        products = [i for i in pack.catalog if i.type == "product" and i.active and i.max_per_order != 1]
        chosen = rng.sample(products, min(8, len(products)))
        for item in sorted(chosen, key=lambda i: i.item_id):
            lines += lines_for(pack.tenant.tenant_id, pack.catalog, item, rng)
        lines += list_lines(pack.tenant.tenant_id, products, rng)
    header = [line.rstrip() for line in (__doc__ or "").strip().splitlines()[:9]]
    return "\n".join([*(f"# {h}".rstrip() for h in header), *lines]) + "\n"


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = render()
    OUT.write_text(text, encoding="utf-8")
    print(f"{sum(1 for line in text.splitlines() if not line.startswith('#'))} messages -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
