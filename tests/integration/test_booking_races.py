"""No double booking, as a property: however many customers hold, book, pay, move and cancel, in any
order, with holds lapsing between them, no staff member is ever held by two open bookings at
overlapping times, and every open booking owns all of its time.

Every booking operation is one DynamoDB transaction whose conditions decide it (nothing is read first
to decide), and DynamoDB runs transactions serializably, so the interleavings of whole requests are
all the concurrency there is to explore; Hypothesis explores them. (Real threads against moto in
process are not a faithful race: moto's transactions are not atomic across threads, it restores a
snapshot of the table when one fails, which can undo another thread's write.)
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SALON, Caller, Clock, new_customer
from tests.integration.test_bookings import pay
from tulia.domain.booking import Booking
from tulia.domain.common import NAIROBI
from tulia.domain.order import PAYABLE_STATES
from tulia.errors import StateConflict
from tulia.services import Services
from tulia.store import keys
from tulia.store.tables import BOOKINGS

SERVICES_ = ("SV-WS-02", "SV-NL-02", "SV-BRD-03", "SV-SK-01")  # silk press, pedicure, cornrows, facial
STARTS = [f"2026-11-{day}T{h:02d}:{m:02d}:00+03:00" for day in (24, 25) for h in range(9, 16) for m in (0, 30)]

operation = st.one_of(
    st.tuples(
        st.just("hold"),
        st.integers(0, 5),
        st.sampled_from(SERVICES_),
        st.sampled_from(STARTS),
        st.sampled_from([None, "wanjiru", "akinyi"]),
    ),
    st.tuples(st.just("book"), st.integers(0, 5)),
    st.tuples(st.just("pay"), st.integers(0, 5)),
    st.tuples(st.just("move"), st.integers(0, 5), st.sampled_from(STARTS)),
    st.tuples(st.just("cancel"), st.integers(0, 5)),
    st.tuples(st.just("wait"), st.sampled_from([1, 10, 20])),
)


def reset_bookings(services: Services) -> None:
    """Empty the bookings table between examples (the customers and the catalog stay)."""
    db = services.db
    for item in db.client.scan(TableName=db.name(BOOKINGS))["Items"]:
        db.client.delete_item(TableName=db.name(BOOKINGS), Key={"pk": item["pk"], "sk": item["sk"]})


def open_bookings(services: Services, now: datetime) -> list[Booking]:
    found = services.bookings.list_between(SALON, now - timedelta(days=1), now + timedelta(days=40))
    return [b for b in found if b.status == "confirmed" or (b.status == "held" and not b.hold_lapsed(now))]


def assert_no_overlap(services: Services, now: datetime) -> None:
    bookings = open_bookings(services, now)
    by_staff: dict[str, list[Booking]] = defaultdict(list)
    for b in bookings:
        by_staff[b.staff_id].append(b)
    for staff, mine in by_staff.items():
        mine.sort(key=lambda b: b.start)
        for a, b in itertools.pairwise(mine):
            assert a.start + timedelta(minutes=a.cells_minutes) <= b.start, (staff, a.booking_id, b.booking_id)
    cells = {
        i["sk"]["S"]: i["owner"]["S"]
        for i in services.db.client.query(
            TableName=services.db.name(BOOKINGS),
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": keys.cells_pk(SALON)}},
        )["Items"]
    }
    for b in bookings:
        assert all(cells.get(c) == b.booking_id for c in b.held_cells()), b.booking_id


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=4, max_size=24))
def test_no_staff_member_is_ever_booked_twice_at_once(seeded: Services, clock: Clock, ops: list[Any]) -> None:
    reset_bookings(seeded)
    clock.now = datetime(2026, 11, 23, 10, 0, tzinfo=NAIROBI)
    customers = [Caller(seeded, SALON) for _ in range(6)]
    for n, c in enumerate(customers):
        c.customer_id = new_customer(c, f"07220010{n:02d}")
    latest: dict[int, dict[str, Any]] = {}
    for op in ops:
        kind, rest = op[0], op[1:]
        if kind == "wait":
            clock.advance(minutes=rest[0])
        elif kind == "hold":
            who, item, start, staff = rest
            c = customers[who]
            result = c("booking_hold", customer_id=c.customer_id, item_id=item, start=start, staff_id=staff)
            if result["ok"]:
                latest[who] = result["data"]
            else:
                assert result["error"].get("reason") in ("slot_taken", "not_open", "staff_cannot"), result
        elif rest[0] in latest:
            who = rest[0]
            c, ref = customers[who], latest[who]["booking_ref"]
            if kind == "book":
                c("booking_create", customer_id=c.customer_id, booking_id=ref)
            elif kind == "pay":
                booking = seeded.bookings.get(SALON, ref)
                order = seeded.orders.get(SALON, booking.order_id) if booking.order_id else None
                if order is not None and order.status in PAYABLE_STATES:
                    pay(seeded, order.order_id, booking.deposit)
                elif order is not None and order.status != "paid":
                    # a deposit's order cancelled with its booking: no payment starts for it, and nothing changes
                    with pytest.raises(StateConflict):
                        pay(seeded, order.order_id, booking.deposit)
                    assert seeded.orders.get(SALON, order.order_id).status == order.status
            elif kind == "move":
                c("booking_reschedule", customer_id=c.customer_id, booking_id=ref, start=rest[1])
            elif kind == "cancel":
                c("booking_cancel", customer_id=c.customer_id, booking_id=ref)
        assert_no_overlap(seeded, clock.now)
    # every confirmed deposit is a paid order or money to refund, never both, never lost
    for b in seeded.bookings.list_between(SALON, clock.now - timedelta(days=1), clock.now + timedelta(days=40)):
        if b.order_id is None:
            continue
        order, payments = seeded.orders.get_with_payments(SALON, b.order_id)
        paid = [p for p in payments if p.status == "paid"]
        if b.status == "confirmed" and b.deposit:
            assert (order.status, [p.overpayment for p in paid]) == ("paid", [False])
        if order.status == "cancelled":
            assert all(p.overpayment for p in paid)
