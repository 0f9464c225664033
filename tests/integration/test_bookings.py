"""Appointments through the booking tools, over moto: free slots from the shop's hours, staff, breaks
and holidays; a held slot nobody else can take; the deposit that confirms it, or that comes too late
and is kept as money to refund or apply; moves and cancellations by the salon's policy; blocked time.
The clock starts on Monday 23 November 2026, 10:00 in Nairobi (the salon is closed on Mondays)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.conftest import SALON, Caller, Clock, new_customer
from tulia.domain.common import NAIROBI
from tulia.errors import StateConflict
from tulia.services import Services, appointments
from tulia.tools.registry import REGISTRY

KNOTLESS, MANICURE, SILK, BRIDAL, HAIRCUT = "SV-BRD-01", "SV-NL-01", "SV-WS-02", "SV-MU-01", "SV-HC-01"
PEDICURE = "SV-NL-02"
TUE, WED, SAT = "2026-11-24", "2026-11-25", "2026-11-28"


def at(day: str, clock: str) -> str:
    return f"{day}T{clock}:00+03:00"


def starts(result: dict[str, Any], key: str = "slots") -> list[tuple[str, str]]:
    return [(s["start"][11:16], s["staff_name"]) for s in result[key]]


@pytest.fixture
def customer(salon: Caller) -> Caller:
    salon.customer_id = new_customer(salon, "0722000111")
    return salon


def other(seeded: Services, phone: str) -> Caller:
    caller = Caller(seeded, SALON)
    caller.customer_id = new_customer(caller, phone)
    return caller


def hold(c: Caller, item: str, start: str, **more: Any) -> dict[str, Any]:
    return c.ok("booking_hold", customer_id=c.customer_id, item_id=item, start=start, **more)


def test_the_salons_free_times_follow_its_hours_staff_and_breaks(customer: Caller) -> None:
    # Monday: closed (the salon's FAQ); the nearest days after it are offered
    monday = customer.ok("booking_search_slots", item_id=MANICURE, wish={"dates": ["2026-11-23"]})
    assert (monday["slots"], monday["closed_days"]) == ([], ["2026-11-23"])
    assert [s["start"][:16] for s in monday["later"]][:2] == ["2026-11-24T09:00", "2026-11-24T09:30"]
    # nails are Akinyi's: from 09:00, never across her 13:00-14:00 break
    tuesday = customer.ok("booking_search_slots", item_id=MANICURE, wish={"dates": [TUE]}, limit=10)
    assert starts(tuesday)[:2] == [("09:00", "Akinyi"), ("09:30", "Akinyi")]
    afternoon = customer.ok(
        "booking_search_slots", item_id=MANICURE, wish={"dates": [TUE], "earliest": "11:30", "latest": "14:30"}
    )
    assert [s for s, _ in starts(afternoon)] == ["11:30", "12:00", "14:00", "14:30"]  # 12:30 would cross lunch
    # an exact time: that time first, then the nearest
    ten = customer.ok("booking_search_slots", item_id=KNOTLESS, wish={"dates": [TUE], "at": "10:00"}, limit=3)
    assert starts(ten) == [("10:00", "Wanjiru"), ("09:30", "Wanjiru"), ("10:30", "Wanjiru")]
    assert ten["service"] | {"staff": []} == {
        "item_id": KNOTLESS, "name": "Knotless Braids (medium)", "duration_minutes": 300, "price": 3500,
        "deposit": 1050, "place": "shop", "zones": [], "staff": [],
    }  # fmt: skip
    # a 5-hour service ends by closing time (19:00): 14:00 is the last start
    late = customer.ok("booking_search_slots", item_id=KNOTLESS, wish={"dates": [TUE], "earliest": "13:30"})
    assert [s for s, _ in starts(late)] == ["13:30", "14:00"]
    # past the salon's 30 days ahead: said so
    far = customer.ok("booking_search_slots", item_id=MANICURE, wish={"dates": ["2026-12-25"]})
    assert (far["slots"], far["too_far_days"]) == ([], ["2026-12-25"])


def test_holidays_are_closed_days(customer: Caller, clock: Clock) -> None:
    clock.now = datetime(2026, 12, 20, 10, 0, tzinfo=NAIROBI)
    christmas = customer.ok("booking_search_slots", item_id=MANICURE, wish={"dates": ["2026-12-25", "2026-12-26"]})
    assert christmas["closed_days"] == ["2026-12-25", "2026-12-26"]
    assert christmas["later"][0]["start"].startswith("2026-12-27T10:00")  # Sunday: from 10:00


def test_the_options_chosen_set_the_price_and_the_deposit(customer: Caller) -> None:
    waist = customer.ok("booking_search_slots", item_id=KNOTLESS, variant_selection={"length": "Waist"})
    assert (waist["service"]["price"], waist["service"]["deposit"]) == (5000, 1500)
    bad = customer.err("booking_search_slots", item_id=KNOTLESS, variant_selection={"length": "Ankle"})
    assert (bad["code"], bad["field"]) == ("invalid_input", "variant_selection")
    product = customer.err("booking_search_slots", item_id="PR-HR-02")
    assert product["reason"] == "not_bookable"


def test_a_held_slot_is_nobody_elses_until_it_lapses(customer: Caller, seeded: Services, clock: Clock) -> None:
    held = hold(customer, SILK, at(TUE, "10:00"), staff_id="wanjiru")
    assert (held["status"], held["staff_name"], held["deposit"], held["order_ref"]) == ("held", "Wanjiru", 750, None)
    rival = other(seeded, "0722000222")
    # the same person at an overlapping time: refused; the other stylist: fine
    taken = rival.err("booking_hold", customer_id=rival.customer_id, item_id=SILK, start=at(TUE, "11:00"),
                      staff_id="wanjiru")  # fmt: skip
    assert (taken["code"], taken["reason"]) == ("state_conflict", "slot_taken")
    assert hold(rival, SILK, at(TUE, "11:00"))["staff_name"] == "Akinyi"  # anyone: the first free person
    # the buffer after the 2-hour silk press (12:00-12:15) is Wanjiru's too
    third = other(seeded, "0722000333")
    assert third.err("booking_hold", customer_id=third.customer_id, item_id=SILK, start=at(TUE, "12:00"),
                     staff_id="wanjiru")["reason"] == "slot_taken"  # fmt: skip
    search = third.ok("booking_search_slots", item_id=SILK, wish={"dates": [TUE], "staff_id": "wanjiru"}, limit=10)
    assert [s for s, _ in starts(search)][:3] == ["12:30", "13:00", "13:30"]  # 08:00 would run into 10:00
    # the hold lapses unpaid: the time is free again
    clock.advance(minutes=16)
    assert hold(third, SILK, at(TUE, "10:00"), staff_id="wanjiru")["status"] == "held"
    assert (
        customer.ok("booking_list", customer_id=customer.customer_id, include_past=True)["bookings"][0]["status"]
        == "expired"
    )


def test_a_deposit_confirms_the_booking_with_the_payment(customer: Caller, seeded: Services) -> None:
    held = hold(customer, SILK, at(WED, "15:00"))
    booked = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    assert (booked["status"], booked["amount_due"], booked["balance"]) == ("held", 750, 1750)
    order = seeded.orders.get(SALON, booked["order_ref"])
    assert (order.booking_id, order.totals.total, order.lines[0].name) == (
        held["booking_ref"], 750, "Deposit: Silk Press, Wed 25 Nov 15:00",
    )  # fmt: skip
    again = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    assert again["order_ref"] == booked["order_ref"]  # once
    pay(seeded, order.order_id, 750)
    listed = customer.ok("booking_list", customer_id=customer.customer_id)["bookings"]
    assert [(b["booking_ref"], b["status"], b["amount_due"]) for b in listed] == [(held["booking_ref"], "confirmed", 0)]
    assert seeded.orders.get(SALON, order.order_id).status == "paid"


def pay(services: Services, order_id: str, amount: int) -> Any:
    """The deposit's money confirmed by the provider (an STK payment recorded, then settled paid)."""
    from tulia.domain.common import new_id
    from tulia.domain.payment import Payment

    order = services.orders.get(SALON, order_id)
    now = services.clock()
    payment = Payment(
        tenant_id=SALON, payment_id=new_id("pay"), order_id=order_id, customer_id=order.customer_id,
        method="mpesa_stk", amount=amount, checkout_request_id=new_id("ws_CO"), created_at=now, updated_at=now,
    )  # fmt: skip
    services.payments.record_started(
        payment,
        refs={"stk": payment.checkout_request_id or ""},
        order_updates={"pending_payment_id": payment.payment_id},
    )
    return services.payments.settle(payment, to="paid", now=services.clock(), receipt="RCPT" + payment.payment_id[-6:])


