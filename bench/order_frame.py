"""Customer turns from the first message to the amount confirmation, and order correctness, over a
set of purchase goals across the three demo packs (issue: the sale understands and remembers).

Each goal is a first message and what the customer wants (item, quantity, variants, fulfilment,
zone, payment method). A simulated customer answers whatever the bot asks from the goal (a number
for a shortlist, the option for a variant, the quantity, the place, the method) and the run stops at
the amount confirmation: the M-Pesa prompt's confirmation, or the Paybill/Till steps, or the card
link. Then the order is read back: does it carry the quantity, variants and zone the customer said?

Goals are of two kinds: "complete" first messages name item, quantity, fulfilment and method
(target: at most 2 customer turns); "sparse" ones leave slots to be asked.

    .venv/bin/python bench/order_frame.py            (the rules engine; make bench runs it)

The same script runs against an older checkout (``PYTHONPATH=<old>/shared``) for the "before"
figures: it reads only the conversation's replies, its ``pending`` question and the order table.
"""

from __future__ import annotations

import itertools
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services
from tulia.graph.conversation import Conversations, dynamodb_checkpointer
from tulia.nlu.rules import RulesEngine
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack

MAX_TURNS = 10
CONFIRMED = ("Please confirm: send an M-Pesa prompt", "Tafadhali thibitisha", "Confirm: nikutumie M-Pesa prompt",
             "Business number:", "Till number:", "securely here:", "kwa usalama hapa:")  # fmt: skip


@dataclass(frozen=True)
class Goal:
    tenant: str
    first: str
    item_id: str
    quantity: int = 1
    variants: dict[str, str] = field(default_factory=dict)
    mode: str | None = None  # delivery, pickup (None: a service)
    place: str | None = None  # what the customer says when asked where
    zone: str | None = None
    method: str = "M-Pesa prompt"
    complete: bool = False  # the first message names item, quantity, fulfilment and method


