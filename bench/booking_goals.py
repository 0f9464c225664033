"""Customer turns from the first message to the confirmation of a booking, and booking correctness,
over a set of booking goals at the demo salon (issue 21), plus DynamoDB calls per booking turn.

Each goal is a first message and what the customer wants (service, option, day and time, staff, the
area for a service at home, how the deposit is paid). A simulated customer answers whatever the bot
asks from the goal (the option, the row of the time wanted or the first row offered, the area, the
summary's button or "I'll pay by Till"; the salon takes no card) and the run stops at the confirmation: "Booked!" for a
service without a deposit, or the deposit's payment started (the M-Pesa prompt sent, the Till steps or
the card link given): the customer's part is done but for the PIN. Then the booking is read back:
does it carry the service, option, day, time, staff and area the customer said? The clock is Monday
23 November 2026, 10:00 in Nairobi (the salon is closed on Mondays).

    .venv/bin/python bench/booking_goals.py            (the rules engine; make bench runs it)
"""

from __future__ import annotations

import itertools
import statistics
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services
from tulia.domain.common import NAIROBI
from tulia.graph.conversation import Conversations, dynamodb_checkpointer
from tulia.nlu.rules import RulesEngine
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.store.tables import BOOKINGS

SALON = "demo-salon"
MAX_TURNS = 10
BOOKED = ("Booked!", "Imewekwa!", "Imebook!")
PAYING = ("I've sent an M-Pesa prompt", "Nimetuma ombi la M-Pesa", "Nimetuma M-Pesa prompt", "Till number:",
          "securely here:", "kwa usalama hapa:")  # fmt: skip


@dataclass(frozen=True)
class Goal:
    first: str
    item_id: str
    variants: dict[str, str] = field(default_factory=dict)
    at: str | None = None  # "2026-11-28 10:00" wanted; None: the first time offered on the day asked
    day: str | None = None  # the day asked, when no time is ("2026-11-24")
    staff: str | None = None
    place: str | None = None  # what the customer says when asked where (a service at home)
    zone: str | None = None
    pay: str = "stk"  # stk (the summary's button), till; a service without a deposit: "yes"


GOALS = [
    Goal("Hi, I want knotless braids on Saturday at 10am", "SV-BRD-01", {"length": "Mid-back"}, "2026-11-28 10:00"),
    Goal("Habari, nataka kufanyiwa pedicure kesho saa nne asubuhi", "SV-NL-02", at="2026-11-24 10:00"),
    Goal("niaje, nataka manicure red fraide jioni", "SV-NL-01", {"colour": "Red"}, day="2026-11-27"),
    Goal("I would like bridal makeup at my place on 5th December at 10am", "SV-MU-01", at="2026-12-05 10:00",
         place="Kilimani, near Yaya Centre", zone="Kilimani & Kileleshwa"),
    Goal("A kids haircut tomorrow at 3pm please", "SV-HC-02", at="2026-11-24 15:00", pay="yes"),
    Goal("men's haircut with a fade on Saturday at 11am", "SV-HC-01", {"style": "Fade"}, "2026-11-28 11:00",
         pay="yes"),
    Goal("fulani braids next Friday", "SV-BRD-04", day="2026-12-04"),
    Goal("Can I book a silk press with Akinyi tomorrow afternoon?", "SV-WS-02", day="2026-11-24", staff="akinyi",
         pay="till"),
    Goal("wash and blow-dry on Sunday at 2pm", "SV-WS-01", at="2026-11-29 14:00"),
    Goal("nataka facial jumamosi mchana", "SV-SK-01", day="2026-11-28", pay="till"),
    Goal("Full body massage on 1st December at 5pm", "SV-SK-02", at="2026-12-01 17:00"),
    Goal("acrylic nails, coffin shape, on Thursday morning", "SV-NL-03", {"shape": "Coffin"}, day="2026-11-26"),
    Goal("relaxer treatment keshokutwa saa tatu asubuhi", "SV-WS-03", at="2026-11-25 09:00"),
    Goal("box braids, waist length, on 3rd December", "SV-BRD-02", {"length": "Waist"}, day="2026-12-03"),
    Goal("nataka cornrows kesho jioni", "SV-BRD-03", day="2026-11-24"),
    Goal("I need a pedicure on Wednesday after 5pm", "SV-NL-02", day="2026-11-25"),
    Goal("Gel manicure nude, Saturday 2:30pm", "SV-NL-01", {"colour": "Nude"}, "2026-11-28 14:30"),
    Goal("msee nataka kinyozi fade kesho saa kumi jioni", "SV-HC-01", {"style": "Fade"}, "2026-11-24 16:00",
         pay="yes"),
    Goal("Bridal makeup tarehe 12 asubuhi, Westlands", "SV-MU-01", day="2026-12-12", place="Westlands",
         zone="Westlands & Parklands"),
    Goal("Can I get a classic facial on Sunday at 11am?", "SV-SK-01", at="2026-11-29 11:00", pay="till"),
    Goal("event makeup on Saturday 28th at 3pm", "SV-MU-02", at="2026-11-28 15:00"),
    Goal("nataka silk press na Wanjiru jumanne saa nane mchana", "SV-WS-02", at="2026-11-24 14:00", staff="wanjiru"),
]  # fmt: skip

