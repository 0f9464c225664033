"""Understanding measured on labelled phrase sets (eval/phrases/): intent, slots and search, per pack
and per language, on the held-out set and on the tuning set (so that over-fitting shows).

Method, for each labelled message, as a first message of a conversation (nothing pending):
- intent: the fast path first (STOP, START, a person, a language: what the graph does before any
  engine), else the engine's intent (``RulesEngine`` by default); opt-out/opt-in/language count as
  ``preferences_consent`` and a request for a person as ``human_request``.
- slots: the order frame's extractors (quantity, zone, mode, method, coupon, order reference) over the
  shop's zones and methods, and the engine's budget slots. A message is right when every labelled
  slot is read with its value and none of quantity, coupon_code, order_ref, budget_min, budget_max is
  read where none was said (zone, mode and method are checked only where labelled).
- search (messages with acceptable item ids): the query the sales journey would search with (the
  message minus what the extractors read, product words only) and its budget filters, through the
  ``catalog_search`` tool (limit 6) against moto; success at 1 when the first result is acceptable,
  at 6 when any of the six is. Stock is not filtered: finding the item asked for is the search's
  job, and saying it is out of stock (with what is in stock) the journey's.

    .venv/bin/python bench/understanding.py [heldout|tuning|all] [--misses]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services
from bench.phrases import Phrase, load_phrases
from tulia.graph.frame import ShopOptions
from tulia.nlu.fastpath import fast_path
from tulia.nlu.frame_extract import extract_delta, residual_words
from tulia.nlu.rules import RulesEngine, product_query
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

ROOT = Path(__file__).resolve().parents[1]
FAST_INTENT = {"opt_out": "preferences_consent", "opt_in": "preferences_consent", "language": "preferences_consent"}
FAST_INTENT["human"] = "human_request"
ALWAYS_CHECKED = ("quantity", "coupon_code", "order_ref", "budget_min", "budget_max")


@dataclass
class Tally:
    intent: list[bool] = field(default_factory=list)
    slots: list[bool] = field(default_factory=list)
    at1: list[bool] = field(default_factory=list)
    at6: list[bool] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("intent", "slots", "at1", "at6"):
            getattr(self, name).extend(getattr(other, name))

    @staticmethod
    def pct(values: list[bool]) -> str:
        return f"{100 * sum(values) / len(values):.0f}% ({sum(values)}/{len(values)})" if values else "-"

    def row(self, label: str) -> str:
        p = self.pct
        return f"| {label} | {p(self.intent)} | {p(self.slots)} | {p(self.at1)} | {p(self.at6)} |"


def read_slots(text: str, options: ShopOptions, engine_slots: Any) -> tuple[dict[str, str], Any]:
    delta = extract_delta(text, zones=options.zones, enabled_methods=list(options.methods))
    said: dict[str, str] = {}
    if delta.quantity is not None:
        said["quantity"] = str(delta.quantity.value)
    for key, value in (
        ("zone", delta.zone),
        ("mode", delta.mode),
        ("method", delta.method),
        ("coupon_code", delta.coupon_code),
        ("order_ref", delta.order_ref),
        ("budget_min", engine_slots.budget_min),
        ("budget_max", engine_slots.budget_max),
    ):
        if value is not None:
            said[key] = str(value)
    return said, delta


def evaluate(services: Any, phrases: list[Phrase], misses: list[str]) -> dict[tuple[str, str], Tally]:
    engine = RulesEngine()
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for phrase in phrases:
        tenant = services.tenants.get(phrase.pack)
        index = services.catalog_indexes.get(phrase.pack, tenant.catalog_version)
        options = ShopOptions.of(tenant)
        tally = tallies[(phrase.pack, phrase.lang)]
        hit = fast_path(phrase.text, awaiting_answer=False)
        understood = engine.understand(phrase.text, catalog=index)
        intent = FAST_INTENT.get(hit.kind, understood.intent) if hit is not None else understood.intent
        tally.intent.append(intent == phrase.intent)
        if intent != phrase.intent:
            misses.append(f"intent  {phrase.source}:{phrase.line} {phrase.text!r}: {intent} (want {phrase.intent})")
        said, delta = read_slots(phrase.text, options, understood.slots)
        checked = set(phrase.slots) | set(ALWAYS_CHECKED)
        got = {k: v for k, v in said.items() if k in checked}
        tally.slots.append(got == phrase.slots)
        if got != phrase.slots:
            misses.append(f"slots   {phrase.source}:{phrase.line} {phrase.text!r}: {got} (want {phrase.slots})")
        if phrase.items:
            query = product_query(residual_words(phrase.text, delta))
            filters: dict[str, Any] = {}  # the item asked for, in stock or not: the journey tells which
            if understood.slots.budget_max:
                filters["max_price"] = understood.slots.budget_max
            if understood.slots.budget_min:
                filters["min_price"] = understood.slots.budget_min
            ctx = ToolContext(tenant_id=phrase.pack, request_id="eval", conversation_id="eval", services=services)
            args = {"tenant_id": phrase.pack, "request_id": "eval", "conversation_id": "eval"}
            result = call_tool("catalog_search", {**args, "query": query, "filters": filters, "limit": 6}, ctx)
            ids = [r["item_id"] for r in result["data"]["results"]] if result["ok"] else []
            tally.at1.append(bool(ids) and ids[0] in phrase.items)
            tally.at6.append(any(i in phrase.items for i in ids))
            if not (ids and ids[0] in phrase.items):
                misses.append(f"search  {phrase.source}:{phrase.line} {phrase.text!r} -> {query!r}: {ids}")
    return tallies


def report(name: str, tallies: dict[tuple[str, str], Tally]) -> None:
    print(f"\n### {name}\n")
    print("| slice | intent | slots | search at 1 | search at 6 |")
    print("|---|---:|---:|---:|---:|")
    total, by_pack, by_lang = Tally(), defaultdict(Tally), defaultdict(Tally)
    for (pack, lang), tally in sorted(tallies.items()):
        total.add(tally)
        by_pack[pack].add(tally)
        by_lang[lang].add(tally)
    for pack, tally in sorted(by_pack.items()):
        print(tally.row(pack))
    for lang, tally in sorted(by_lang.items()):
        print(tally.row(f"language {lang}"))
    print(total.row(f"**all {name}**"))


def main(which: str = "all", show_misses: bool = False) -> None:
    from tulia.observability import logger

    logger.setLevel("WARNING")  # the tool-call lines
    names = ["heldout", "tuning"] if which == "all" else [which]
    sets = {name: load_phrases(name) for name in names}
    packs = sorted({p.pack for phrases in sets.values() for p in phrases})
    with bench_services() as bench:
        services = bench.services
        for pack in packs:
            seed_pack(services, load_pack(PACKS / pack))
        print("## Understanding on the labelled phrase sets (rules engine)")
        for name, phrases in sets.items():
            misses: list[str] = []
            report(f"{name} ({len(phrases)} messages)", evaluate(services, phrases, misses))
            if show_misses:
                print("\n" + "\n".join(misses))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(args[0] if args else "all", "--misses" in sys.argv)