def test_a_deposit_after_the_slot_went_to_someone_else_is_money_to_refund(
    customer: Caller, seeded: Services, clock: Clock
) -> None:
    held = hold(customer, PEDICURE, at(SAT, "10:00"))
    booked = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    clock.advance(minutes=20)  # the hold lapsed; another customer takes the time
    rival = other(seeded, "0722000444")
    hold(rival, PEDICURE, at(SAT, "10:00"))
    settled, order = pay(seeded, booked["order_ref"], 450)
    assert (settled.overpayment, order.status) == (True, "cancelled")
    over = seeded.payments.list_owed_back(SALON).items
    assert [(o.order_id, o.amount, o.reason) for o in over] == [(booked["order_ref"], 450, "slot_released")]
    mine = customer.ok("booking_list", customer_id=customer.customer_id, include_past=True)["bookings"][0]
    assert (mine["status"], mine["deposit_outcome"]) == ("expired", "refund_due")


def test_a_late_deposit_for_a_slot_still_free_confirms_it(customer: Caller, seeded: Services, clock: Clock) -> None:
    held = hold(customer, PEDICURE, at(SAT, "11:00"))
    booked = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    clock.advance(minutes=40)  # nobody took it meanwhile
    settled, order = pay(seeded, booked["order_ref"], 450)
    assert (settled.overpayment, order.status) == (False, "paid")
    assert seeded.bookings.get(SALON, held["booking_ref"]).status == "confirmed"


