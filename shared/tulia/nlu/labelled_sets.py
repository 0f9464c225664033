"""The labelled message sets' file formats (``eval/phrases/*.txt``, the blind sets and the tuning sets in
their format): read by the reader's corpus and by ``tulia eval``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class EvalSetInvalid(ValueError):
    """An eval file that cannot be read; the message names the file and the place."""


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


def load_phrases(path: Path) -> list[Phrase]:
    """One labelled message a line: ``pack | language | intent | message | slots | item ids``."""
    out = []
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
                path.stem,
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


@dataclass(frozen=True)
class BlindPhrase:
    pack: str
    lang: str
    intent: str  # the spec's intents, or "booking" (with labels["action"])
    labels: dict[str, str]
    text: str

    @property
    def expected_route(self) -> str:
        """What the product should do first: the intent, or a change of a booking already made."""
        if self.intent != "booking":
            return self.intent
        return "booking_change" if self.labels.get("action") in ("move", "cancel", "list") else "sales_discovery"

    @property
    def wanted(self) -> str | None:
        if "want" in self.labels:
            return self.labels["want"]
        if "items" in self.labels:
            return self.labels["items"].split(",")[0].split("*")[0]
        return None


def load_blind(path: Path) -> list[BlindPhrase]:
    """``pack | lang | intent | key=value;... | message`` a line (see the file's header)."""
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.split("|", 4)
        if len(parts) != 5:
            raise EvalSetInvalid(f"{path.name}:{number}: expected 5 fields")
        pack, lang, intent, labels, text = (p.strip() for p in parts)
        pairs = {} if labels == "-" else dict(kv.split("=", 1) for kv in labels.split(";"))
        out.append(BlindPhrase(pack, lang, intent, pairs, text))
    return out
