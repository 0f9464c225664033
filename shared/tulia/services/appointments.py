"""Appointments: the booking operations the bot's tools and the admin API share.

Finding slots reads the shop's taken cells once (one query for the days asked) and runs the pure
search of :mod:`tulia.domain.booking`. Holding, confirming, moving and cancelling write through
:class:`tulia.store.bookings.BookingRepo`, whose conditional writes are what keeps two customers off
one person's time. A booking with a deposit becomes an order of one deposit line; the payment path
confirms the booking in the same transaction that marks the order paid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from tulia.domain.alerts import AlertKind, booking_alert
from tulia.domain.booking import (
    Booking,
    BookingMark,
    DepositOutcome,
    ServiceTerms,
    Slot,
    SlotWish,
    StaffMember,
    blocked_minutes,
    change_terms,
    free_slots,
    local,
    reminder_times,
    service_terms,
    working_intervals,
)
from tulia.domain.catalog import CatalogItem
from tulia.domain.common import new_reference
from tulia.domain.order import Delivery, Order, OrderLine, compute_totals
from tulia.domain.tenant import Tenant
from tulia.errors import BusinessRuleViolation, InvalidInput, NotFound, StateConflict
from tulia.services import Services
from tulia.store.bookings import Block

NOT_BOOKABLE = "not_bookable"
SLOT_TAKEN = "slot_taken"


@dataclass
class SlotSearch:
    service: ServiceTerms
    slots: list[Slot]
    closed_days: list[date] = field(default_factory=list)  # asked-for days nobody able works (closed, holiday)
    later: list[Slot] = field(default_factory=list)  # the nearest after the days asked, when those have none
    too_far: list[date] = field(default_factory=list)  # asked-for days past the shop's horizon


def bookable_item(services: Services, tenant: Tenant, item_id: str) -> CatalogItem:
    try:
        item = services.catalog.get(tenant.tenant_id, item_id)
    except NotFound:
        raise NotFound(f"No catalog item '{item_id}'.", field="item_id") from None
    if not item.active:
        raise NotFound(f"No catalog item '{item_id}'.", field="item_id")
    if not item.bookable:
        raise BusinessRuleViolation(
            f"{item.name} is not booked as an appointment.", field="item_id", reason=NOT_BOOKABLE
        )
    return item


def terms_for(
    services: Services, tenant: Tenant, item_id: str, variant_selection: dict[str, str] | None = None
) -> tuple[CatalogItem, ServiceTerms, dict[str, str]]:
    """The item, its booking terms at the price of the options chosen, and those options as the
    catalog spells them (an unknown option is refused)."""
    item = bookable_item(services, tenant, item_id)
    price, chosen = item.price, {}
    for name, value in (variant_selection or {}).items():
        dimension = item.dimension(name)
        option = dimension.option(value) if dimension else None
        if dimension is None or option is None:
            raise InvalidInput(f"{item.name} has no option '{name}: {value}'.", field="variant_selection")
        price += option.price_delta
        chosen[dimension.name] = option.value
    zones = [z.name for z in tenant.delivery_zones]
    return item, service_terms(tenant.booking_settings(), item, zones, max(0, price)), chosen


def _able(tenant: Tenant, terms: ServiceTerms, staff_id: str | None) -> list[StaffMember]:
    settings = tenant.booking_settings()
    people = [m for m in settings.people() if m.id in terms.staff_ids]
    if staff_id is not None:
        if settings.member(staff_id) is None:
            raise InvalidInput(f"No staff member '{staff_id}'.", field="staff_id")
        people = [m for m in people if m.id == staff_id]
        if not people:
            raise BusinessRuleViolation(
                f"{settings.member(staff_id).name} does not do {terms.name}.",  # type: ignore[union-attr]
                field="staff_id",
                reason="staff_cannot",
            )
    return people


def search_slots(
    services: Services, tenant: Tenant, terms: ServiceTerms, wish: SlotWish, now: datetime, *, limit: int = 5
) -> SlotSearch:
    """Free slots for the wish; when the days asked have none, why (closed) and the nearest after them."""
    settings = tenant.booking_settings()
    people = _able(tenant, terms, wish.staff_id)
    today = local(now).date()
    last_day = today + timedelta(days=settings.horizon_days)
    asked = sorted(d for d in wish.days if today <= d <= last_day)
    first = asked[0] if asked else today
    taken = services.bookings.taken_cells(tenant.tenant_id, first.isoformat(), last_day.isoformat(), now)
    slots = free_slots(settings, terms, taken, now=now, wish=wish, limit=limit)
    closed = [d for d in asked if not any(working_intervals(settings, m, d) for m in people)]
    later: list[Slot] = []
    if not slots:  # the nearest free times after the days asked (any day, any time)
        first_after = asked[-1] + timedelta(days=1) if asked else today
        after = tuple(first_after + timedelta(days=n) for n in range((last_day - first_after).days + 1))
        later = free_slots(
            settings, terms, taken, now=now, wish=SlotWish(days=after, staff_id=wish.staff_id), limit=min(limit, 3)
        )
    too_far = sorted(d for d in wish.days if d > last_day)
    return SlotSearch(terms, slots, closed, later, too_far)


def _valid_start(
    tenant: Tenant, terms: ServiceTerms, member: StaffMember, start: datetime, now: datetime, *, by_staff: bool = False
) -> bool:
    """A start the shop's hours, the person's hours and the slot grid allow; customers also need the shop's
    notice, staff do not (a walk-in starts in the slot under way)."""
    settings = tenant.booking_settings()
    at = local(start)
    earliest = local(now) + timedelta(minutes=settings.min_notice_minutes)
    if by_staff:
        earliest = local(now) - timedelta(minutes=settings.slot_minutes)
    if at < earliest:
        return False
    if at.date() > local(now).date() + timedelta(days=settings.horizon_days):
        return False
    if (at.hour * 60 + at.minute) % settings.slot_minutes or at.second or at.microsecond:
        return False
    end = at + timedelta(minutes=terms.duration_minutes)
    return any(span.start <= at and end <= span.end for span in working_intervals(settings, member, at.date()))


def hold(
    services: Services,
    tenant: Tenant,
    *,
    customer_id: str,
    item_id: str,
    variant_selection: dict[str, str] | None,
    start: datetime,
    staff_id: str | None,
    zone: str | None = None,
    address: str | None = None,
    language: str | None = None,
    now: datetime,
    by_staff: str | None = None,
    staff_ask_deposit: bool = False,
) -> Booking:
    """Hold a slot for the customer (until the shop's hold time passes): the person asked for, or the
    first able person free then. StateConflict(slot_taken) if nobody is. ``by_staff``: the staff member
    booking it for the customer (no notice needed, no deposit asked unless ``staff_ask_deposit``)."""
    if start.tzinfo is None:
        raise InvalidInput("start must carry its time zone (the shop's is +03:00).", field="start")
    item, terms, chosen = terms_for(services, tenant, item_id, variant_selection)
    missing = [v.name for v in item.variants if v.name not in chosen]
    if missing:
        raise InvalidInput(f"Choose {', '.join(missing)} for {item.name} first.", field="variant_selection")
    settings = tenant.booking_settings()
    travel_fee, where = 0, None
    if terms.place == "home":
        wanted = (zone or "").strip().casefold()
        where = next((z for z in terms.zones if z.casefold() == wanted), None)
        if where is None:
            raise InvalidInput(
                f"{terms.name} is done at your place in: {', '.join(terms.zones)}.",
                field="zone",
                details={"options": terms.zones},
            )
        found = tenant.zone_named(where)
        travel_fee = found.fee if found else 0
    people = [
        m for m in _able(tenant, terms, staff_id) if _valid_start(tenant, terms, m, start, now, by_staff=bool(by_staff))
    ]
    if not people:
        raise BusinessRuleViolation(
            f"{local(start):%a %d %b %H:%M} is not a time {terms.name} can be booked.",
            field="start",
            reason="not_open",
        )
    name_with_options = terms.name + (f" ({', '.join(chosen.values())})" if chosen else "")
    for member in people:
        booking = Booking(
            tenant_id=tenant.tenant_id,
            booking_id=new_reference("BK"),
            customer_id=customer_id,
            item_id=item.item_id,
            service_name=name_with_options,
            variant_selection=chosen,
            staff_id=member.id,
            staff_name=member.name,
            start=local(start),
            end=local(start) + timedelta(minutes=terms.duration_minutes),
            cells_minutes=blocked_minutes(settings, terms.duration_minutes),
            place=terms.place,
            zone=where,
            address=(address or "").strip()[:300] or None,
            price=terms.price,
            travel_fee=travel_fee,
            deposit=0 if by_staff and not staff_ask_deposit else terms.deposit,
            status="held",
            hold_until=now + timedelta(minutes=settings.hold_minutes),
            language=language,
            marks=[BookingMark(event="held", at=now, by=by_staff or "customer")],
            created_at=now,
            updated_at=now,
        )
        try:
            return services.bookings.hold(booking, now)
        except StateConflict:
            continue
    raise StateConflict(f"{local(start):%a %d %b %H:%M} was just taken.", field="start", reason=SLOT_TAKEN)


def staff_booking(
    services: Services,
    tenant: Tenant,
    *,
    customer_id: str,
    item_id: str,
    variant_selection: dict[str, str] | None,
    start: datetime,
    staff_id: str | None,
    now: datetime,
    by: str,
    ask_deposit: bool = False,
) -> tuple[Booking, Order | None]:
    """A booking staff make for a customer (a walk-in, a phone call), in the same book as WhatsApp's (the slot is
    taken for everyone): confirmed at once without a deposit; with ``ask_deposit`` and a service that has one, held
    with its deposit order (the caller asks the customer to pay; paid, it is confirmed; unpaid, the hold lapses)."""
    held = hold(
        services, tenant, customer_id=customer_id, item_id=item_id, variant_selection=variant_selection,
        start=start, staff_id=staff_id, now=now, by_staff=by, staff_ask_deposit=ask_deposit,
    )  # fmt: skip
    if held.deposit > 0:
        return book(services, tenant, held, now)
    return services.bookings.confirm(held, now), None


def customer_booking(services: Services, tenant_id: str, customer_id: str, booking_id: str) -> Booking:
    """One of the customer's own bookings (another customer's is not found)."""
    booking = services.bookings.get(tenant_id, booking_id)
    if booking.customer_id != customer_id:
        raise NotFound(f"No booking '{booking_id}'.", field="booking_id")
    return booking


def book(services: Services, tenant: Tenant, booking: Booking, now: datetime) -> tuple[Booking, Order | None]:
    """The customer confirmed the summary: without a deposit the booking is confirmed now; with one,
    its deposit order is made (once) and the slot is kept for the payment."""
    if booking.status == "confirmed":
        order = services.orders.get(tenant.tenant_id, booking.order_id) if booking.order_id else None
        return booking, order
    if booking.status != "held":
        raise StateConflict(f"Booking {booking.booking_id} is {booking.status}.", reason=booking.status)
    settings = tenant.booking_settings()
    try:
        booking = services.bookings.extend_hold(booking, now + timedelta(minutes=settings.hold_minutes), now)
    except StateConflict:
        raise StateConflict(
            f"{local(booking.start):%a %d %b %H:%M} went to someone else while we waited.", reason=SLOT_TAKEN
        ) from None
    if booking.deposit <= 0:
        confirmed = services.bookings.confirm(booking, now)
        tell_staff(services, "booking_made", confirmed, now)
        return confirmed, None
    if booking.order_id:
        return booking, services.orders.get(tenant.tenant_id, booking.order_id)
    line = OrderLine(
        item_id=booking.item_id,
        name=f"Deposit: {booking.service_name}, {local(booking.start):%a %d %b %H:%M}",
        category="Booking deposit",
        quantity=1,
        unit_price=booking.deposit,
        variant_selection=booking.variant_selection,
        line_total=booking.deposit,
    )
    order = Order(
        tenant_id=tenant.tenant_id,
        order_id=new_reference("ORD"),
        customer_id=booking.customer_id,
        lines=[line],
        delivery=Delivery(),
        totals=compute_totals([line], 0, 0),
        notes=f"Deposit for booking {booking.booking_id}",
        booking_id=booking.booking_id,
        created_at=now,
        updated_at=now,
    )
    services.bookings.attach_order(booking, order, now)
    return services.bookings.get(tenant.tenant_id, booking.booking_id), order


def move(
    services: Services,
    tenant: Tenant,
    booking: Booking,
    *,
    start: datetime,
    staff_id: str | None,
    now: datetime,
    by: str,
    by_customer: bool,
) -> Booking:
    """Move a confirmed booking: by the customer only as the shop's policy allows; by staff at any time."""
    if start.tzinfo is None:
        raise InvalidInput("start must carry its time zone (the shop's is +03:00).", field="start")
    if booking.status != "confirmed":
        raise StateConflict(f"Booking {booking.booking_id} is {booking.status}.", reason=booking.status)
    settings = tenant.booking_settings()
    if by_customer:
        terms_now = change_terms(settings, booking, now)
        if not terms_now.can_move:
            reason = "inside_notice" if terms_now.inside_notice else "max_moves"
            raise BusinessRuleViolation(
                f"Booking {booking.booking_id} can no longer be moved on WhatsApp.", reason=reason,
                details={"notice_hours": settings.policy.notice_hours},
            )  # fmt: skip
    _item, terms, _chosen = terms_for(services, tenant, booking.item_id, booking.variant_selection)
    terms = terms.model_copy(update={"duration_minutes": int((booking.end - booking.start).total_seconds() // 60)})
    people = _able(tenant, terms, staff_id)
    people.sort(key=lambda m: m.id != booking.staff_id)  # the same person first
    people = [m for m in people if _valid_start(tenant, terms, m, start, now, by_staff=not by_customer)]
    if not people:
        raise BusinessRuleViolation(
            f"{local(start):%a %d %b %H:%M} is not a time {terms.name} can be booked.", field="start", reason="not_open"
        )
    for member in people:
        try:
            moved = services.bookings.move(booking, start, member.id, member.name, now, by=by)
        except StateConflict:
            continue
        if by_customer:
            tell_staff(services, "booking_moved", moved, now)
        return moved
    raise StateConflict(f"{local(start):%a %d %b %H:%M} is taken.", field="start", reason=SLOT_TAKEN)


def cancel(
    services: Services,
    tenant: Tenant,
    booking: Booking,
    *,
    now: datetime,
    by: str,
    by_customer: bool,
    outcome: DepositOutcome | None = None,
    note: str | None = None,
) -> Booking:
    """Cancel an open booking and free its time. A held one's deposit order is cancelled with it (a
    deposit paid meanwhile makes it a confirmed booking, cancelled by the policy). A confirmed one's
    deposit is kept or due back as the shop's policy says for the customer; staff say which."""
    if booking.status == "held" and booking.order_id:
        try:
            services.orders.transition(tenant.tenant_id, booking.order_id, to="cancelled", now=now)
        except StateConflict:
            booking = services.bookings.get(tenant.tenant_id, booking.booking_id)  # paid just now
    if booking.status not in ("held", "confirmed"):
        raise StateConflict(f"Booking {booking.booking_id} is {booking.status}.", reason=booking.status)
    if booking.status == "held":
        decided: DepositOutcome = "none"
    elif outcome is not None and not by_customer:
        decided = outcome
    else:
        decided = change_terms(tenant.booking_settings(), booking, now).deposit_on_cancel
    owed = services.payments.deposit_owed_back(booking, now) if decided == "refund_due" else None
    extra = [services.payments.owed_back_put(owed)] if owed else []  # one record of money owed back
    cancelled = services.bookings.cancel(booking, now, by=by, outcome=decided, note=note, extra=extra)
    if by_customer and booking.status == "confirmed":  # a hold let go before it was booked is no news
        tell_staff(services, "booking_cancelled", cancelled, now)
    return cancelled


def tell_staff(services: Services, kind: AlertKind, booking: Booking, now: datetime) -> None:
    """The shop's staff alerted to a booking the customer made, moved or cancelled."""
    try:
        customer = services.customers.get(booking.tenant_id, booking.customer_id)
    except NotFound:
        customer = None
    services.alerts.add(booking_alert(kind, booking, customer, now))


def block_time(
    services: Services,
    tenant: Tenant,
    *,
    staff_id: str,
    start: datetime,
    end: datetime,
    reason: str,
    by: str | None,
    now: datetime,
) -> Block:
    """Keep a staff member's time free of bookings (within one day); refused if any of it is taken."""
    settings = tenant.booking_settings()
    if settings.member(staff_id) is None:
        raise InvalidInput(f"No staff member '{staff_id}'.", field="staff_id")
    if start.tzinfo is None or end.tzinfo is None:
        raise InvalidInput("start and end must carry their time zone (the shop's is +03:00).", field="start")
    if (
        end <= start
        or end - start > timedelta(hours=24)
        or local(start).date() != local(end - timedelta(seconds=1)).date()
    ):
        raise InvalidInput("Block from a start to a later end on the same day.", field="end")
    if (local(start).minute % 15) or (local(end).minute % 15):
        raise InvalidInput("Block on quarter hours (e.g. 13:00 to 14:15).", field="start")
    block = Block(
        tenant_id=tenant.tenant_id,
        block_id=new_reference("BLK"),
        staff_id=staff_id,
        start=local(start),
        end=local(end),
        reason=reason.strip()[:200],
        by=by,
        created_at=now,
    )
    return services.bookings.block(block, now)


def reminder_work(tenant: Tenant, booking_id: str, start: datetime, now: datetime) -> list[tuple[dict[str, Any], int]]:
    """The outreach work (and its delay in seconds) that reminds a booking confirmed or moved to
    ``start``: the day before and hours before, as the shop says; none already past."""
    settings = tenant.booking_settings()
    work: list[tuple[dict[str, Any], int]] = []
    for which, ahead in reminder_times(settings.reminders, settings.policy.notice_hours):
        due = start - ahead
        if due > now:
            body = {
                "kind": "booking_reminder",
                "tenant_id": tenant.tenant_id,
                "booking_id": booking_id,
                "start": start.isoformat(),
                "which": which,
                "due_at": due.isoformat(),
            }
            work.append((body, int((due - now).total_seconds())))
    return work