_ids = itertools.count(1)


@dataclass
class Outcome:
    goal: Goal
    turns: int
    reached: bool
    correct: bool
    why: str = ""
    calls: list[int] = field(default_factory=list)  # DynamoDB calls of each customer turn


def _row_for(goal: Goal, state: dict[str, Any]) -> str | None:
    """The slot row of the time wanted (or the first offered), by its reply id."""
    options = state.get("pending_options") or []
    if goal.at is None:
        return str(options[0]["id"]) if options else None
    wanted = goal.at.replace("-", "").replace(" ", "").replace(":", "")  # "2026-11-28 10:00" -> 202611281000
    return next((str(o["id"]) for o in options if str(o["id"]).split(":")[2] == wanted), None)


def _answer(goal: Goal, state: dict[str, Any]) -> tuple[str, str | None] | None:
    """What the customer says (text, or a tap's reply id) to the question the bot is asking."""
    pending = state.get("pending")
    options = state.get("pending_options") or []
    booking = state.get("booking")
    if pending == "item_selection":
        for n, option in enumerate(options, start=1):
            if option["id"] == f"item:{goal.item_id}":
                return str(n), None
        return None
    if pending == "booking_variant":
        for option in options:
            dimension = str(option["id"]).split(":")[2]
            if goal.variants.get(dimension) == option["title"]:
                return str(option["title"]), None
        return None
    if pending == "booking_slot":
        row = _row_for(goal, state)
        return ("", row) if row else None
    if pending == "booking_zone":
        return goal.place or "", None
    if pending == "booking_confirm" and booking is not None and booking.held is not None:
        ref = booking.held.booking_ref
        if goal.pay == "stk":
            return "", f"bk:stk:{ref}"
        if goal.pay == "till":
            return "I'll pay by Till", None
        return "yes", None
    if pending == "payment_method":
        return ("till" if goal.pay == "till" else "M-Pesa prompt"), None
    return None


