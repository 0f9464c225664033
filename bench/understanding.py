"""Understanding measured on labelled sets (``tulia eval`` with the rules engine: the same code,
``shared/tulia/evaluation.py``): the blind held-out set (``eval/blind/heldout.txt``, figures only),
the tuning phrase sets (``eval/phrases/``, misses listed) and the conversations; then the reader's
speed and size, and the model engine's calls per turn with and without the reader's short cut.

Method, for each labelled message, as a first message of a conversation (nothing pending):
- intent: the fast path first (STOP, START, a person, a language: what the graph does before any
  engine), else the engine's intent; opt-out/opt-in/language count as ``preferences_consent`` and a
  request for a person as ``human_request``. On the blind set, a change of a booking already made (the
  graph's own test) counts as ``booking_change``, and "route" also counts product_question and
  sales_discovery as one (both are the sales journey).
- slots: the order frame's extractors (quantity, zone, method, coupon, order reference), the options
  of the wanted item, M-Pesa codes, language requests, day, time and staff of bookings; a message is
  right when every labelled slot is read with its value and no count, code or reference is read where
  none was said.
- search (messages naming an item): the query the sales journey would search with, through the
  ``catalog_search`` tool (limit 6); success at 1 when the first result is the item, at 6 when any is.
- reader latency: ``message_reader().read`` over every blind and tuning message, 5 rounds, p50/p95/max
  on this machine (2 cores); the artefact's size on disk.
- model calls per turn: the ``bedrock`` engine on a scripted model (every answer "order_status 0.95"),
  over the blind set and the conversations, with ``llm_reader_threshold`` 1.01 (the model reads every
  classified turn: before) and 0.70 (the reader answers the turns it is sure of: after).

    .venv/bin/python bench/understanding.py [blind|issue18|tuning|all]
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def packs() -> list:
    from tulia.packs.loader import load_pack

    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    return [load_pack(d) for d in dirs if (d / "tenant.yaml").exists()]


def reader_speed() -> None:
    from tulia.nlu.labelled_sets import load_blind, load_phrases
    from tulia.nlu.reader import WEIGHTS_FILE, load_weights, message_reader

    started = time.perf_counter()
    load_weights()
    load_ms = 1000 * (time.perf_counter() - started)
    texts = [p.text for p in load_blind(ROOT / "eval" / "blind" / "heldout.txt")]
    texts += [p.text for name in ("issue18", "tuning") for p in load_phrases(ROOT / "eval" / "phrases" / f"{name}.txt")]
    reader = message_reader()
    times = []
    for _ in range(5):
        for text in texts:
            t0 = time.perf_counter()
            reader.read(text)
            times.append(1000 * (time.perf_counter() - t0))
    times.sort()
    p95 = times[int(0.95 * len(times))]
    print("### the message reader\n")
    print(
        f"- {len(times)} reads: p50 {statistics.median(times):.3f} ms, p95 {p95:.3f} ms, max {times[-1]:.3f} ms; "
        f"weights loaded in {load_ms:.0f} ms"
    )
    print(f"- artefact {WEIGHTS_FILE.name}: {WEIGHTS_FILE.stat().st_size / 1000:.0f} KB\n")
    tagger_speed(texts)


def tagger_speed(texts: list[str]) -> None:
    """The token tagger alone and the reader and the tagger together, per message, with the demo grocer's words as
    the gazetteer (as a turn reads a message: one reading, one tagging)."""
    from tulia.nlu import tagger as tagging
    from tulia.nlu.reader import message_reader
    from tulia.packs.loader import load_pack
    from tulia.search.catalog_index import CatalogIndex

    started = time.perf_counter()
    tagging.load_weights()
    load_ms = 1000 * (time.perf_counter() - started)
    pack = load_pack(ROOT / "packs" / "demo-grocer")
    index = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    gazetteer = tagging.Gazetteer.of(**index.shop_words, zone_area=pack.tenant.delivery_places())
    tagger, reader = tagging.token_tagger(), message_reader()
    alone, both = [], []
    for _ in range(5):
        for text in texts:
            t0 = time.perf_counter()
            tagger.read(text, gazetteer)
            t1 = time.perf_counter()
            reader.read(text)
            t2 = time.perf_counter()
            alone.append(1000 * (t1 - t0))
            both.append(1000 * (t2 - t0))
    print("### the token tagger\n")
    for name, times in (("the tagger alone", alone), ("the reader and the tagger", both)):
        times.sort()
        print(
            f"- {name}, {len(times)} messages: p50 {statistics.median(times):.3f} ms, "
            f"p95 {times[int(0.95 * len(times))]:.3f} ms, max {times[-1]:.3f} ms"
        )
    size = tagging.WEIGHTS_FILE.stat().st_size / 1000
    print(f"- weights loaded in {load_ms:.0f} ms; artefact {tagging.WEIGHTS_FILE.name}: {size:.0f} KB\n")


def model_calls() -> None:
    from tulia.config import Settings
    from tulia.evaluation import run_eval
    from tulia.llm.scripted import ScriptedChatModel
    from tulia.nlu.bedrock import bedrock_engine

    answer = {
        "intent_classify": {"intent": "order_status", "confidence": 0.95, "notes": "", "suggested_journey": "orders"},
        "language_policy": {"response_language": "en", "confidence": 0.9, "should_ask_language_question": False},
        "governor_spam_casual": {"classification": "business", "confidence": 0.95, "recommended_action": "proceed"},
    }
    print("### model calls per turn, the bedrock engine on a scripted model\n")
    for label, threshold in (
        ("before (model reads every classified turn)", 1.01),
        ("after (reader sure >= 0.70)", 0.70),
    ):
        settings = Settings(llm="bedrock", llm_reader_threshold=threshold)
        model = ScriptedChatModel(responder=lambda node, message: json.dumps(answer))
        engine = bedrock_engine(settings, models={"classifier": model, "writer": model})
        result = run_eval(settings, packs(), ROOT / "eval", sets=("blind",), engine=engine, out=io.StringIO())
        print(
            f"- {label}: "
            + result.phrase_model.line("blind set")
            + "; "
            + result.conversation_model.line("conversations")
        )
    print()


def main(which: str = "all") -> None:
    from tulia.config import Settings
    from tulia.evaluation import SETS, run_eval

    sets = SETS if which == "all" else (which,)
    run_eval(Settings(llm="rules"), packs(), ROOT / "eval", sets=sets, out=sys.stdout)
    print()
    reader_speed()
    if which in ("all", "blind"):
        model_calls()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(args[0] if args else "all")