def test_a_service_without_deposit_is_confirmed_when_booked(customer: Caller) -> None:
    held = hold(customer, HAIRCUT, at(TUE, "16:00"), variant_selection={"style": "Fade"})
    assert (held["price"], held["deposit"], held["service_name"]) == (800, 0, "Men's Haircut and Beard Trim (Fade)")
    booked = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    assert (booked["status"], booked["order_ref"], booked["balance"]) == ("confirmed", None, 800)


def test_a_service_at_the_customers_place_needs_a_zone_it_serves(customer: Caller) -> None:
    missing = customer.err("booking_hold", customer_id=customer.customer_id, item_id=BRIDAL, start=at(SAT, "09:00"))
    assert (missing["field"], missing["details"]["options"]) == (
        "zone", ["Kilimani & Kileleshwa", "Westlands & Parklands"],
    )  # fmt: skip
    held = hold(customer, BRIDAL, at(SAT, "09:00"), zone="westlands & parklands", address="Rhapta Rd, house 4")
    assert (held["place"], held["zone"], held["travel_fee"], held["deposit"], held["balance"]) == (
        "home", "Westlands & Parklands", 500, 2400, 6100,
    )  # fmt: skip


def test_moves_and_cancellations_follow_the_salons_policy(customer: Caller, seeded: Services, clock: Clock) -> None:
    held = hold(customer, PEDICURE, at(SAT, "14:00"))
    booked = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    pay(seeded, booked["order_ref"], 450)
    ref = held["booking_ref"]
    # days before: moved, the deposit goes with it; the old time is free again
    moved = customer.ok("booking_reschedule", customer_id=customer.customer_id, booking_id=ref, start=at(SAT, "16:00"))
    assert (moved["start"], moved["status"]) == (at(SAT, "16:00"), "confirmed")
    rival = other(seeded, "0722000555")
    assert hold(rival, PEDICURE, at(SAT, "14:00"))["staff_name"] == "Akinyi"
    # inside 24 hours: not on WhatsApp, and a cancellation keeps the deposit
    clock.now = datetime(2026, 11, 28, 9, 0, tzinfo=NAIROBI)
    refused = customer.err("booking_reschedule", customer_id=customer.customer_id, booking_id=ref,
                           start=at(SAT, "17:00"))  # fmt: skip
    assert refused["reason"] == "inside_notice"
    cancelled = customer.ok("booking_cancel", customer_id=customer.customer_id, booking_id=ref)
    assert (cancelled["status"], cancelled["deposit_outcome"]) == ("cancelled", "kept")
    assert customer.err("booking_cancel", customer_id=customer.customer_id, booking_id=ref)["code"] == "state_conflict"


