"""Conversation turns: model calls, DynamoDB calls, checkpoint size and turn time.

Runs a fixed set of WhatsApp conversations (English, Swahili, Sheng: sales to each payment method,
order status, support, offers and coupons, consent, casual chat, spam, handoff, topic switches)
through the checkpointed graph against moto in process, with the Daraja and PesaPal simulators:

- on the ``bedrock`` engine driven by a counting scripted chat model: model calls per turn
  (fast-path turns vs the others);
- on the ``rules`` engine: DynamoDB calls per turn (tools and checkpointer both counted with
  botocore event hooks) and in-process turn time;
- one thread of 50 turns: the size of its latest checkpoint and of everything stored for it.

    .venv/bin/python bench/conversation_turns.py
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, Bench, CallCounter, bench_services, describe
from tulia.config import Settings
from tulia.graph.conversation import Conversations, dynamodb_checkpointer
from tulia.llm.prompts import user_message_of
from tulia.llm.scripted import Answer, Responder, ScriptedChatModel
from tulia.nlu.bedrock import bedrock_engine
from tulia.nlu.rules import RulesEngine
from tulia.nlu.types import CatalogWords
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack

CONVERSATIONS: dict[str, list[str]] = {
    "sw sale to M-Pesa prompt": [
        "Nataka simu ya Samsung",
        "1",
        "Blue",
        "128GB",
        "niletee Kilimani",
        "1",
        "ndiyo",
        "imepita?",
    ],
    "en sale, pickup, paybill": ["do you have oraimo power banks?", "1", "Black", "I will pick it up", "paybill"],
    "en sale, card link": ["I need a laptop under 60k", "1", "deliver to Westlands, Sarit Centre", "card"],
    "sheng sale": ["niaje, niko na budget ya 3k ya earphones", "1", "nitachukua dukani", "1", "sawa"],
    "order status": ["where is my order?", "status of ORD-ABCDE"],
    "support then escalation": ["How are refunds paid?", "Do you repair drones on Sundays?", "yes", "hello?"],
    "offers and a coupon": ["any offers?", "oraimo power bank", "1", "white", "pickup", "apply code WELCOME10"],
    "consent": ["STOP", "START", "kiswahili please", "nataka kununua kitu"],
    "casual then spam": ["hi", "how are you?", "tell me a joke", "click here to earn money http://x.example"],
    "topic switch and odd input": ["samsung phone", "where is my order?", "😀😀", "", "x" * 10_000],
}
LONG_THREAD = [
    "hi", "I want a samsung phone", "1", "Black", "128GB", "pickup", "any offers?", "where is my order?",
    "How are refunds paid?", "oraimo power bank", "2",
]  # fmt: skip


def rules_responder(catalog: CatalogWords | None = None) -> Responder:
    """Stand-in model answers for counting model calls per turn over many conversations (a benchmark
    of call counts, not of understanding: the engine's tests use hand-written answers)."""

    engine = RulesEngine()

    def respond(node: str, prompt: str) -> Answer:
        u = engine.understand(user_message_of(prompt), catalog=catalog)
        if node == "classify_turn":
            return json.dumps(
                {
                    "intent_classify": {
                        "intent": u.intent,
                        "confidence": u.intent_confidence,
                        "notes": u.notes,
                        "suggested_journey": u.journey,
                    },
                    "language_policy": {
                        "response_language": u.language,
                        "confidence": u.language_confidence,
                        "should_ask_language_question": False,
                    },
                    "governor_spam_casual": {
                        "classification": u.governor,
                        "confidence": u.governor_confidence,
                        "recommended_action": "proceed" if u.governor == "business" else "redirect",
                    },
                }
            )
        if node == "sales_narrow_query":
            if not u.slots.query:
                question = "Unatafuta nini hasa?" if u.language in ("sw", "sheng") else "What are you looking for?"
                return json.dumps({"action": "clarify", "question": question, "options": []})
            return json.dumps(
                {
                    "action": "search",
                    "query": u.slots.query,
                    "filters": {"type": "any", "max_price": u.slots.budget_max, "min_price": u.slots.budget_min},
                    "limit": 6,
                }
            )
        raise AssertionError(f"no recorded answer for node {node!r}")

    return respond


_ids = itertools.count(1)


def send(conversations: Conversations, phone: str, body: str) -> Any:
    inbound = {"type": "text", "text": body, "message_id": f"wamid.bench{next(_ids)}"}
    return conversations.handle(tenant_id="demo-shop", phone_e164=phone, inbound=inbound)


def seeded_bench(b: Bench) -> None:
    for name in ("demo-shop", "demo-salon"):
        seed_pack(b.services, load_pack(PACKS / name))


class _BothShops:
    """The two demo shops' words together (the stand-in answers do not know which shop is asked)."""

    def __init__(self, b: Bench) -> None:
        self.indexes = [
            b.services.catalog_indexes.get(t, b.services.tenants.get(t).catalog_version)
            for t in ("demo-shop", "demo-salon")
        ]
        self.product_terms = set().union(*(i.product_terms for i in self.indexes))
        self.kinds = set().union(*(i.kinds for i in self.indexes))

    def terms(self, text: str) -> list[str]:
        return list(dict.fromkeys(t for i in self.indexes for t in i.terms(text)))


def llm_calls_per_turn(b: Bench) -> None:
    model = ScriptedChatModel(responder=rules_responder(_BothShops(b)))
    engine = bedrock_engine(Settings(), models={"classifier": model, "writer": model})
    conversations = Conversations(
        b.services, engine, dynamodb_checkpointer("bench-checkpoints", region_name="eu-west-1")
    )
    fast: list[int] = []
    other: list[int] = []
    for n, (_name, turns) in enumerate(CONVERSATIONS.items()):
        for body in turns:
            before = len(model.calls)
            result = send(conversations, f"+2547110{n:05d}", body)
            made = len(model.calls) - before
            classified = any(e.get("node") == "intent_classify" and e.get("kind") == "node" for e in result.trace)
            (other if classified else fast).append(made)
    every = fast + other
    print("## Model calls per turn (bedrock engine, counting scripted model)\n")
    print(f"- turns: {len(every)} ({len(fast)} decided by the fast path, {len(other)} classified)")
    print(f"- fast-path turns: max {max(fast)} calls (target 0)")
    print(f"- other turns: max {max(other)} calls (target at most 2), average {statistics.fmean(other):.2f}")
    print(f"- all turns: average {statistics.fmean(every):.2f} calls\n")


def dynamodb_and_time_per_turn(b: Bench) -> None:
    checkpointer = dynamodb_checkpointer("bench-checkpoints", region_name="eu-west-1")
    saver_counter = CallCounter(checkpointer.client)
    conversations = Conversations(b.services, RulesEngine(), checkpointer)
    calls: list[int] = []
    checkpoint_calls: list[int] = []
    times: list[float] = []
    for _round in range(3):  # warm: three rounds of every conversation, fresh customers each round
        for n, (_name, turns) in enumerate(CONVERSATIONS.items()):
            phone = f"+2547220{_round}{n:04d}"
            for body in turns:
                b.counter.reset()
                saver_counter.reset()
                started = time.perf_counter()
                send(conversations, phone, body)
                times.append((time.perf_counter() - started) * 1000)
                calls.append(b.counter.total + saver_counter.total)
                checkpoint_calls.append(saver_counter.total)
    print("## DynamoDB calls per turn (rules engine; tools and checkpointer)\n")
    print(f"- turns: {len(calls)}; average {statistics.fmean(calls):.2f}, max {max(calls)} (target average <= 12)")
    print(
        f"- of which the checkpointer: average {statistics.fmean(checkpoint_calls):.2f}, max {max(checkpoint_calls)}\n"
    )
    print("## In-process turn time (rules engine, moto in process)\n")
    print(f"- {describe(times)}\n")


def checkpoint_size(b: Bench) -> None:
    checkpointer = dynamodb_checkpointer("bench-checkpoints", region_name="eu-west-1")
    conversations = Conversations(b.services, RulesEngine(), checkpointer)
    phone = "+254733000050"
    result = None
    for body in itertools.islice(itertools.cycle(LONG_THREAD), 50):
        result = send(conversations, phone, body)
    assert result is not None
    thread = result.state["conversation_id"]
    # a benchmark may scan: find every item the saver stored for this thread, by kind
    items = [i for i in _scan_all(checkpointer.client, "bench-checkpoints") if thread in i["PK"]["S"]]
    by_kind: dict[str, list[int]] = {}
    for item in items:
        by_kind.setdefault(item["PK"]["S"].split("_", 1)[0], []).append(_item_bytes(item))
    latest = checkpointer.get_tuple({"configurable": {"thread_id": thread}})
    _kind, payload = checkpointer.serde.dumps_typed(latest.checkpoint)
    print("## Checkpoint size after 50 turns (one thread)\n")
    print(f"- latest checkpoint, serialised: {len(payload) / 1024:.1f} KB (target < 64 KB)")
    print(f"- message window kept in state: {len(result.state['messages'])} messages")
    for kind, sizes in sorted(by_kind.items()):
        print(f"- stored {kind} items: {len(sizes)}, {sum(sizes) / 1024:.1f} KB, largest {max(sizes) / 1024:.1f} KB")
    print("  (history of every turn, removed by the table's TTL)\n")


def _scan_all(client: Any, table: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    kwargs: dict[str, Any] = {"TableName": table}
    while True:
        page = client.scan(**kwargs)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _item_bytes(item: dict[str, Any]) -> int:
    """DynamoDB item size: attribute names plus values."""
    total = 0
    for name, value in item.items():
        total += len(name.encode())
        ((kind, raw),) = value.items()
        total += len(raw) if kind == "B" else len(str(raw).encode())
    return total


def main() -> None:
    with bench_services() as b:
        seeded_bench(b)
        b.services.daraja.token(b.services.payment_config.mpesa_credentials)
        llm_calls_per_turn(b)
        dynamodb_and_time_per_turn(b)
        checkpoint_size(b)


if __name__ == "__main__":
    main()