SHOP, SALON, GROCER = "demo-shop", "demo-salon", "demo-grocer"
GOALS = [
    # the electronics shop: complete first messages
    Goal(SHOP, "Hi, I need 3 Oraimo FreePods Lite Earbuds delivered to Westlands. I'll pay with M-Pesa", "AU-002", 3,
         {"colour": "Black"}, "delivery", "Westlands", "Nairobi West", complete=True),
    Goal(SHOP, "nataka earbuds mbili za Oraimo FreePods Lite, niletee Kilimani, nitalipa kwa paybill", "AU-002", 2,
         {"colour": "Blue"}, "delivery", "Kilimani", "Nairobi West", "paybill", complete=True),
    Goal(SHOP, "I want 2 JBL Flip 6 speakers, I'll pick them up, paying by card", "SP-002", 2, {"colour": "Teal"},
         "pickup", method="card", complete=True),
    Goal(SHOP, "niaje msee, nipe jbl flip 6 moja, niletee Buruburu, mpesa", "SP-002", 1, {"colour": "Black"},
         "delivery", "Buruburu", "Eastlands", complete=True),
    Goal(SHOP, "I need 4 Oraimo 33W fast chargers delivered to town, M-Pesa prompt please", "CH-002", 4, {},
         "delivery", "town", "Nairobi CBD", complete=True),
    Goal(SHOP, "Nataka Samsung Galaxy A15 mbili, niletee Kilimani. Nitalipa na M-Pesa", "PH-SAM-002", 2,
         {"colour": "Blue", "storage": "128GB"}, "delivery", "Kilimani", "Nairobi West", complete=True),
    Goal(SHOP, "x2 Xiaomi Redmi 13C navy blue 128GB, pickup, lipa na mpesa", "PH-XIA-016", 2,
         {"colour": "Navy Blue", "storage": "128GB"}, "pickup", complete=True),
    Goal(SHOP, "Please send 1 Hisense 43 inch Full HD Smart TV to Kasarani, I'll pay via paybill", "TV-002", 1, {},
         "delivery", "Kasarani", "Thika Road", "paybill", complete=True),
    # the electronics shop: sparse first messages
    Goal(SHOP, "oraimo freepods lite", "AU-002", 2, {"colour": "White"}, "delivery", "Westlands", "Nairobi West"),
    Goal(SHOP, "Nataka simu ya Samsung", "PH-SAM-002", 1, {"colour": "Blue", "storage": "128GB"}, "delivery",
         "Kilimani karibu na Yaya Centre", "Nairobi West"),
    Goal(SHOP, "do you have oraimo power banks?", "PB-002", 1, {"colour": "Black"}, "pickup", method="paybill"),
    Goal(SHOP, "I want an oraimo 20000mAh power bank", "PB-002", 2, {"colour": "White"}, "pickup"),
    Goal(SHOP, "jbl flip 6 speaker", "SP-002", 1, {"colour": "Blue"}, "pickup", method="card"),
    Goal(SHOP, "samsung galaxy a05", "PH-SAM-001", 3, {"colour": "Silver", "storage": "64GB"}, "delivery",
         "Umoja", "Eastlands"),
    Goal(SHOP, "nataka redmi note 13", "PH-XIA-017", 1, {"colour": "Ice Blue", "storage": "256GB"}, "delivery",
         "Ruiru", "Thika Road"),
    Goal(SHOP, "hisense 55 inch tv", "TV-003", 1, {}, "delivery", "Mombasa", "Rest of Kenya", "paybill"),
    # the salon's products (its services are booked: bench/booking_goals.py)
    Goal(SALON, "nataka shea butter hair cream mbili", "PR-HR-02", 2, {}, "pickup"),
    # the grocer (delivery only, a Till)
    Goal(GROCER, "Nataka Mumias sugar 2kg mbili, niletee Mwiki. Nitalipa na till", "GR-SUG-01", 2, {}, "delivery",
         "Mwiki", "Kasarani", "till", complete=True),
    Goal(GROCER, "a dozen Fresh Fri cooking oil 1L to Kimbo, mpesa", "GR-OIL-01", 12, {"size": "1L"}, "delivery",
         "Kimbo", "Ruiru", complete=True),
    Goal(GROCER, "I need 3 Jogoo maize flour 2kg delivered to Zimmerman, M-Pesa", "GR-UNG-01", 3, {}, "delivery",
         "Zimmerman", "Roysambu", complete=True),
    Goal(GROCER, "nipe trays mbili za kienyeji eggs, leta Hunters, lipa na mpesa", "GR-EGG-01", 2, {}, "delivery",
         "Hunters", "Kasarani", complete=True),
    Goal(GROCER, "5 Brookside fresh milk 500ml to TRM, till", "GR-MLK-01", 5, {}, "delivery", "TRM", "Roysambu",
         "till", complete=True),
    Goal(GROCER, "pishori rice", "GR-RIC-01", 1, {"size": "5kg"}, "delivery", "Sunton", "Kasarani"),
    Goal(GROCER, "nataka unga", "GR-UNG-02", 2, {}, "delivery", "Membley", "Ruiru"),
    Goal(GROCER, "tomatoes 1kg", "GR-VEG-01", 3, {}, "delivery", "Clay City", "Kasarani", "till"),
    Goal(GROCER, "K-Gas refill 6kg", "GR-GAS-01", 1, {}, "delivery", "Kahawa West", "Roysambu"),
    Goal(GROCER, "Ketepa tea", "GR-TEA-01", 2, {}, "delivery", "Juja", "Ruiru"),
    Goal(GROCER, "menengai bar soap", "GR-SOP-01", 1, {}, "delivery", "Seasons", "Kasarani"),
    Goal(GROCER, "avocados", "GR-FRT-02", 4, {}, "delivery", "Lumumba Drive", "Roysambu"),
]  # fmt: skip

_ids = itertools.count(1)


@dataclass
class Outcome:
    goal: Goal
    turns: int
    reached: bool
    correct: bool
    why: str = ""


def _answer(goal: Goal, state: dict[str, Any], reply: str) -> str | None:
    """What the customer says to the question the bot is asking."""
    pending = state.get("pending")
    options = state.get("pending_options") or []
    if pending in ("item_selection", "category"):
        wanted = f"item:{goal.item_id}"
        for n, option in enumerate(options, start=1):
            if option["id"] == wanted:
                return str(n)
        return None  # the item is not on offer: the goal fails
    if pending == "variant":
        for option in options:
            dimension = str(option["id"]).split(":")[2]
            if goal.variants.get(dimension) == option["title"]:
                # a customer answers every choice the question mentions ("Blue, 128GB")
                said = [str(option["title"])]
                said += [v for k, v in goal.variants.items() if k != dimension and k in reply]
                return ", ".join(said)
        return None
    if pending == "quantity":
        return str(goal.quantity)
    if pending in ("fulfilment", "delivery_mode"):
        return goal.mode
    if pending in ("zone", "delivery_address", "delivery_zone"):
        return goal.place
    if pending == "payment_method":
        return goal.method
    return None