def run(goal: Goal, conversations: Conversations, services: Any, counter: Any) -> Outcome:
    phone = f"+2547{next(_ids) + 20000000:08d}"
    body, reply_id = goal.first, None
    calls: list[int] = []
    for turn in range(1, MAX_TURNS + 1):
        inbound: dict[str, Any] = {"type": "interactive" if reply_id else "text", "text": body}
        inbound["message_id"] = f"wamid.book{next(_ids)}"
        if reply_id:
            inbound["reply_id"] = reply_id
        counter.reset()
        result = conversations.handle(tenant_id=SALON, phone_e164=phone, inbound=inbound)
        calls.append(counter.total)
        reply = "\n".join(m.plain_text() for m in result.replies)
        if any(marker in reply for marker in (*BOOKED, *PAYING)):
            return Outcome(goal, turn, True, *_check(goal, services, result.state), calls=calls)
        answer = _answer(goal, result.state)
        if answer is None:
            why = f"stuck at {result.state.get('pending')}: {reply[:90]!r}"
            return Outcome(goal, MAX_TURNS, False, False, why, calls)
        body, reply_id = answer
    return Outcome(goal, MAX_TURNS, False, False, "no confirmation within the turn limit", calls)


def _check(goal: Goal, services: Any, state: dict[str, Any]) -> tuple[bool, str]:
    found = services.bookings.list_for_customer(
        SALON, str(state["customer_id"]), since=datetime(2026, 1, 1, tzinfo=NAIROBI)
    )
    booking = next((b for b in found if b.status in ("held", "confirmed")), None)
    if booking is None:
        return False, "no booking"
    start = booking.start.astimezone(NAIROBI)
    if booking.item_id != goal.item_id:
        return False, f"service {booking.item_id}, wanted {goal.item_id}"
    if any(booking.variant_selection.get(k) != v for k, v in goal.variants.items()):
        return False, f"options {booking.variant_selection}, wanted {goal.variants}"
    if goal.at and start.strftime("%Y-%m-%d %H:%M") != goal.at:
        return False, f"at {start:%Y-%m-%d %H:%M}, wanted {goal.at}"
    if goal.day and start.strftime("%Y-%m-%d") != goal.day:
        return False, f"on {start:%Y-%m-%d}, wanted {goal.day}"
    if goal.staff and booking.staff_id != goal.staff:
        return False, f"with {booking.staff_id}, wanted {goal.staff}"
    if goal.zone and booking.zone != goal.zone:
        return False, f"zone {booking.zone}, wanted {goal.zone}"
    return True, ""


def _empty_book(services: Any) -> None:
    db = services.db
    for item in db.client.scan(TableName=db.name(BOOKINGS))["Items"]:
        db.client.delete_item(TableName=db.name(BOOKINGS), Key={"pk": item["pk"], "sk": item["sk"]})


def main() -> None:
    with bench_services() as b:
        seed_pack(b.services, load_pack(PACKS / SALON))
        conversations = Conversations(
            b.services, RulesEngine(), dynamodb_checkpointer("bench-checkpoints", region_name="eu-west-1")
        )
        outcomes = []
        for goal in GOALS:  # each goal on an empty appointment book: goals do not take each other's times
            outcomes.append(run(goal, conversations, b.services, b.counter))
            _empty_book(b.services)
    reached = [o for o in outcomes if o.reached]
    turns = [o.turns for o in reached]
    per_turn = [c for o in outcomes for c in o.calls]
    print("## Booking goals: customer turns to the confirmation (rules engine)\n")
    print(f"- goals: {len(outcomes)}; confirmation reached: {len(reached)}; booking as asked: "
          f"{sum(o.correct for o in outcomes)}")  # fmt: skip
    if turns:
        print(f"- customer turns to the confirmation: average {statistics.mean(turns):.2f}, max {max(turns)} "
              f"(target: average at most 4)")  # fmt: skip
    if per_turn:
        per_turn.sort()
        p90 = per_turn[int(len(per_turn) * 0.9) - 1]
        print(f"- DynamoDB calls per booking turn (checkpoint included): median {statistics.median(per_turn):.0f}, "
              f"p90 {p90}, max {per_turn[-1]} over {len(per_turn)} turns")  # fmt: skip
    for o in outcomes:
        if not (o.reached and o.correct):
            print(f"  - {o.goal.first!r}: {o.why}")
    for o in outcomes:
        print(f"  {o.turns} turns, calls {o.calls}: {o.goal.first}")


if __name__ == "__main__":
    main()
