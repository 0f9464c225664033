"""The appointment book in the admin API (the real resolver behind API Gateway event shapes, moto):
the salon's day by staff member, time blocked off, no-shows marked after the start, appointments moved
or cancelled by staff with the customer told on WhatsApp by the agent, deposits due back; another
shop sees none of it; bad input is refused and changes nothing."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from typing import Any

import pytest

from tests.conftest import BOTO, SALON, SHOP, Caller, Clock, new_customer
from tests.integration.test_agent import Pipeline
from tests.integration.test_reaching_customers import Admin
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.domain.common import NAIROBI
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.queues import InboundQueue
from tulia.store.stats import StatsRepo

KIDS, PEDICURE = "SV-HC-02", "SV-NL-02"
PHONE = "0722000777"


@pytest.fixture
def admin(seeded: Services, setup: dict[str, Any]) -> Admin:
    pipe: Pipeline = setup["pipe"]
    deps = AdminDeps(
        services=seeded,
        audit=AuditRepo(seeded.db),
        notify=InboundQueue(BOTO.client("sqs"), pipe.url),
        stats=StatsRepo(seeded.db),
    )
    return Admin(build_admin_api(deps), SALON)


def booked(salon: Caller, item: str, start: str) -> dict[str, Any]:
    held = salon.ok("booking_hold", customer_id=salon.customer_id, item_id=item, start=start)
    return salon.ok("booking_create", customer_id=salon.customer_id, booking_id=held["booking_ref"])


@pytest.fixture
def customer(salon: Caller) -> Caller:
    salon.customer_id = new_customer(salon, PHONE)
    return salon


def test_the_day_by_staff_member_for_owners_and_agents_and_no_other_shop(
    admin: Admin, customer: Caller, seeded: Services
) -> None:
    haircut = booked(customer, KIDS, "2026-11-28T15:00:00+03:00")
    nails = booked(customer, PEDICURE, "2026-11-28T10:00:00+03:00")
    status, day = admin("GET", "/admin/bookings?day=2026-11-28", role="agent")
    assert status == 200
    assert [s["staff_id"] for s in day["staff"]] == ["wanjiru", "akinyi"]
    assert [(b["booking_id"], b["staff_id"], b["start"][11:16]) for b in day["bookings"]] == [
        (nails["booking_ref"], "akinyi", "10:00"),  # the shop's time (+03:00)
        (haircut["booking_ref"], "wanjiru", "15:00"),
    ]
    first = day["bookings"][0]
    assert (first["status_now"], first["deposit"], first["to_pay_there"]) == ("held", 450, 1050)
    assert first["customer"]["phone"] == "+254722000777"
    assert admin("GET", "/admin/bookings?day=2026-11-28&staff_id=wanjiru")[1]["staff"] == [
        {"staff_id": "wanjiru", "name": "Wanjiru"}
    ]
    # when each works, as the timeline draws it: Akinyi's lunch break is not working time; Monday the salon is shut
    working = [(w["staff_id"], w["start"][11:16], w["end"][11:16]) for w in day["working"]]
    assert working == [("wanjiru", "08:00", "19:00"), ("akinyi", "09:00", "13:00"), ("akinyi", "14:00", "19:00")]
    weekend = admin("GET", "/admin/bookings?day=2026-11-29&days=2&staff_id=akinyi")[1]["working"]
    assert [(w["start"][:16], w["end"][11:16]) for w in weekend] == [
        ("2026-11-29T10:00", "13:00"), ("2026-11-29T14:00", "17:00"),
    ]  # fmt: skip
    other = Admin(admin.api, SHOP)
    assert other("GET", f"/admin/bookings/{haircut['booking_ref']}")[0] == 404
    assert other("GET", "/admin/bookings?day=2026-11-28")[1]["bookings"] == []
    assert admin("GET", "/admin/bookings?day=2026-11-28&days=15")[0] == 422
    assert admin("GET", "/admin/bookings?day=2026-11-28&staff_id=nobody")[0] == 422


def test_blocked_time_is_not_offered_and_can_be_given_back(admin: Admin, customer: Caller) -> None:
    booked(customer, KIDS, "2026-11-28T15:00:00+03:00")
    taken = {"staff_id": "wanjiru", "start": "2026-11-28T14:00:00+03:00", "end": "2026-11-28T16:00:00+03:00"}
    assert admin("POST", "/admin/bookings/blocks", {**taken, "reason": "dentist"})[0] == 409  # a booking in it
    status, block = admin(
        "POST",
        "/admin/bookings/blocks",
        {"staff_id": "wanjiru", "start": "2026-11-28T08:00:00+03:00", "end": "2026-11-28T12:00:00+03:00"},
    )
    assert status == 200
    wish = {"dates": ["2026-11-28"], "staff_id": "wanjiru"}
    free = customer.ok("booking_search_slots", item_id=KIDS, wish=wish)
    assert free["slots"][0]["start"].startswith("2026-11-28T12:00")
    naive = {"staff_id": "wanjiru", "start": "2026-11-28T08:00:00", "end": "2026-11-28T09:00:00"}
    assert admin("POST", "/admin/bookings/blocks", naive)[0] == 422
    assert admin("GET", "/admin/bookings?day=2026-11-28")[1]["blocks"][0]["block_id"] == block["block_id"]
    start = "2026-11-28T05:00:00Z"
    assert admin("DELETE", f"/admin/bookings/blocks/{block['block_id']}?start={start}")[1]["deleted"] is True
    again = customer.ok("booking_search_slots", item_id=KIDS, wish=wish)
    assert again["slots"][0]["start"].startswith("2026-11-28T08:00")


def test_no_show_is_marked_after_the_start_only(admin: Admin, customer: Caller, clock: Clock) -> None:
    ref = booked(customer, KIDS, "2026-11-28T15:00:00+03:00")["booking_ref"]
    status, refused = admin("POST", f"/admin/bookings/{ref}/mark", {"outcome": "no_show"})
    assert (status, refused["reason"]) == (409, "not_started")
    clock.now = datetime(2026, 11, 28, 15, 20, tzinfo=NAIROBI)
    status, marked = admin("POST", f"/admin/bookings/{ref}/mark", {"outcome": "no_show"}, role="agent")
    assert (status, marked["status"]) == (200, "no_show")
    assert marked["marks"][-1]["event"] == "no_show"
    assert admin("POST", f"/admin/bookings/{ref}/mark", {"outcome": "maybe"})[0] == 422


def test_staff_cancel_with_the_deposit_due_back_and_the_customer_is_told(
    admin: Admin, customer: Caller, seeded: Services, setup: dict[str, Any]
) -> None:
    from tests.integration.test_till_payments import till_confirmation

    nails = booked(customer, PEDICURE, "2026-11-28T10:00:00+03:00")
    till_confirmation(setup, seeded, "SKLDEP0001", "450.00")
    order_ref = str(nails["order_ref"])
    from tulia.payments.reconcile import apply_transaction

    assert apply_transaction(seeded, SALON, "SKLDEP0001", order_ref, now=seeded.clock()).outcome == "paid"
    assert seeded.bookings.get(SALON, nails["booking_ref"]).status == "confirmed"
    status, done = admin(
        "POST", f"/admin/bookings/{nails['booking_ref']}/cancel", {"deposit": "refund_due", "note": "Akinyi is ill"}
    )
    assert (status, done["status"], done["deposit_outcome"]) == (200, "cancelled", "refund_due")
    assert [b["booking_id"] for b in admin("GET", "/admin/bookings/refunds")[1]] == [nails["booking_ref"]]
    [owed] = admin("GET", "/admin/payments/overpayments")[1]["items"]  # one ledger of money owed back
    assert (owed["reason"], owed["amount"], owed["booking_id"], owed["status"]) == (
        "deposit_due_back",
        450,
        nails["booking_ref"],
        "open",
    )
    pipe: Pipeline = setup["pipe"]
    assert pipe.run_agent() == {"batchItemFailures": []}
    told = pipe.replies_to("254722000777")
    assert any(
        # in the language the booking was made in (the salon's Swahili)
        "Glow Studio Kilimani imeghairi Pedicure yako, Jumamosi 28 Nov saa 4 asubuhi (10:00)" in m
        and f"(booking {nails['booking_ref']})" in m
        and "Deposit yako ya KES 450 itarudishwa." in m
        for m in told
    )
    free = customer.ok("booking_search_slots", item_id=PEDICURE, wish={"dates": ["2026-11-28"], "at": "10:00"})
    assert free["slots"][0]["start"].startswith("2026-11-28T10:00")  # the time is free again
    # the owner refunds it by M-Pesa and records it: no longer due, once
    status, refunded = admin("POST", f"/admin/bookings/{nails['booking_ref']}/refunded", {"note": "B2C QJK123"})
    assert (status, refunded["deposit_outcome"], refunded["marks"][-1]["note"]) == (200, "refunded", "B2C QJK123")
    assert admin("GET", "/admin/bookings/refunds")[1] == []
    [closed] = admin("GET", "/admin/payments/overpayments")[1]["items"]  # refunded here: closed there
    assert (closed["status"], closed["note"]) == ("refunded", "B2C QJK123")
    assert admin("POST", f"/admin/bookings/{nails['booking_ref']}/refunded", {})[0] == 200  # again: the same
    kept = booked(customer, KIDS, "2026-11-28T15:00:00+03:00")["booking_ref"]
    assert admin("POST", f"/admin/bookings/{kept}/refunded", {})[0] == 409  # nothing due back


def test_staff_move_any_time_and_the_customer_is_told(admin: Admin, customer: Caller, setup: dict[str, Any]) -> None:
    ref = booked(customer, KIDS, "2026-11-28T15:00:00+03:00")["booking_ref"]
    status, moved = admin("POST", f"/admin/bookings/{ref}/move", {"start": "2026-11-28T17:00:00+03:00"})
    assert (status, moved["start"][11:16], moved["staff_id"]) == (200, "17:00", "wanjiru")
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    assert any(
        f"imehamisha Kids' Haircut yako hadi Jumamosi 28 Nov saa 11 jioni (17:00) na Wanjiru (booking {ref})" in m
        for m in pipe.replies_to("254722000777")
    )
    assert admin("POST", f"/admin/bookings/{ref}/move", {"start": "2026-11-28T17:00:00"})[0] == 422
    closed = admin("POST", f"/admin/bookings/{ref}/move", {"start": "2026-11-30T10:00:00+03:00"})
    assert (closed[0], closed[1]["reason"]) == (422, "not_open")  # Monday: closed


def test_the_shop_sees_what_customers_changed_on_whatsapp(admin: Admin, customer: Caller, clock: Clock) -> None:
    moved = booked(customer, KIDS, "2026-11-28T15:00:00+03:00")["booking_ref"]
    cancelled = booked(customer, KIDS, "2026-11-29T11:00:00+03:00")["booking_ref"]
    let_go = customer.ok(
        "booking_hold", customer_id=customer.customer_id, item_id=KIDS, start="2026-11-27T11:00:00+03:00"
    )["booking_ref"]
    customer.ok("booking_cancel", customer_id=customer.customer_id, booking_id=let_go)  # never booked: no news
    clock.advance(minutes=5)
    customer.ok(
        "booking_reschedule", customer_id=customer.customer_id, booking_id=moved, start="2026-11-28T16:00:00+03:00"
    )
    clock.advance(minutes=5)
    customer.ok("booking_cancel", customer_id=customer.customer_id, booking_id=cancelled)
    status, changes = admin("GET", "/admin/bookings/changes", role="agent")
    assert status == 200
    assert [(c["booking"]["booking_id"], c["event"]) for c in changes] == [(cancelled, "cancelled"), (moved, "moved")]
    assert changes[1]["booking"]["start"].startswith("2026-11-28T16:00")
    assert admin("GET", "/admin/bookings/changes?days=40")[0] == 422


def test_times_outside_a_sane_range_are_422_not_a_server_error(admin: Admin, customer: Caller) -> None:
    """Issue 31, part 4: a time block in year 9999 answered 500 (OverflowError)."""
    far = {"staff_id": "wanjiru", "start": "9999-12-31T23:00:00+03:00", "end": "9999-12-31T23:59:00+03:00"}
    status, body = admin("POST", "/admin/bookings/blocks", far)
    assert status == 422
    assert "between 2000-01-01 and 2100-12-31" in json.dumps(body)
    assert admin("DELETE", "/admin/bookings/blocks/blk1?start=9999-12-31T23:00:00Z")[0] == 422
    ref = booked(customer, KIDS, "2026-11-28T15:00:00+03:00")["booking_ref"]
    assert admin("POST", f"/admin/bookings/{ref}/move", {"start": "0001-01-01T10:00:00+03:00"})[0] == 422
    assert admin("GET", "/admin/bookings?day=2026-11-28")[1]["bookings"][0]["start"].startswith("2026-11-28T15:00")


def test_a_deposit_due_back_applied_to_another_order_from_the_money_list_is_no_longer_due_on_the_booking(
    admin: Admin, customer: Caller, seeded: Services, setup: dict[str, Any]
) -> None:
    """Issue 31, part 6: deposits due back and overpayments are one record with one state machine."""
    from tests.integration.test_till_payments import till_confirmation
    from tulia.payments.reconcile import apply_transaction

    nails = booked(customer, PEDICURE, "2026-11-28T10:00:00+03:00")
    till_confirmation(setup, seeded, "SKLDEP0002", "450.00")
    assert apply_transaction(seeded, SALON, "SKLDEP0002", str(nails["order_ref"]), now=seeded.clock()).outcome == "paid"
    assert admin("POST", f"/admin/bookings/{nails['booking_ref']}/cancel", {"deposit": "refund_due"})[0] == 200
    [owed] = admin("GET", "/admin/payments/overpayments")[1]["items"]
    close = f"/admin/payments/overpayments/{owed['method']}/{owed['provider_ref']}/close"
    # she moves to next week instead: the new appointment's deposit is paid with the one she had paid
    again = booked(customer, PEDICURE, "2026-12-05T10:00:00+03:00")
    assert seeded.bookings.get(SALON, again["booking_ref"]).status == "held"  # until its deposit is paid
    apply = close.replace("/close", "/apply")
    status, applied = admin("POST", apply, {"order_id": again["order_ref"]})
    assert status == 200, applied
    assert (applied["status"], applied["applied"][0]["amount"]) == ("applied", 450)
    assert seeded.bookings.get(SALON, again["booking_ref"]).status == "confirmed"  # its deposit is paid
    assert seeded.orders.get(SALON, again["order_ref"]).status == "paid"
    assert seeded.bookings.get(SALON, nails["booking_ref"]).deposit_outcome == "applied"
    assert admin("GET", "/admin/bookings/refunds")[1] == []  # not due back any more
    assert admin("POST", close, {"outcome": "refunded"})[0] == 409  # applied once: never refunded too
    assert admin("POST", f"/admin/bookings/{nails['booking_ref']}/refunded", {})[0] == 200  # already settled
    assert seeded.bookings.get(SALON, nails["booking_ref"]).deposit_outcome == "applied"


def test_a_walk_in_booked_by_staff_takes_the_slot_from_whatsapp_and_the_customer_is_told(
    admin: Admin, customer: Caller, seeded: Services, setup: dict[str, Any], clock: Clock
) -> None:
    clock.now = datetime(2026, 11, 28, 10, 10, tzinfo=NAIROBI)  # Saturday, ten past ten
    walk_in = {"item_id": KIDS, "start": "2026-11-28T10:00:00+03:00", "staff_id": "wanjiru",
               "phone": "0722 000 888", "name": "Baraka"}  # fmt: skip
    status, made = admin("POST", "/admin/bookings", walk_in, role="agent")
    assert status == 200, made  # in the slot under way: no notice asked of staff
    assert (made["status"], made["deposit"], made["staff_id"]) == ("confirmed", 0, "wanjiru")
    assert made["start"][11:16] == "10:00"
    assert made["customer"] == {"customer_id": made["customer_id"], "name": "Baraka", "phone": "+254722000888"}
    assert made["marks"][0]["by"] == "agent@shop.example"
    phoned = {**walk_in, "start": "2026-11-28T15:00:00+03:00", "name": None}
    assert admin("POST", "/admin/bookings", phoned)[0] == 200  # the same customer, found by number
    assert len({b["customer_id"] for b in admin("GET", "/admin/bookings?day=2026-11-28")[1]["bookings"]}) == 1
    taken = customer.err(
        "booking_hold", customer_id=customer.customer_id, item_id=KIDS, start="2026-11-28T15:00:00+03:00",
        staff_id="wanjiru",
    )  # fmt: skip
    assert taken["reason"] == "slot_taken"  # WhatsApp's customers cannot have Wanjiru at 15:00 now
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    told = pipe.replies_to("254722000888")
    assert any("imekuwekea Kids' Haircut" in m and made["booking_id"] in m for m in told), told  # in Swahili


def test_staff_move_a_booking_inside_the_notice_the_customer_cannot(
    admin: Admin, customer: Caller, clock: Clock
) -> None:
    clock.now = datetime(2026, 11, 28, 8, 0, tzinfo=NAIROBI)
    ref = booked(customer, KIDS, "2026-11-28T11:00:00+03:00")["booking_ref"]
    clock.now = datetime(2026, 11, 28, 10, 5, tzinfo=NAIROBI)  # under an hour before the nearest new time
    mine = customer.err("booking_reschedule", customer_id=customer.customer_id, booking_id=ref,
                        start="2026-11-28T10:30:00+03:00")  # fmt: skip
    assert mine["reason"] in ("inside_notice", "not_open")
    status, moved = admin("POST", f"/admin/bookings/{ref}/move", {"start": "2026-11-28T10:30:00+03:00"})
    assert (status, moved["start"][11:16]) == (200, "10:30")


def test_a_staff_booking_of_a_product_a_bad_number_or_a_closed_day_is_refused_and_changes_nothing(
    admin: Admin, seeded: Services, clock: Clock
) -> None:
    clock.now = datetime(2026, 11, 27, 9, 0, tzinfo=NAIROBI)
    good = {"item_id": KIDS, "start": "2026-11-28T10:00:00+03:00", "phone": "0722000999"}
    assert admin("POST", "/admin/bookings", {**good, "phone": "12"})[0] == 422
    assert admin("POST", "/admin/bookings", {**good, "phone": "not a number"})[0] == 422
    assert admin("POST", "/admin/bookings", {**good, "start": "2026-11-30T10:00:00+03:00"})[0] == 422  # Monday
    assert admin("POST", "/admin/bookings", {**good, "item_id": "NO-SUCH"})[0] in (404, 422)
    assert admin("POST", "/admin/bookings", {**good, "start": "2026-11-28T10:00:00"})[0] == 422  # no zone
    assert admin("GET", "/admin/bookings?day=2026-11-28")[1]["bookings"] == []
    assert seeded.customers.find_id_by_phone(SALON, "+254722000999") is None  # nobody was made for nothing


def test_the_appointment_figures_of_analytics_are_the_count_of_the_days_bookings(
    admin: Admin, customer: Caller, seeded: Services, setup: dict[str, Any], clock: Clock
) -> None:
    """Issue 33, part 6: each appointment figure the owner reads is tied to the bookings it counts."""
    from tests.integration.test_till_payments import till_confirmation
    from tulia.payments.reconcile import apply_transaction

    def paid(item: str, start: str, code: str) -> dict[str, Any]:
        made = booked(customer, item, start)
        till_confirmation(setup, seeded, code, "450.00")
        assert apply_transaction(seeded, SALON, code, str(made["order_ref"]), now=seeded.clock()).outcome == "paid"
        return made

    done = paid(PEDICURE, "2026-11-28T10:00:00+03:00", "SKLFIG0001")
    missed = paid(PEDICURE, "2026-11-28T12:00:00+03:00", "SKLFIG0002")
    called_off = paid(PEDICURE, "2026-11-28T15:00:00+03:00", "SKLFIG0003")
    held = booked(customer, PEDICURE, "2026-11-28T17:00:00+03:00")  # held: its deposit never came
    assert admin("POST", f"/admin/bookings/{called_off['booking_ref']}/cancel", {"deposit": "refund_due"})[0] == 200
    clock.now = datetime(2026, 11, 28, 16, 0, tzinfo=NAIROBI)  # the day has gone on
    assert admin("POST", f"/admin/bookings/{done['booking_ref']}/mark", {"outcome": "completed"})[0] == 200
    assert admin("POST", f"/admin/bookings/{missed['booking_ref']}/mark", {"outcome": "no_show"})[0] == 200

    status, figures = admin("GET", "/admin/analytics?from=2026-11-28&to=2026-11-28")
    assert status == 200, figures
    bookings = [seeded.bookings.get(SALON, b["booking_ref"]) for b in (done, missed, called_off, held)]
    counted = Counter(b.status for b in bookings)
    with_deposit_paid = [b for b in bookings if b.status in ("confirmed", "completed", "no_show")] + [
        b for b in bookings if b.status == "cancelled" and b.deposit_outcome in ("kept", "refund_due", "refunded")
    ]
    assert figures["bookings"] == {
        "booked": counted["confirmed"] + counted["completed"] + counted["no_show"],
        "completed": counted["completed"],
        "no_shows": counted["no_show"],
        "cancelled": counted["cancelled"],
        "deposits_paid_kes": sum(b.deposit for b in with_deposit_paid),
    }
    assert figures["bookings"] == {
        "booked": 2, "completed": 1, "no_shows": 1, "cancelled": 1, "deposits_paid_kes": 1350,
    }  # fmt: skip
    assert figures["days"][0]["bookings"] == figures["bookings"]


def test_a_phoned_in_booking_can_ask_for_its_deposit_by_mpesa_prompt_and_is_confirmed_when_paid(
    admin: Admin, customer: Caller, seeded: Services, setup: dict[str, Any], daraja: DarajaSimulator
) -> None:
    """Issue 33, part 3: a walk-in or phone booking "with or without a deposit". With one, the time is held, the
    M-Pesa prompt goes to the customer's phone, WhatsApp says so (and how else to pay), and the payment confirms it."""
    from tests.integration.test_payments_callbacks import callback, post

    phoned = {"item_id": PEDICURE, "start": "2026-11-28T12:00:00+03:00", "staff_id": "akinyi",
              "phone": "0722 000 999", "name": "Njeri", "ask_deposit": True}  # fmt: skip
    status, made = admin("POST", "/admin/bookings", phoned, role="agent")
    assert status == 200, made
    assert (made["status"], made["deposit"]) == ("held", 450)  # held until the deposit is paid
    order = seeded.orders.get(SALON, made["order_id"])
    assert (order.totals.total, order.pending_payment_id is not None) == (450, True)
    [prompt] = [p for p in daraja.stk.values() if p.body["PhoneNumber"] == "254722000999"]
    assert (prompt.body["Amount"], prompt.body["AccountReference"]) == (450, order.order_id.replace("-", ""))
    taken = customer.err("booking_hold", customer_id=customer.customer_id, item_id=PEDICURE,
                         start="2026-11-28T12:00:00+03:00", staff_id="akinyi")  # fmt: skip
    assert taken["reason"] == "slot_taken"  # held for her meanwhile
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    [told] = [m for m in pipe.replies_to("254722000999") if made["booking_id"] in m]
    assert "Ombi la M-Pesa liko kwenye simu yako" in told, told  # the salon speaks Swahili
    assert f"deposit ya KES 450 (oda {order.order_id})" in told, told
    post(setup, *callback(daraja, prompt.checkout_request_id, 0))  # she pays
    assert seeded.bookings.get(SALON, made["booking_id"]).status == "confirmed"
    assert seeded.orders.get(SALON, order.order_id).status == "paid"
    # a shop whose prompt cannot start (none set up here): held all the same, and she is told to reply for help
    tenant = seeded.tenants.get(SALON)
    seeded.tenants.save(tenant.model_copy(update={"payments": tenant.payments.model_copy(update={"mpesa_stk": None})}))
    later = {**phoned, "start": "2026-11-28T17:00:00+03:00", "phone": "0722 000 998"}
    status, unprompted = admin("POST", "/admin/bookings", later)
    assert (status, unprompted["status"]) == (200, "held"), unprompted
    pipe.run_agent()
    [said] = [m for m in pipe.replies_to("254722000998") if unprompted["booking_id"] in m]
    assert "Hatukuweza kutuma ombi la M-Pesa" in said, said
    # a service without a deposit is simply booked, whatever was asked
    plain = {**phoned, "item_id": KIDS, "start": "2026-11-28T16:00:00+03:00", "staff_id": "wanjiru"}
    status, kids = admin("POST", "/admin/bookings", plain)
    assert (status, kids["status"], kids["deposit"], kids["order_id"]) == (200, "confirmed", 0, None)
