"""The appointment book: the shop's bookings by day and staff member, time blocked off (a staff member
away), an appointment marked completed or no-show after its start, moved or cancelled by staff (the
deposit kept or due back, as staff decide; the customer is told on WhatsApp by the agent), and the
deposits due back. Owners and agents; every change is audited. The operations are the ones the booking
tools use (:mod:`tulia.services.appointments`)."""

from datetime import date, datetime, time, timedelta
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from tulia.admin.common import (
    AdminDeps,
    BusinessMoment,
    CustomerBrief,
    Deleted,
    Deps,
    Staff,
    View,
    admin_router,
    audit,
    business_day,
    count_refund,
    customer_briefs,
)
from tulia.admin.orders import tell_refunded
from tulia.channel.whatsapp import customer_key
from tulia.domain.booking import Booking, local, working_intervals
from tulia.domain.common import NAIROBI
from tulia.domain.order import Order
from tulia.domain.phone import normalize_phone
from tulia.errors import InvalidInput, NotFound, TuliaError
from tulia.observability import logger as log
from tulia.services import appointments
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

MAX_DAYS = 14


class BookingStaff(View):
    staff_id: str
    name: str


class BookingView(Booking):
    """A booking as the calendar shows it: with who the customer is and what is left to pay there."""

    customer: CustomerBrief | None = None  # None: the customer's data was erased
    to_pay_there: int = 0  # price and travel fee less the deposit
    status_now: str = ""  # "expired" for a hold that lapsed unpaid, else the status


class BlockView(View):
    block_id: str
    staff_id: str
    start: datetime
    end: datetime
    reason: str
    by: str | None


class BookableService(View):
    item_id: str
    name: str
    duration_minutes: int
    price: int
    staff_ids: list[str]  # who may do it (empty: anyone)


class WorkingTime(View):
    """When a person takes appointments on a day (the shop's hours and theirs, less breaks); a day off, a holiday or
    a closed day has none."""

    staff_id: str
    start: datetime
    end: datetime


class Calendar(View):
    """The days asked: the staff, their bookings (held, confirmed, done; cancelled ones too, greyed) and
    the time blocked off, each by start time in the shop's time (EAT); when each person works; and the services
    staff can book."""

    first_day: date
    days: int
    staff: list[BookingStaff]
    bookings: list[BookingView]
    blocks: list[BlockView]
    working: list[WorkingTime]
    services: list[BookableService]


CHANGES = ("moved", "cancelled")


class CustomerChange(View):
    """A customer's own change to a booking (the shop is told here and on the console's Bookings screen)."""

    booking: BookingView
    event: str
    at: datetime


class MarkBody(View):
    outcome: Literal["completed", "no_show"]


class CancelBody(View):
    deposit: Literal["kept", "refund_due"] | None = Field(
        default=None, description="What happens to a paid deposit (default: the shop's policy, as for the customer)"
    )
    note: str | None = Field(default=None, max_length=200)


class RefundBody(View):
    note: str | None = Field(default=None, max_length=200, description="e.g. the M-Pesa reversal or B2C code")


class MoveBody(View):
    start: BusinessMoment = Field(description="The new start, ISO 8601 with offset (e.g. 2026-12-05T10:00:00+03:00)")
    staff_id: str | None = Field(default=None, max_length=32, description="None: the same person, else anyone able")


class NewBookingBody(View):
    """A booking staff make for a customer who walked in or phoned: confirmed at once, no deposit asked."""

    item_id: str = Field(min_length=1, max_length=64, description="The service (a catalog item with a duration)")
    variant_selection: dict[str, str] = Field(default_factory=dict)
    start: BusinessMoment = Field(description="ISO 8601 with offset (e.g. 2026-12-05T10:00:00+03:00)")
    staff_id: str | None = Field(default=None, max_length=32, description="None: the first able person free then")
    phone: str = Field(min_length=7, max_length=20, description="The customer's number (0712 345 678 or +254...)")
    name: str | None = Field(default=None, max_length=120)
    tell_customer: bool = Field(default=True, description="Send the customer the booking on WhatsApp")
    ask_deposit: bool = Field(
        default=False,
        description="Ask for the service's deposit: the time is held, an M-Pesa prompt goes to the customer's phone "
        "(and WhatsApp says how else to pay); paid, the booking is confirmed, unpaid the hold lapses",
    )


class BlockBody(View):
    staff_id: str = Field(max_length=32)
    start: BusinessMoment
    end: BusinessMoment
    reason: str = Field(default="away", min_length=1, max_length=100)


router = admin_router()


