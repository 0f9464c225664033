"""Appointments: slot search time (a shop with 5 staff over 14 days, target p50 < 20 ms in process),
DynamoDB calls per booking tool, and how well days and times are read (the labelled sets).

    .venv/bin/python bench/bookings.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time as clock
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, Bench, bench_services
from tulia.domain.booking import (
    BookingSettings,
    ServiceTerms,
    SlotWish,
    StaffMember,
    cell_key,
    cell_starts,
    free_slots,
)
from tulia.domain.common import NAIROBI
from tulia.nlu.when import read_when
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

RUNS = 300


def five_staff_shop() -> tuple[BookingSettings, ServiceTerms, set[str], datetime]:
    """Five people, open daily 08:00-19:00 with a lunch hour each, 14 days ahead, about 60% booked."""
    settings = BookingSettings(
        hours="daily 08:00-19:00",
        staff=[
            StaffMember(id=f"s{n}", name=f"Staff {n}", breaks=f"daily {12 + n % 2}:00-{13 + n % 2}:00")
            for n in range(5)
        ],
        slot_minutes=15,
        buffer_minutes=15,
        horizon_days=14,
    )
    service = ServiceTerms(
        item_id="SV", name="Service", category="C", duration_minutes=60, price=1000, deposit=300,
        staff_ids=[f"s{n}" for n in range(5)],
    )  # fmt: skip
    now = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)
    rng = random.Random(7)
    taken: set[str] = set()
    first = now.astimezone(NAIROBI).date()
    for day in range(15):
        for n in range(5):
            start = datetime.combine(first + timedelta(days=day), time(8), tzinfo=NAIROBI)
            while start.hour < 18:
                if rng.random() < 0.6:
                    taken |= {cell_key(f"s{n}", c) for c in cell_starts(start, 75)}
                    start += timedelta(minutes=75)
                else:
                    start += timedelta(minutes=30)
    return settings, service, taken, now


def timed(fn: Any) -> tuple[float, float]:
    times = []
    for _ in range(RUNS):
        started = clock.perf_counter()
        fn()
        times.append((clock.perf_counter() - started) * 1000)
    return statistics.median(times), statistics.quantiles(times, n=20)[18]


def slot_search() -> list[tuple[str, float, float, int]]:
    settings, service, taken, now = five_staff_shop()
    day10 = now.astimezone(NAIROBI).date() + timedelta(days=10)
    cases = {
        "any time, the first 5 free (14 days)": SlotWish(),
        "an exact time on day 10 (nearest first)": SlotWish(days=(day10,), at=time(15)),
        "evenings across all 14 days": SlotWish(
            days=tuple(day10 - timedelta(days=10 - d) for d in range(15)), earliest=time(17, 30)
        ),
        "one person, afternoons": SlotWish(earliest=time(14), staff_id="s3"),
    }
    rows = []
    for name, wish in cases.items():
        found = free_slots(settings, service, taken, now=now, wish=wish)
        p50, p95 = timed(lambda wish=wish: free_slots(settings, service, taken, now=now, wish=wish))
        rows.append((name, p50, p95, len(found)))
    # the worst case: nothing free at all, every day and person scanned
    everything = {cell_key(f"s{n}", datetime.combine(date(2026, 11, 23) + timedelta(days=d), time(h, m),
                                                    tzinfo=NAIROBI))
                  for n in range(5) for d in range(15) for h in range(24) for m in (0, 15, 30, 45)}  # fmt: skip
    p50, p95 = timed(lambda: free_slots(settings, service, everything, now=now, wish=SlotWish()))
    rows.append(("fully booked: every day and person scanned", p50, p95, 0))
    return rows


def tool_calls() -> list[tuple[str, int, str]]:
    rows: list[tuple[str, int, str]] = []
    with bench_services() as b:
        seed_pack(b.services, load_pack(PACKS / "demo-salon"))
        customer = call("customer_get_or_create", b, None, phone_e164="0722000999")["customer_id"]

        def measured(tool: str, situation: str, **args: Any) -> dict[str, Any]:
            b.counter.reset()
            data = call(tool, b, customer, **args)
            which = ", ".join(f"{k} {v}" for k, v in sorted(b.counter.calls.items()))
            rows.append((f"{tool} ({situation})", b.counter.total, which))
            return data

        measured("booking_search_slots", "any day", item_id="SV-WS-02")
        measured("booking_search_slots", "a day and time", item_id="SV-WS-02",
                 wish={"dates": ["2026-11-28"], "at": "10:00"})  # fmt: skip
        held = measured("booking_hold", "2-hour service", customer_id=customer, item_id="SV-WS-02",
                        start="2026-11-28T10:00:00+03:00")  # fmt: skip
        booked = measured("booking_create", "deposit order", customer_id=customer, booking_id=held["booking_ref"])
        b.counter.reset()
        pay(b, booked["order_ref"], booked["deposit"])
        rows.append(("deposit paid (payment recorded + settled, booking confirmed)", b.counter.total,
                     ", ".join(f"{k} {v}" for k, v in sorted(b.counter.calls.items()))))  # fmt: skip
        measured("booking_list", "upcoming", customer_id=customer)
        measured("booking_reschedule", "same stylist", customer_id=customer, booking_id=held["booking_ref"],
                 start="2026-11-28T15:00:00+03:00")  # fmt: skip
        measured("booking_cancel", "in good time", customer_id=customer, booking_id=held["booking_ref"])
    return rows


def pay(b: Bench, order_id: str, amount: int) -> None:
    """The deposit's M-Pesa payment recorded, then confirmed by the provider (as the callback does)."""
    from tulia.domain.common import new_id
    from tulia.domain.payment import Payment

    s = b.services
    order = s.orders.get("demo-salon", order_id)
    now = s.clock()
    payment = Payment(
        tenant_id="demo-salon", payment_id=new_id("pay"), order_id=order_id, customer_id=order.customer_id,
        method="mpesa_stk", amount=amount, checkout_request_id=new_id("ws_CO"), created_at=now, updated_at=now,
    )  # fmt: skip
    s.payments.record_started(
        payment,
        refs={"stk": str(payment.checkout_request_id)},
        order_updates={"pending_payment_id": payment.payment_id},
    )
    s.payments.settle(payment, to="paid", now=s.clock(), receipt="RCPTBENCH01")


