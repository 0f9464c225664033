"""The appointment tools, registered beside the spec's fifteen: booking_search_slots, booking_hold,
booking_create, booking_reschedule, booking_cancel and booking_list. Times are ISO 8601 with the
shop's offset (+03:00); prices, deposits and free times come only from the shop's data."""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Literal

from pydantic import AwareDatetime, Field

from tulia.domain.booking import Booking, Slot, SlotWish, change_terms, local
from tulia.domain.tenant import Tenant
from tulia.errors import NotFound
from tulia.services import appointments as appt
from tulia.tools.args import ScopedArgs, _Args
from tulia.tools.common import Output
from tulia.tools.context import ToolContext

MAX_DAYS_ASKED = 31


class SlotWishArg(_Args):
    dates: list[date] | None = Field(default=None, max_length=MAX_DAYS_ASKED, description="Days asked (YYYY-MM-DD).")
    earliest: time | None = Field(default=None, description="Earliest start, HH:MM (shop's time).")
    latest: time | None = Field(default=None, description="Latest start, HH:MM (shop's time).")
    at: time | None = Field(default=None, description="The time asked for: the nearest free times come first.")
    staff_id: str | None = Field(default=None, max_length=32, description="The staff member asked for.")


class BookingSearchSlotsArgs(ScopedArgs):
    item_id: str = Field(max_length=64)
    variant_selection: dict[str, str] | None = None
    wish: SlotWishArg | None = None
    limit: int = Field(default=5, ge=1, le=10)


class BookingHoldArgs(ScopedArgs):
    customer_id: str
    item_id: str = Field(max_length=64)
    variant_selection: dict[str, str] | None = None
    start: AwareDatetime = Field(description="Start, ISO 8601 with offset (e.g. 2026-12-05T10:00:00+03:00).")
    staff_id: str | None = Field(default=None, max_length=32, description="None: the first able person free then.")
    zone: str | None = Field(default=None, max_length=60, description="For services at the customer's place.")
    address: str | None = Field(default=None, max_length=300)


class BookingRefArgs(ScopedArgs):
    customer_id: str
    booking_id: str = Field(max_length=20)


class BookingCreateArgs(BookingRefArgs):
    pass


class BookingRescheduleArgs(BookingRefArgs):
    start: AwareDatetime
    staff_id: str | None = Field(default=None, max_length=32)


class BookingCancelArgs(BookingRefArgs):
    reason: str | None = Field(default=None, max_length=200)


class BookingListArgs(ScopedArgs):
    customer_id: str
    include_past: bool = False
    limit: int = Field(default=5, ge=1, le=10)


class StaffOut(Output):
    staff_id: str
    name: str


class ServiceOut(Output):
    item_id: str
    name: str
    duration_minutes: int
    price: int
    deposit: int
    place: Literal["shop", "home"]
    zones: list[str]
    staff: list[StaffOut]


class SlotOut(Output):
    start: str
    end: str
    staff_id: str
    staff_name: str


class SlotsOut(Output):
    service: ServiceOut
    slots: list[SlotOut]
    closed_days: list[str]
    later: list[SlotOut]  # the nearest after the days asked, when they have none
    too_far_days: list[str]  # asked-for days past how far ahead the shop books
    horizon_days: int
    notice_hours: int


class BookingOut(Output):
    booking_ref: str
    status: str
    item_id: str
    variant_selection: dict[str, str]
    service_name: str
    staff_id: str
    staff_name: str
    start: str
    end: str
    place: Literal["shop", "home"]
    zone: str | None
    address: str | None
    price: int
    travel_fee: int
    deposit: int
    balance: int
    deposit_outcome: str | None
    hold_until: str | None
    order_ref: str | None
    amount_due: int
    can_move: bool
    inside_notice: bool
    deposit_if_cancelled: (
        str  # what the customer's cancellation now would do with a paid deposit: kept, refund_due, none
    )


class BookingsOut(Output):
    bookings: list[BookingOut]


def _slot(tenant: Tenant, slot: Slot, minutes: int) -> SlotOut:
    member = tenant.booking_settings().member(slot.staff_id)
    start = local(slot.start)
    return SlotOut(
        start=start.isoformat(),
        end=(start + timedelta(minutes=minutes)).isoformat(),
        staff_id=slot.staff_id,
        staff_name=member.name if member else slot.staff_id,
    )