def views(deps: AdminDeps, tenant_id: str, bookings: list[Booking]) -> list[BookingView]:
    briefs = customer_briefs(deps, tenant_id, {b.customer_id for b in bookings})
    now = deps.services.clock()
    return [
        BookingView(
            **dict(b), customer=briefs.get(b.customer_id), to_pay_there=b.balance, status_now=b.shown_status(now)
        )
        for b in bookings
    ]


@router.get("/admin/bookings", tags=["bookings"], summary="The appointment book: days by staff member")
def calendar(
    who: Staff,
    deps: Deps,
    day: Annotated[date | None, Query(description="The first day (YYYY-MM-DD); default today")] = None,
    days: Annotated[int, Query(ge=1, le=MAX_DAYS)] = 1,
    staff_id: Annotated[str | None, Query(max_length=32)] = None,
) -> Calendar:
    tenant = deps.services.tenants.get(who.tenant_id)
    settings = tenant.booking_settings()
    if staff_id is not None and settings.member(staff_id) is None:
        raise InvalidInput(f"No staff member '{staff_id}'.", field="staff_id")
    first = business_day(day, "day") or local(deps.services.clock()).date()
    start = datetime.combine(first, time(0, 0), tzinfo=NAIROBI)
    end = start + timedelta(days=days)
    found = [
        b for b in deps.services.bookings.list_between(who.tenant_id, start, end) if staff_id in (None, b.staff_id)
    ]
    blocks = [
        b for b in deps.services.bookings.blocks_between(who.tenant_id, start, end) if staff_id in (None, b.staff_id)
    ]
    people = [m for m in settings.people() if staff_id in (None, m.id)]
    return Calendar(
        first_day=first,
        days=days,
        staff=[BookingStaff(staff_id=m.id, name=m.name) for m in people],
        bookings=views(deps, who.tenant_id, found),
        working=[
            WorkingTime(staff_id=m.id, start=span.start, end=span.end)
            for n in range(days)
            for m in people
            for span in working_intervals(settings, m, first + timedelta(days=n))
        ],
        blocks=[
            BlockView(block_id=b.block_id, staff_id=b.staff_id, start=b.start, end=b.end, reason=b.reason, by=b.by)
            for b in blocks
        ],
        services=[
            BookableService(
                item_id=i.item_id,
                name=i.name,
                duration_minutes=i.duration_minutes or 0,
                price=i.price,
                staff_ids=list(i.staff),
            )
            for i in sorted(deps.services.catalog.iter_all(who.tenant_id), key=lambda i: (i.category, i.name))
            if i.bookable and i.active
        ],
    )


@router.get("/admin/bookings/refunds", tags=["bookings"], summary="Deposits due back (cancelled or released)")
def refunds(who: Staff, deps: Deps) -> list[BookingView]:
    now = deps.services.clock()
    tenant = deps.services.tenants.get(who.tenant_id)
    horizon = timedelta(days=tenant.booking_settings().horizon_days + 1)
    found = deps.services.bookings.list_between(who.tenant_id, now - timedelta(days=90), now + horizon, limit=2000)
    return views(deps, who.tenant_id, [b for b in found if b.deposit_outcome == "refund_due"])


@router.get(
    "/admin/bookings/changes",
    tags=["bookings"],
    summary="What customers changed on WhatsApp (moved, cancelled), newest first",
)
def changes(
    who: Staff,
    deps: Deps,
    days: Annotated[int, Query(ge=1, le=31)] = 7,
) -> list[CustomerChange]:
    now = deps.services.clock()
    since = now - timedelta(days=days)
    tenant = deps.services.tenants.get(who.tenant_id)
    horizon = timedelta(days=tenant.booking_settings().horizon_days + 1)
    found = deps.services.bookings.list_between(who.tenant_id, since, now + horizon, limit=2000)
    done = [  # of confirmed bookings: a time let go before it was booked is no news
        (b, m)
        for b in found
        if any(mark.event == "confirmed" for mark in b.marks)
        for m in b.marks
        if m.by == "customer" and m.event in CHANGES and m.at >= since
    ]
    done.sort(key=lambda pair: pair[1].at, reverse=True)
    shown = {v.booking_id: v for v in views(deps, who.tenant_id, list({b.booking_id: b for b, _ in done}.values()))}
    return [CustomerChange(booking=shown[b.booking_id], event=m.event, at=m.at) for b, m in done[:100]]


@router.get("/admin/bookings/<booking_id>", tags=["bookings"], summary="A booking with its history")
def get_booking(booking_id: str, who: Staff, deps: Deps) -> BookingView:
    return views(deps, who.tenant_id, [deps.services.bookings.get(who.tenant_id, booking_id)])[0]


