"""No purchase goes to a person by a word list (issue 53): every purchase of the set below, at four shops (one that
sells wigs, a chemist, an agrovet, an electronics shop), as the first message of a conversation through the real
graph and the rules engine (moto in process); and requests for a person in the same words, which must still reach
one. Counted: tickets opened (a hand-over), and for the requests, tickets not opened.

The purchases are the set `tests/integration/test_word_lists_are_evidence.py` draws its Hypothesis examples from:
every item holding "human", "agent", "call", "owner", "medicine" or "dawa" in every frame of buying.

    .venv/bin/python bench/word_lists.py [--show]  # --show: each purchase handed to a person (not a blind set)
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services
from tulia.graph.conversation import Conversations, dynamodb_checkpointer
from tulia.nlu.rules import RulesEngine
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack

EVAL_PACKS = PACKS.parent / "eval" / "packs"
# purchases holding the words of the lists: what customers of a beauty shop, a chemist and an agrovet ask for
ITEMS = {
    "human": ["a human hair wig", "human hair extensions", "human hair weave ya inchi 18", "wig ya human hair"],
    "agent": ["a cleaning agent for tiles", "a bottle of rooting agent", "foaming agent ya kuosha gari"],
    "call": ["a phone with good call quality", "a call button for the gate", "headphones for calls"],
    "owner": ["the owner's manual for this blender", "a pet owner starter kit", "home owner tool kit"],
    "medicine": ["medicine for a cough", "cough medicine for my child", "dog medicine for ticks", "malaria medicine"],
    "dawa": ["dawa ya kikohozi", "dawa ya wadudu", "dawa ya mbu", "dawa ya minyoo ya mbuzi", "dawa ya kupe"],
}
FRAMES = [
    "I need {}", "do you have {}?", "nataka {}", "natafuta {}", "how much is {}", "mnauza {}?", "I want to buy {}",
    "niko na budget ya 2k ya {}", "{} iko?", "please send me {}", "nipe {} mbili", "looking for {} pls",
]  # fmt: skip
PERSON = [
    "I want to talk to a human", "nataka kuongea na mtu", "call me please", "the owner", "agent please",
    "my mpesa was deducted, call me", "is the owner around?", "niconnect na agent", "representative",
    "can a real person help me", "nipigie simu tafadhali", "nataka kuongea na mwenye duka",
]  # fmt: skip
SHOPS = {"urembo-cosmetics": "cosmetics", "afya-plus": "chemist", "shamba-bora": "agrovet", "demo-shop": None}


def main() -> None:
    from tulia.observability import logger

    logger.setLevel("WARNING")  # the counts, not a line per tool call
    started = time.monotonic()
    phones = itertools.count(711_400_000)
    with bench_services() as b:
        for tenant_id, folder in SHOPS.items():
            seed_pack(b.services, load_pack(EVAL_PACKS / folder if folder else PACKS / tenant_id))
        conversations = Conversations(
            b.services, RulesEngine(), dynamodb_checkpointer("bench-checkpoints", region_name="eu-west-1")
        )

        def opens_a_ticket(tenant_id: str, words: str) -> bool:
            """Whether this new customer's first message put her with a person (her ticket, on her record)."""
            phone = f"+254{next(phones)}"
            turn = conversations.handle(
                tenant_id=tenant_id, phone_e164=phone, inbound={"type": "text", "text": words, "message_id": phone}
            )
            return b.services.customers.get(tenant_id, turn.state["customer_id"]).handoff_ticket_id is not None

        purchases = [frame.format(item) for items in ITEMS.values() for item in items for frame in FRAMES]
        handed = dict.fromkeys(ITEMS, 0)
        show = "--show" in sys.argv  # not a blind set: the purchases handed over may be read
        for word, items in ITEMS.items():
            for tenant_id in SHOPS:
                for said in (frame.format(i) for i in items for frame in FRAMES):
                    if opens_a_ticket(tenant_id, said):
                        handed[word] += 1
                        if show:
                            print(f"  to a person at {tenant_id}: {said}")
        missed = sum(not opens_a_ticket(tenant_id, words) for tenant_id in SHOPS for words in PERSON)
    total = len(purchases) * len(SHOPS)
    print(f"| messages (each the first of a conversation, at {len(SHOPS)} shops) | sent | to a person |")
    print("|---|---:|---:|")
    for word, items in ITEMS.items():
        print(f'| purchases holding "{word}" | {len(items) * len(FRAMES) * len(SHOPS)} | {handed[word]} |')
    print(f"| **all purchases** | {total} | **{sum(handed.values())}** |")
    print(
        f"| requests for a person in those words | {len(PERSON) * len(SHOPS)} | {len(PERSON) * len(SHOPS) - missed} |"
    )
    print(f"\n{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