def booking_out(ctx: ToolContext, tenant: Tenant, booking: Booking) -> BookingOut:
    now = ctx.services.clock()
    terms = change_terms(tenant.booking_settings(), booking, now)
    amount_due = 0
    if booking.order_id and booking.status == "held":
        amount_due = ctx.services.orders.get(tenant.tenant_id, booking.order_id).amount_due
    return BookingOut(
        booking_ref=booking.booking_id,
        status=booking.shown_status(now),
        item_id=booking.item_id,
        variant_selection=dict(booking.variant_selection),
        service_name=booking.service_name,
        staff_id=booking.staff_id,
        staff_name=booking.staff_name,
        start=local(booking.start).isoformat(),
        end=local(booking.end).isoformat(),
        place=booking.place,
        zone=booking.zone,
        address=booking.address,
        price=booking.price,
        travel_fee=booking.travel_fee,
        deposit=booking.deposit,
        balance=booking.balance,
        deposit_outcome=booking.deposit_outcome,
        hold_until=local(booking.hold_until).isoformat() if booking.hold_until and booking.status == "held" else None,
        order_ref=booking.order_id,
        amount_due=amount_due,
        can_move=booking.status == "confirmed" and terms.can_move,
        inside_notice=terms.inside_notice,
        deposit_if_cancelled=terms.deposit_on_cancel if booking.status == "confirmed" and booking.deposit else "none",
    )


def _tenant(ctx: ToolContext) -> Tenant:
    return ctx.services.tenants.get(ctx.tenant_id)


def booking_search_slots(ctx: ToolContext, args: BookingSearchSlotsArgs) -> SlotsOut:
    tenant = _tenant(ctx)
    _item, terms, _chosen = appt.terms_for(ctx.services, tenant, args.item_id, args.variant_selection)
    w = args.wish or SlotWishArg()
    wish = SlotWish(
        days=tuple(w.dates or ()), earliest=w.earliest, latest=w.latest, at=w.at, staff_id=w.staff_id or None
    )
    found = appt.search_slots(ctx.services, tenant, terms, wish, ctx.services.clock(), limit=args.limit)
    settings = tenant.booking_settings()
    return SlotsOut(
        service=ServiceOut(
            item_id=terms.item_id,
            name=terms.name,
            duration_minutes=terms.duration_minutes,
            price=terms.price,
            deposit=terms.deposit,
            place=terms.place,
            zones=terms.zones,
            staff=[StaffOut(staff_id=m.id, name=m.name) for m in settings.people() if m.id in terms.staff_ids],
        ),
        slots=[_slot(tenant, s, terms.duration_minutes) for s in found.slots],
        closed_days=[d.isoformat() for d in found.closed_days],
        later=[_slot(tenant, s, terms.duration_minutes) for s in found.later],
        too_far_days=[d.isoformat() for d in found.too_far],
        horizon_days=settings.horizon_days,
        notice_hours=settings.policy.notice_hours,
    )


def booking_hold(ctx: ToolContext, args: BookingHoldArgs) -> BookingOut:
    tenant = _tenant(ctx)
    ctx.services.customers.get(ctx.tenant_id, args.customer_id)  # a customer of this shop
    booking = appt.hold(
        ctx.services,
        tenant,
        customer_id=args.customer_id,
        item_id=args.item_id,
        variant_selection=args.variant_selection,
        start=args.start,
        staff_id=args.staff_id,
        zone=args.zone,
        address=args.address,
        language=ctx.language,
        now=ctx.services.clock(),
    )
    return booking_out(ctx, tenant, booking)


def _own(ctx: ToolContext, args: BookingRefArgs) -> Booking:
    return appt.customer_booking(ctx.services, ctx.tenant_id, args.customer_id, args.booking_id)


def booking_create(ctx: ToolContext, args: BookingCreateArgs) -> BookingOut:
    tenant = _tenant(ctx)
    booking, _order = appt.book(ctx.services, tenant, _own(ctx, args), ctx.services.clock())
    return booking_out(ctx, tenant, booking)


def booking_reschedule(ctx: ToolContext, args: BookingRescheduleArgs) -> BookingOut:
    tenant = _tenant(ctx)
    moved = appt.move(
        ctx.services,
        tenant,
        _own(ctx, args),
        start=args.start,
        staff_id=args.staff_id,
        now=ctx.services.clock(),
        by="customer",
        by_customer=True,
    )
    return booking_out(ctx, tenant, moved)


def booking_cancel(ctx: ToolContext, args: BookingCancelArgs) -> BookingOut:
    tenant = _tenant(ctx)
    cancelled = appt.cancel(
        ctx.services, tenant, _own(ctx, args), now=ctx.services.clock(), by="customer", by_customer=True,
        note=args.reason,
    )  # fmt: skip
    return booking_out(ctx, tenant, cancelled)


def booking_list(ctx: ToolContext, args: BookingListArgs) -> BookingsOut:
    tenant = _tenant(ctx)
    now = ctx.services.clock()
    try:
        ctx.services.customers.get(ctx.tenant_id, args.customer_id)
    except NotFound:
        raise NotFound("Unknown customer.", field="customer_id") from None
    since = now - timedelta(days=366) if args.include_past else now
    found = ctx.services.bookings.list_for_customer(ctx.tenant_id, args.customer_id, since=since, limit=50)
    if not args.include_past:
        found = [b for b in found if b.shown_status(now) in ("held", "confirmed")]
    return BookingsOut(bookings=[booking_out(ctx, tenant, b) for b in found[: args.limit]])