@router.post("/admin/bookings/<booking_id>/mark", tags=["bookings"], summary="Completed or no-show, after the start")
def mark(
    booking_id: str,
    body: MarkBody,
    who: Staff,
    deps: Deps,
) -> BookingView:
    booking = deps.services.bookings.get(who.tenant_id, booking_id)
    if booking.status == body.outcome:
        return views(deps, who.tenant_id, [booking])[0]  # marking again is not an error
    marked = deps.services.bookings.mark(booking, body.outcome, deps.services.clock(), by=who.actor)
    audit(deps, who, f"booking.{body.outcome}", booking_id)
    return views(deps, who.tenant_id, [marked])[0]


@router.post(
    "/admin/bookings/<booking_id>/refunded",
    tags=["bookings"],
    summary="Record that a deposit due back was refunded (by M-Pesa, outside Tulia)",
)
def refunded(
    booking_id: str,
    body: RefundBody,
    who: Staff,
    deps: Deps,
) -> BookingView:
    booking = deps.services.bookings.get(who.tenant_id, booking_id)
    if booking.deposit_outcome in ("refunded", "applied"):
        return views(deps, who.tenant_id, [booking])[0]  # recorded before: not an error
    owed = [
        o
        for o in deps.services.payments.open_owed_back_of(who.tenant_id, booking.order_id or "")
        if o.booking_id == booking_id
    ]
    for record in owed:  # the one record of this money: closing it refunds the deposit too
        deps.services.payments.close_owed_back(
            record, "refunded", now=deps.services.clock(), by=who.actor, note=body.note
        )
        # a paid deposit due back had counted as revenue; a deposit too late for its slot never had
        count_refund(deps, who.tenant_id, record.remaining, of_revenue=record.reason == "deposit_due_back")
        tell_refunded(deps, who.tenant_id, record.order_id, record.remaining, record.provider_ref)
    if not owed:  # cancelled before money owed back had records: a paid deposit, counted as revenue
        deps.services.bookings.record_refund(booking, deps.services.clock(), by=who.actor, note=body.note)
        count_refund(deps, who.tenant_id, booking.deposit, of_revenue=True)
        if booking.order_id:
            tell_refunded(deps, who.tenant_id, booking.order_id, booking.deposit, booking.booking_id)
    done = deps.services.bookings.get(who.tenant_id, booking_id)
    audit(deps, who, "booking.refunded", booking_id, amount=booking.deposit, note=body.note)
    return views(deps, who.tenant_id, [done])[0]


@router.post(
    "/admin/bookings/<booking_id>/cancel",
    tags=["bookings"],
    summary="Cancel an appointment; the customer is told on WhatsApp",
)
def cancel(
    booking_id: str,
    body: CancelBody,
    who: Staff,
    deps: Deps,
) -> BookingView:
    tenant = deps.services.tenants.get(who.tenant_id)
    booking = deps.services.bookings.get(who.tenant_id, booking_id)
    if booking.status == "cancelled":
        return views(deps, who.tenant_id, [booking])[0]
    done = appointments.cancel(
        deps.services,
        tenant,
        booking,
        now=deps.services.clock(),
        by=who.actor,
        by_customer=False,
        outcome=body.deposit,
        note=body.note,
    )
    audit(deps, who, "booking.cancel", booking_id, deposit=done.deposit_outcome)
    tell_customer(deps, done, "cancelled")
    return views(deps, who.tenant_id, [done])[0]


@router.post(
    "/admin/bookings/<booking_id>/move",
    tags=["bookings"],
    summary="Move a confirmed appointment (any time, whatever the policy); the customer is told",
)
def move(
    booking_id: str,
    body: MoveBody,
    who: Staff,
    deps: Deps,
) -> BookingView:
    tenant = deps.services.tenants.get(who.tenant_id)
    booking = deps.services.bookings.get(who.tenant_id, booking_id)
    moved = appointments.move(
        deps.services, tenant, booking, start=body.start, staff_id=body.staff_id, now=deps.services.clock(),
        by=who.actor, by_customer=False,
    )  # fmt: skip
    audit(deps, who, "booking.move", booking_id, start=moved.start.isoformat(), staff_id=moved.staff_id)
    tell_customer(deps, moved, f"moved-{moved.start.astimezone(NAIROBI):%Y%m%d%H%M}")
    if deps.outreach is not None:
        for work, delay in appointments.reminder_work(tenant, moved.booking_id, moved.start, deps.services.clock()):
            deps.outreach.send(work, delay_seconds=delay)
    return views(deps, who.tenant_id, [moved])[0]