def test_a_cancellation_in_good_time_refunds_the_deposit(customer: Caller, seeded: Services) -> None:
    held = hold(customer, SILK, at(SAT, "10:00"))
    booked = customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    pay(seeded, booked["order_ref"], 750)
    cancelled = customer.ok("booking_cancel", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    assert cancelled["deposit_outcome"] == "refund_due"


def test_another_customers_booking_is_not_found(customer: Caller, seeded: Services) -> None:
    held = hold(customer, SILK, at(SAT, "12:00"))
    rival = other(seeded, "0722000666")
    for tool in ("booking_create", "booking_cancel"):
        assert rival.err(tool, customer_id=rival.customer_id, booking_id=held["booking_ref"])["code"] == "not_found"
    assert seeded.bookings.get(SALON, held["booking_ref"]).status == "held"


def test_blocked_time_is_offered_to_nobody_and_cannot_cover_a_booking(customer: Caller, seeded: Services) -> None:
    tenant = seeded.tenants.get(SALON)
    now = seeded.clock()
    day = datetime(2026, 11, 24, tzinfo=NAIROBI)
    appointments.block_time(
        seeded, tenant, staff_id="akinyi", start=day.replace(hour=9), end=day.replace(hour=12), reason="training",
        by="owner@demo-salon.local", now=now,
    )  # fmt: skip
    search = customer.ok("booking_search_slots", item_id=MANICURE, wish={"dates": [TUE]})
    assert starts(search)[0] == ("12:00", "Akinyi")
    hold(customer, PEDICURE, at(TUE, "15:00"))
    with pytest.raises(Exception) as refused:
        appointments.block_time(
            seeded, tenant, staff_id="akinyi", start=day.replace(hour=14), end=day.replace(hour=16), reason="x",
            by=None, now=now,
        )  # fmt: skip
    assert getattr(refused.value, "reason", None) == "slot_taken"


def test_blocked_time_can_be_listed_and_given_back(customer: Caller, seeded: Services) -> None:
    tenant = seeded.tenants.get(SALON)
    day = datetime(2026, 11, 25, tzinfo=NAIROBI)
    block = appointments.block_time(
        seeded, tenant, staff_id="akinyi", start=day.replace(hour=9), end=day.replace(hour=19), reason="leave",
        by="owner@demo-salon.local", now=seeded.clock(),
    )  # fmt: skip
    listed = seeded.bookings.blocks_between(SALON, day, day + timedelta(days=1))
    assert [(b.block_id, b.staff_id, b.reason) for b in listed] == [(block.block_id, "akinyi", "leave")]
    assert customer.ok("booking_search_slots", item_id=PEDICURE, wish={"dates": [WED]})["slots"] == []
    seeded.bookings.unblock(SALON, block.block_id, block.start)
    assert seeded.bookings.blocks_between(SALON, day, day + timedelta(days=1)) == []
    free = customer.ok("booking_search_slots", item_id=PEDICURE, wish={"dates": [WED]})
    assert starts(free)[0] == ("09:00", "Akinyi")


def test_staff_mark_a_confirmed_booking_once_it_happened_or_not(
    customer: Caller, seeded: Services, clock: Clock
) -> None:
    held = hold(customer, HAIRCUT, at(TUE, "17:00"), variant_selection={"style": "Classic"})
    customer.ok("booking_create", customer_id=customer.customer_id, booking_id=held["booking_ref"])
    booking = seeded.bookings.get(SALON, held["booking_ref"])
    with pytest.raises(StateConflict):  # not before it
        seeded.bookings.mark(booking, "no_show", seeded.clock(), by="agent@demo-salon.local")
    clock.now = datetime(2026, 11, 24, 17, 30, tzinfo=NAIROBI)
    marked = seeded.bookings.mark(booking, "no_show", seeded.clock(), by="agent@demo-salon.local")
    assert (marked.status, marked.marks[-1].event, marked.marks[-1].by) == (
        "no_show",
        "no_show",
        "agent@demo-salon.local",
    )
    with pytest.raises(StateConflict):
        seeded.bookings.mark(marked, "completed", seeded.clock(), by="agent@demo-salon.local")


def test_bad_times_are_refused_with_the_field(customer: Caller) -> None:
    cases = {
        "2026-11-24T10:00:00": "start",  # no offset
        at(TUE, "07:00"): "start",  # before opening
        at(TUE, "10:10"): "start",  # not on the salon's 30-minute steps
        at("2026-11-23", "11:00"): "start",  # Monday: closed
        at("2027-02-01", "10:00"): "start",  # past the 30-day horizon
    }
    for start, field in cases.items():
        error = customer.err("booking_hold", customer_id=customer.customer_id, item_id=SILK, start=start)
        assert error.get("field") == field, (start, error)


def test_the_booking_tools_are_registered_beside_the_spec_tools() -> None:
    assert [n for n in REGISTRY if n.startswith("booking_")] == [
        "booking_search_slots", "booking_hold", "booking_create", "booking_reschedule", "booking_cancel",
        "booking_list",
    ]  # fmt: skip


def test_slots_never_start_before_the_notice(customer: Caller, clock: Clock) -> None:
    clock.now = datetime(2026, 11, 24, 9, 40, tzinfo=NAIROBI)
    today = customer.ok("booking_search_slots", item_id=MANICURE, wish={"dates": [TUE]})
    first = datetime.fromisoformat(today["slots"][0]["start"])
    assert first >= clock.now + timedelta(minutes=60)
    assert first.minute in (0, 30)