def run(goal: Goal, conversations: Conversations, services: Any) -> Outcome:
    phone = f"+2547{next(_ids):08d}"
    body: str | None = goal.first
    for turn in range(1, MAX_TURNS + 1):
        inbound = {"type": "text", "text": body, "message_id": f"wamid.frame{next(_ids)}"}
        result = conversations.handle(tenant_id=goal.tenant, phone_e164=phone, inbound=inbound)
        reply = "\n".join(m.plain_text() for m in result.replies)
        if any(marker in reply for marker in CONFIRMED):
            order = services.orders.get(goal.tenant, result.state["order_id"])
            return Outcome(goal, turn, True, *_check(goal, order))
        body = _answer(goal, result.state, reply)
        if body is None:
            return Outcome(goal, MAX_TURNS, False, False, f"stuck at {result.state.get('pending')}: {reply[:80]!r}")
    return Outcome(goal, MAX_TURNS, False, False, "no confirmation within the turn limit")


def _check(goal: Goal, order: Any) -> tuple[bool, str]:
    line = next((ln for ln in order.lines if ln.item_id == goal.item_id), None)
    if line is None:
        return False, "the item is not in the order"
    if line.quantity != goal.quantity:
        return False, f"quantity {line.quantity}, wanted {goal.quantity}"
    if any(line.variant_selection.get(k) != v for k, v in goal.variants.items()):
        return False, f"variants {line.variant_selection}, wanted {goal.variants}"
    if goal.zone and order.delivery.zone != goal.zone:
        return False, f"zone {order.delivery.zone}, wanted {goal.zone}"
    if goal.mode and order.delivery.mode != goal.mode:
        return False, f"mode {order.delivery.mode}, wanted {goal.mode}"
    return True, ""


def main() -> None:
    with bench_services() as b:
        for name in (SHOP, SALON, GROCER):
            seed_pack(b.services, load_pack(PACKS / name))
        conversations = Conversations(
            b.services, RulesEngine(), dynamodb_checkpointer("bench-checkpoints", region_name="eu-west-1")
        )
        outcomes = [run(goal, conversations, b.services) for goal in GOALS]
    print("## Turns to the amount confirmation and order correctness (rules engine)\n")
    print(f"- goals: {len(outcomes)} across {len({o.goal.tenant for o in outcomes})} packs")
    for label, chosen in (
        ("complete first messages", [o for o in outcomes if o.goal.complete]),
        ("sparse first messages", [o for o in outcomes if not o.goal.complete]),
        ("all goals", outcomes),
    ):
        turns = [o.turns for o in chosen]
        print(
            f"- {label} ({len(chosen)}): average {statistics.fmean(turns):.2f} customer turns, worst {max(turns)}; "
            f"reached {sum(o.reached for o in chosen)}/{len(chosen)}; "
            f"orders correct {sum(o.correct for o in chosen)}/{len(chosen)}"
        )
    for tenant in (SHOP, SALON, GROCER):
        chosen = [o for o in outcomes if o.goal.tenant == tenant]
        print(
            f"- {tenant}: average {statistics.fmean(o.turns for o in chosen):.2f} turns, "
            f"correct {sum(o.correct for o in chosen)}/{len(chosen)}"
        )
    slow = [o for o in outcomes if o.goal.complete and o.turns > 2]
    if slow:
        print("\nComplete first messages that took more than 2 turns:")
        for o in slow:
            print(f"- {o.goal.tenant}: {o.goal.first!r}: {o.turns} turns")
    failures = [o for o in outcomes if not o.correct]
    if failures:
        print("\nNot reached or not correct:")
        for o in failures:
            print(f"- {o.goal.tenant}: {o.goal.first!r}: {o.why}")
    print()


if __name__ == "__main__":
    main()