@router.post(
    "/admin/bookings",
    tags=["bookings"],
    summary="Book a customer who walked in or phoned (confirmed; or held until a deposit asked for is paid); told on "
    "WhatsApp",
)
def new_booking(body: NewBookingBody, who: Staff, deps: Deps) -> BookingView:
    s, now = deps.services, deps.services.clock()
    tenant = s.tenants.get(who.tenant_id)
    phone = normalize_phone(body.phone, field="phone")
    customer, new = s.customers.find_or_create(who.tenant_id, phone, body.name, now)
    try:
        made, deposit_order = appointments.staff_booking(
            s, tenant, customer_id=customer.customer_id, item_id=body.item_id,
            variant_selection=body.variant_selection, start=body.start, staff_id=body.staff_id, now=now, by=who.actor,
            ask_deposit=body.ask_deposit,
        )  # fmt: skip
    except TuliaError:
        if new:  # a refused booking leaves nobody behind
            s.customers.delete_with_aliases(customer)
        raise
    audit(deps, who, "booking.create", made.booking_id, start=made.start.isoformat(), staff_id=made.staff_id)
    if deposit_order is not None:
        prompt_deposit(deps, made, deposit_order, phone)  # before the news: it says whether a prompt is on the way
        made = s.bookings.get(who.tenant_id, made.booking_id)
    if body.tell_customer:
        tell_customer(deps, made, "booked")
    if deps.outreach is not None:
        for work, delay in appointments.reminder_work(tenant, made.booking_id, made.start, now):
            deps.outreach.send(work, delay_seconds=delay)
    return views(deps, who.tenant_id, [made])[0]


@router.post("/admin/bookings/blocks", tags=["bookings"], summary="Keep a staff member's time free (same day)")
def block(body: BlockBody, who: Staff, deps: Deps) -> BlockView:
    tenant = deps.services.tenants.get(who.tenant_id)
    made = appointments.block_time(
        deps.services, tenant, staff_id=body.staff_id, start=body.start, end=body.end, reason=body.reason, by=who.actor,
        now=deps.services.clock(),
    )  # fmt: skip
    audit(deps, who, "booking.block", made.block_id, staff_id=made.staff_id, start=made.start.isoformat())
    return BlockView(
        block_id=made.block_id, staff_id=made.staff_id, start=made.start, end=made.end, reason=made.reason,
        by=made.by,
    )  # fmt: skip


@router.delete("/admin/bookings/blocks/<block_id>", tags=["bookings"], summary="Give blocked time back")
def unblock(
    block_id: str,
    who: Staff,
    deps: Deps,
    start: Annotated[datetime, Query(description="The block's start, as listed")],
) -> Deleted:
    if start.tzinfo is None:
        raise InvalidInput("start must carry its time zone.", field="start")
    business_day(start.date(), "start")  # year 9999 is a typo (422), never an overflow
    deps.services.bookings.unblock(who.tenant_id, block_id, start)
    audit(deps, who, "booking.unblock", block_id)
    return Deleted(deleted=True, id=block_id)


def prompt_deposit(deps: AdminDeps, booking: Booking, order: Order, phone: str) -> None:
    """The M-Pesa prompt for a booking's deposit, to the customer's phone, as the bot would start it (the payments
    function confirms the booking when it is paid). A prompt that cannot start is logged: the customer is told how
    else to pay."""
    ctx = ToolContext(
        tenant_id=booking.tenant_id,
        request_id=f"staff-deposit-{booking.booking_id}",
        conversation_id="admin",
        services=deps.services,
        customer_id=booking.customer_id,
    )
    args = {"order_id": order.order_id, "phone_e164": phone, "amount": order.amount_due}
    started = call_tool(
        "payment_initiate_stk_push",
        {"tenant_id": booking.tenant_id, "request_id": ctx.request_id, "conversation_id": "admin", **args},
        ctx,
    )
    if not started["ok"]:
        log.warning(
            "deposit prompt not started",
            extra={"tenant_id": booking.tenant_id, "code": started["error"]["code"]},
        )


def tell_customer(deps: AdminDeps, booking: Booking, event: str) -> None:
    """News of a change staff made goes to the agent, in the customer's own FIFO group."""
    if deps.notify is None:
        log.warning("news for customers is not configured for the admin API", extra={"kind": "booking_update"})
        return
    try:
        customer = deps.services.customers.get(booking.tenant_id, booking.customer_id)
    except NotFound:
        return
    body: dict[str, Any] = {
        "kind": "booking_update",
        "tenant_id": booking.tenant_id,
        "booking_id": booking.booking_id,
        "event": event,
    }
    deps.notify.send(
        tenant_id=booking.tenant_id,
        customer_key=customer_key(customer.phone_e164, customer.wa_user_id),
        dedup=f"upd-{booking.booking_id}-{event}",
        body=body,
    )