def call(tool: str, b: Bench, customer: str | None, **args: Any) -> dict[str, Any]:
    ctx = ToolContext(tenant_id="demo-salon", request_id="bench", conversation_id="bench", services=b.services,
                      customer_id=customer)  # fmt: skip
    result = call_tool(tool, {"tenant_id": "demo-salon", "request_id": "bench", "conversation_id": "bench", **args},
                       ctx)  # fmt: skip
    if not result["ok"]:
        raise SystemExit(f"{tool} failed: {result}")
    return dict(result["data"])


def reading() -> list[tuple[str, int, int]]:
    said_at = datetime(2026, 12, 2, 9, 0, tzinfo=NAIROBI)
    out = []
    for name in ("tuning", "heldout"):
        rows = [line.split("|") for line in (PACKS.parent / "eval" / "when" / f"{name}.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")]  # fmt: skip
        right = 0
        for _lang, message, expected in rows:
            said = read_when(message.strip(), said_at)
            parts = (["days=" + ",".join(d.isoformat() for d in said.days)] if said.days else []) + [
                f"{k}={v:%H:%M}" for k, v in (("at", said.at), ("from", said.earliest), ("to", said.latest)) if v
            ]
            right += (" ".join(parts) or "none") == expected.strip()
        out.append((name, right, len(rows)))
    return out


def main() -> None:
    print("## Slot search, in process (5 staff, 14 days, 15-minute steps, about 60% booked)\n")
    print("| wish | p50 ms | p95 ms | slots |\n|---|---:|---:|---:|")
    for name, p50, p95, n in slot_search():
        print(f"| {name} | {p50:.2f} | {p95:.2f} | {n} |")
    print("\n## DynamoDB calls per booking tool (moto, the demo salon)\n")
    print("| call | DynamoDB calls | which |\n|---|---:|---|")
    for name, total, which in tool_calls():
        print(f"| {name} | {total} | {which} |")
    print("\n## Days and times read right (eval/when, said on a Wednesday at 09:00)\n")
    print("| set | right | phrases | rate |\n|---|---:|---:|---:|")
    for name, right, total in reading():
        print(f"| {name} | {right} | {total} | {right / total:.0%} |")


if __name__ == "__main__":
    main()
