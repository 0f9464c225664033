"""The labelled phrase sets of eval/phrases/: one customer message a line,
``pack | language | intent | message | slots | acceptable item ids``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PHRASES = Path(__file__).resolve().parents[1] / "eval" / "phrases"
SETS = ("heldout", "tuning")
INTENTS = frozenset(
    {
        "sales_discovery",
        "product_question",
        "support_question",
        "order_status",
        "discounts_offers",
        "preferences_consent",
        "payment_help",
        "human_request",
        "spam_casual",
        "unknown",
    }
)
SLOT_KEYS = frozenset({"quantity", "zone", "mode", "method", "coupon_code", "order_ref", "budget_min", "budget_max"})
LANGUAGES = frozenset({"en", "sw", "sheng"})


@dataclass(frozen=True)
class Phrase:
    source: str
    line: int
    pack: str
    lang: str
    intent: str
    text: str
    slots: dict[str, str]
    items: tuple[str, ...]


def load_phrases(name: str) -> list[Phrase]:
    """One labelled message a line: pack | language | intent | message | slots | item ids."""
    out = []
    path = PHRASES / f"{name}.txt"
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.split("|")]
        if len(parts) != 6:
            raise ValueError(f"{path.name}:{number}: expected 6 fields, got {len(parts)}")
        pack, lang, intent, text, slots, items = parts
        pairs = dict(pair.split("=", 1) for pair in slots.split())
        out.append(
            Phrase(
                name,
                number,
                pack,
                lang,
                intent,
                text,
                {k: v.replace("_", " ") if k == "zone" else v for k, v in pairs.items()},
                tuple(items.split()),
            )
        )
    return out
