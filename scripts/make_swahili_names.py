"""Write ``eval/generated/swahili-names.txt``: every tuning shop's products asked for by their Swahili names.

The general lexicon (``shared/tulia/search/lexicon.txt``) says which Swahili or Sheng words mean the English words
of a catalog; a customer says a product by those words, in the Swahili order (the thing first, what kind after:
"mkate brown", "unga wa mahindi Jogoo", "sufuria kubwa"), often with a verb of asking. This set names each
product of each tuning shop that way, once per word the lexicon has, and checks that the search finds it at the
top (``bench/understanding.py swnames``). The second blind set's own shops are left out.

The output is deterministic (a fixed seed); it is tuning data, never the reader's corpus.

    .venv/bin/python scripts/make_swahili_names.py
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))

from tulia.domain.catalog import CatalogItem  # noqa: E402
from tulia.domain.shop_words import STOPWORDS  # noqa: E402
from tulia.evaluation import NOT_TRAINED_ON  # noqa: E402
from tulia.packs.loader import load_pack  # noqa: E402
from tulia.search.text import in_english  # noqa: E402

OUT = ROOT / "eval" / "generated" / "swahili-names.txt"
LEXICON = ROOT / "shared" / "tulia" / "search" / "lexicon.txt"
SEED = 30
# words a name keeps as they are: units and measures, and what a customer says in English anyway
KEPT = {"inch", "litre", "liter", "kg", "gram", "grams", "metre", "meter", "mm", "ml", "pack", "set", "pair", "size"}
ASKING = ["", "nataka ", "nipe ", "naomba ", "mko na ", "niletee ", "boss nipatie ", "una "]
ENDINGS = ["", "", " tafadhali", " iko?", " ni bei gani"]


def swahili_of() -> dict[str, list[str]]:
    """English word or phrase (lowercase) -> the Swahili and Sheng words the lexicon lists for it that mean it and
    nothing else (a word of two senses, "bilauri" a drinking glass, is not said for "tempered glass")."""
    out: dict[str, list[str]] = {}
    for line in LEXICON.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        english, _, variants = line.partition("|")
        term = english.strip().lower()
        if term in KEPT or term in STOPWORDS:
            continue
        words = [v.strip() for v in variants.split(",") if v.strip() and in_english(v.strip()) == term]
        if words:
            out.setdefault(term, []).extend(words)
    return out


def words_of(item: CatalogItem) -> list[str]:
    name = re.sub(r"\([^)]*\)", " ", item.name)
    return re.findall(r"[a-z0-9][a-z0-9.'-]*", name.lower())


def swahili_name(item: CatalogItem, lexicon: dict[str, list[str]], rng: random.Random, brands: set[str]) -> str | None:
    """The item's name with its head (the last English word or phrase the lexicon knows, never its brand) said in
    Swahili and put first, the rest as written ("Brown Bread 400g": "mkate brown 400g"); None when the lexicon
    knows none of its words."""
    brand = set((item.brand or "").lower().split()) | brands  # "Apple" of a phone case is no fruit
    words = words_of(item)
    head: tuple[int, int] | None = None  # where the last known phrase is: (start, size)
    i = 0
    while i < len(words):
        for size in (3, 2, 1):
            phrase = " ".join(words[i : i + size])
            if len(words[i : i + size]) == size and phrase in lexicon and not brand & set(phrase.split()):
                head = (i, size)
                i += size
                break
        else:
            i += 1
    if head is None:
        return None
    start, size = head
    said = rng.choice(lexicon[" ".join(words[start : start + size])])
    return " ".join([said, *words[:start], *words[start + size :]])


def render() -> str:
    rng = random.Random(SEED)
    lexicon = swahili_of()
    lines: list[str] = []
    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    for directory in dirs:
        if directory.name in NOT_TRAINED_ON or not (directory / "tenant.yaml").exists():
            continue
        pack = load_pack(directory)
        brands = {w for i in pack.catalog for w in (i.brand or "").lower().split()}
        for item in pack.catalog:
            if not item.active:
                continue
            said = swahili_name(item, lexicon, rng, brands)
            if said is None:
                continue
            text = f"{rng.choice(ASKING)}{said}{rng.choice(ENDINGS)}".strip()
            lines.append(f"{pack.tenant.tenant_id}|sw|sales_discovery|want={item.item_id}|{text}")
    header = [line.rstrip() for line in (__doc__ or "").strip().splitlines()[:8]]
    return "\n".join([*(f"# {h}".rstrip() for h in header), *lines]) + "\n"


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = render()
    OUT.write_text(text, encoding="utf-8")
    print(f"{sum(1 for line in text.splitlines() if not line.startswith('#'))} messages -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
