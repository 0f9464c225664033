"""Appointments: what a shop that sells time says about its services, its people and its hours, the
booking record, and the pure rules that find free slots.

Time is kept in 15-minute cells of one staff member (``CELL_MINUTES``): an appointment of a service
takes the cells of its duration plus the shop's buffer after it. A cell can belong to one booking or
one block of time only; the store enforces that with conditional writes (:mod:`tulia.store.bookings`);
the search here only reads which cells are taken. All times are the shop's (Africa/Nairobi).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator

from tulia.domain.common import NAIROBI, Model
from tulia.domain.hours import OpeningHours

if TYPE_CHECKING:
    from tulia.domain.catalog import CatalogItem

CELL_MINUTES = 15
MAX_APPOINTMENT_MINUTES = 12 * 60  # a service plus its buffer; a reschedule moves two sets of cells in one transaction
STAFF_ID = r"^[a-z0-9][a-z0-9-]{0,31}$"

Place = Literal["shop", "home"]
BookingStatus = Literal["held", "confirmed", "cancelled", "expired", "completed", "no_show"]
DepositOutcome = Literal["none", "kept", "refund_due", "refunded", "applied", "moved"]  # applied: to another order
# open bookings: hold cells; the rest are history
ACTIVE_STATUSES = frozenset({"held", "confirmed"})


class Deposit(Model):
    """What a service asks to confirm a booking: a share of its price, a fixed amount, or nothing."""

    percent: int | None = Field(default=None, ge=1, le=100)
    amount: int | None = Field(default=None, ge=0, le=1_000_000)

    @model_validator(mode="after")
    def _one(self) -> Deposit:
        if (self.percent is None) == (self.amount is None):
            raise ValueError("give a percent or an amount")
        return self

    @classmethod
    def parse(cls, raw: str) -> Deposit:
        """``30%``, ``1000`` (KES), ``none`` or ``0`` (no deposit)."""
        text = raw.strip().lower().replace("kes", "").replace("ksh", "").replace(",", "").strip()
        if text in ("none", "no", "0", "0%"):
            return cls(amount=0)
        if m := re.fullmatch(r"(\d{1,3})\s*%", text):
            return cls(percent=int(m.group(1)))
        if re.fullmatch(r"\d+", text):
            return cls(amount=int(text))
        raise ValueError(f"deposit '{raw}' must be a percent (30%), an amount in KES (1000) or none")

    def of(self, price: int) -> int:
        """The deposit in whole KES for a service of ``price`` (a share is rounded up, never above the price)."""
        if self.percent is not None:
            return min(price, math.ceil(price * self.percent / 100))
        return min(price, self.amount or 0)

    def __str__(self) -> str:
        return f"{self.percent}%" if self.percent is not None else ("none" if not self.amount else str(self.amount))


class StaffMember(Model):
    """A person customers book. ``hours`` narrows the shop's hours (unset: all of them); ``breaks`` are
    written like hours ("daily 13:00-14:00"); ``days_off`` are dates away (leave)."""

    id: str = Field(pattern=STAFF_ID)
    name: str = Field(min_length=1, max_length=40)
    hours: str | None = Field(default=None, max_length=300)
    breaks: str | None = Field(default=None, max_length=300)
    days_off: list[date] = Field(default_factory=list, max_length=366)

    @field_validator("hours", "breaks")
    @classmethod
    def _readable(cls, value: str | None) -> str | None:
        if value is not None:
            OpeningHours.parse(value)  # raises ValueError naming what is wrong
        return value


class ChangePolicy(Model):
    """What happens to a booking the customer moves or cancels. Inside ``notice_hours`` of the start the
    customer cannot move it on WhatsApp (a person can), and a cancellation does ``late_cancel`` to the
    deposit; earlier, a move keeps the deposit on the new time and a cancellation does ``early_cancel``."""

    notice_hours: int = Field(default=24, ge=0, le=14 * 24)
    early_cancel: Literal["refund", "keep"] = "refund"
    late_cancel: Literal["keep", "refund"] = "keep"
    max_moves: int = Field(default=2, ge=0, le=10)  # moves by the customer on WhatsApp


class Reminders(Model):
    day_before: bool = True
    hours_before: int | None = Field(default=2, ge=1, le=12)


def reminder_times(reminders: Reminders, notice_hours: int) -> list[tuple[str, timedelta]]:
    """Which reminders a booking gets, and how long before its start each goes. The day-before one
    goes while the booking can still be moved on WhatsApp (two hours before the policy's notice ends:
    26 hours before with a 24-hour notice), so its "Change time" button works."""
    times: list[tuple[str, timedelta]] = []
    if reminders.day_before:
        times.append(("day_before", timedelta(hours=max(24, notice_hours + 2))))
    if reminders.hours_before:
        times.append(("hours_before", timedelta(hours=reminders.hours_before)))
    return times


class BookingSettings(Model):
    """The ``bookings`` section of a pack's tenant.yaml: when the shop takes appointments and how."""

    hours: str = Field(max_length=300)  # the days and times appointments may take place
    holidays: list[date] = Field(default_factory=list, max_length=366)  # closed all day
    staff: list[StaffMember] = Field(default_factory=list, max_length=50)
    slot_minutes: Literal[15, 30, 60] = 30  # start times offered on this step
    buffer_minutes: int = Field(default=0, ge=0, le=120)  # kept free after each appointment
    hold_minutes: int = Field(default=15, ge=5, le=120)  # a slot waits this long for its deposit
    min_notice_minutes: int = Field(default=60, ge=0, le=7 * 24 * 60)
    horizon_days: int = Field(default=30, ge=1, le=180)
    deposit: Deposit | None = None  # for services that say nothing; None: no deposit
    policy: ChangePolicy = Field(default_factory=ChangePolicy)
    reminders: Reminders = Field(default_factory=Reminders)

    @field_validator("hours")
    @classmethod
    def _readable(cls, value: str) -> str:
        OpeningHours.parse(value)
        return value

    @field_validator("deposit", mode="before")
    @classmethod
    def _deposit_text(cls, value: object) -> object:
        return Deposit.parse(str(value)) if isinstance(value, str | int) and not isinstance(value, bool) else value

    @field_validator("staff")
    @classmethod
    def _unique_staff(cls, staff: list[StaffMember]) -> list[StaffMember]:
        ids = [s.id for s in staff]
        if len(set(ids)) != len(ids):
            raise ValueError("staff ids must be unique")
        names = [s.name.casefold() for s in staff]
        if len(set(names)) != len(names):
            raise ValueError("staff names must be unique (customers ask for people by name)")
        return staff

    def people(self) -> list[StaffMember]:
        """The staff, or one unnamed chair when the pack names nobody."""
        return self.staff or [StaffMember(id="team", name="our team")]

    def member(self, staff_id: str) -> StaffMember | None:
        return next((s for s in self.people() if s.id == staff_id), None)


class ServiceTerms(Model):
    """What booking a service needs, from its catalog row and the shop's defaults."""

    item_id: str
    name: str
    category: str
    duration_minutes: int = Field(ge=CELL_MINUTES, le=MAX_APPOINTMENT_MINUTES)
    price: int = Field(ge=0)
    deposit: int = Field(ge=0)
    staff_ids: list[str]
    place: Place = "shop"
    zones: list[str] = Field(default_factory=list)  # where a service at the customer's place is given


def service_terms(
    settings: BookingSettings, item: CatalogItem, zone_names: list[str], variant_price: int | None = None
) -> ServiceTerms:
    """The booking terms of a bookable catalog item (``variant_price``: its price with the options chosen)."""
    assert item.duration_minutes is not None
    price = item.price if variant_price is None else variant_price
    deposit = item.deposit or settings.deposit
    everyone = [m.id for m in settings.people()]
    return ServiceTerms(
        item_id=item.item_id,
        name=item.name,
        category=item.category,
        duration_minutes=max(CELL_MINUTES, item.duration_minutes),
        price=price,
        deposit=deposit.of(price) if deposit is not None else 0,
        staff_ids=[s for s in everyone if s in item.staff] if item.staff else everyone,
        place=item.place,
        zones=list(item.zones) or (list(zone_names) if item.place == "home" else []),
    )


def service_problems(settings: BookingSettings, item: CatalogItem, zone_names: list[str]) -> list[tuple[str, str]]:
    """What stops a service from being booked, as (field, problem): unknown staff or zones, a
    service at the customer's place without zones, one longer than a day's appointment."""
    problems: list[tuple[str, str]] = []
    if item.type != "service":
        for column, value in (("staff", item.staff), ("zones", item.zones)):
            if value:
                problems.append((column, "only services are booked with staff and zones"))
        if item.deposit is not None or item.place != "shop":
            problems.append(("deposit" if item.deposit is not None else "place", "only services take deposits"))
        return problems
    known = {m.id for m in settings.people()}
    unknown = [s for s in item.staff if s not in known]
    if unknown:
        problems.append(("staff", f"unknown staff {', '.join(unknown)} (the staff of tenant.yaml bookings: "
                         f"{', '.join(sorted(known))})"))  # fmt: skip
    zones = {z.casefold() for z in zone_names}
    unknown_zones = [z for z in item.zones if z.casefold() not in zones]
    if unknown_zones:
        problems.append(("zones", f"unknown delivery zone(s): {', '.join(unknown_zones)}"))
    if item.place == "home" and not zone_names:
        problems.append(("place", "a service at the customer's place needs the shop's delivery_zones"))
    if item.zones and item.place != "home":
        problems.append(("zones", "zones are for services at the customer's place (place: home)"))
    if item.duration_minutes is not None:
        if item.duration_minutes + settings.buffer_minutes > MAX_APPOINTMENT_MINUTES:
            problems.append(
                (
                    "duration_minutes",
                    f"with the {settings.buffer_minutes}-minute buffer, longer than "
                    f"{MAX_APPOINTMENT_MINUTES // 60} hours",
                )
            )
        able = [m for m in settings.people() if not item.staff or m.id in item.staff]
        week = [date(2024, 1, 1) + timedelta(days=n) for n in range(7)]  # a Monday to Sunday with no holiday
        longest = max(
            (
                (span.end - span.start).total_seconds() / 60
                for m in able
                for day in week
                for span in working_intervals(settings.model_copy(update={"holidays": []}), m.model_copy(
                    update={"days_off": []}), day)
            ),
            default=0,
        )  # fmt: skip
        if not problems and longest < item.duration_minutes:
            problems.append(
                (
                    "duration_minutes",
                    f"{item.duration_minutes} minutes fits in no working stretch of its staff "
                    f"(the longest is {int(longest)} minutes, between breaks)",
                )
            )
    elif item.deposit is not None or item.staff:
        problems.append(("duration_minutes", "a service booked with a deposit or staff needs its duration"))
    return problems


@dataclass(frozen=True)
class Interval:
    start: datetime
    end: datetime


@dataclass(frozen=True)
class Slot:
    start: datetime
    staff_id: str


def local(at: datetime) -> datetime:
    return at.astimezone(NAIROBI)


def cell_starts(start: datetime, minutes: int) -> list[datetime]:
    """The cells an appointment of ``minutes`` (service plus buffer) starting at ``start`` takes."""
    first = local(start)
    return [first + timedelta(minutes=CELL_MINUTES * i) for i in range(math.ceil(minutes / CELL_MINUTES))]


def cell_key(staff_id: str, at: datetime) -> str:
    """A cell's sort key: the shop's date, the staff member, the time (``2026-12-05#wanjiru#1000``)."""
    at = local(at)
    return f"{at.date().isoformat()}#{staff_id}#{at.strftime('%H%M')}"


def blocked_minutes(settings: BookingSettings, duration_minutes: int) -> int:
    return duration_minutes + settings.buffer_minutes


def working_intervals(settings: BookingSettings, member: StaffMember, day: date) -> list[Interval]:
    """When ``member`` can take appointments on ``day``: the shop's hours and theirs, less breaks,
    holidays and days off."""
    if day in settings.holidays or day in member.days_off:
        return []
    spans = _spans(_hours(settings.hours), day)
    if member.hours:
        spans = _intersect(spans, _spans(_hours(member.hours), day))
    if member.breaks:
        for cut in _spans(_hours(member.breaks), day):
            spans = _subtract(spans, cut)
    return [
        Interval(datetime.combine(day, a, tzinfo=NAIROBI), datetime.combine(day, b, tzinfo=NAIROBI)) for a, b in spans
    ]


@functools.lru_cache(maxsize=512)
def _hours(text: str) -> OpeningHours:
    """A shop's or a person's hours, parsed once (the slot search asks for them per day and person)."""
    return OpeningHours.parse(text)


def _spans(hours: OpeningHours, day: date) -> list[tuple[time, time]]:
    return [(w.opens, w.closes) for w in hours.windows if w.day == day.weekday()]


def _intersect(a: list[tuple[time, time]], b: list[tuple[time, time]]) -> list[tuple[time, time]]:
    out = []
    for s1, e1 in a:
        for s2, e2 in b:
            s, e = max(s1, s2), min(e1, e2)
            if s < e:
                out.append((s, e))
    return sorted(out)


def _subtract(spans: list[tuple[time, time]], cut: tuple[time, time]) -> list[tuple[time, time]]:
    out = []
    for s, e in spans:
        if cut[1] <= s or cut[0] >= e:
            out.append((s, e))
            continue
        if s < cut[0]:
            out.append((s, cut[0]))
        if cut[1] < e:
            out.append((cut[1], e))
    return out


@dataclass(frozen=True)
class SlotWish:
    """What the customer asked for: days (none: any day from today), a time window on them, an exact
    time (the slots nearest it come first), and the staff member wanted (none: anyone)."""

    days: tuple[date, ...] = ()
    earliest: time | None = None
    latest: time | None = None  # the latest start
    at: time | None = None
    staff_id: str | None = None


def free_slots(
    settings: BookingSettings,
    service: ServiceTerms,
    taken: set[str],
    *,
    now: datetime,
    wish: SlotWish,
    limit: int = 5,
) -> list[Slot]:
    """The free start times nearest the wish, at most ``limit``, each with a staff member who can do the
    service and is free for its whole duration plus the buffer (``taken``: cell keys in use).

    Distinct start times come first (one row per time, the first free person in the shop's order);
    with an exact time asked for, the nearest times on the first day that has any; otherwise the
    earliest. Never before ``now`` plus the shop's notice, never past its horizon."""
    people = [m for m in settings.people() if m.id in service.staff_ids]
    if wish.staff_id is not None:
        people = [m for m in people if m.id == wish.staff_id]
    earliest_start = local(now) + timedelta(minutes=settings.min_notice_minutes)
    today = local(now).date()
    last_day = today + timedelta(days=settings.horizon_days)
    days = sorted(d for d in wish.days if today <= d <= last_day) if wish.days else _days(today, last_day)
    minutes = blocked_minutes(settings, service.duration_minutes)
    step = timedelta(minutes=settings.slot_minutes)
    found: list[Slot] = []
    for day in days:
        by_time: dict[datetime, str] = {}
        for member in people:
            for span in working_intervals(settings, member, day):
                start = _first_step(span.start, settings.slot_minutes)
                while start + timedelta(minutes=service.duration_minutes) <= span.end:
                    free = start >= earliest_start and start not in by_time and _fits(wish, start)
                    if free and not any(cell_key(member.id, c) in taken for c in cell_starts(start, minutes)):
                        by_time[start] = member.id
                    start += step
        if not by_time:
            continue
        starts = sorted(by_time)
        if wish.at is not None:
            wanted = datetime.combine(day, wish.at, tzinfo=NAIROBI)
            starts.sort(key=lambda s: (abs((s - wanted).total_seconds()), s))
        found += [Slot(s, by_time[s]) for s in starts]
        if wish.at is not None or len(found) >= limit:
            break  # an exact time: the nearest on the first day that has any
    return found[:limit]


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def _first_step(at: datetime, slot_minutes: int) -> datetime:
    minute_of_day = at.hour * 60 + at.minute
    rounded = math.ceil(minute_of_day / slot_minutes) * slot_minutes
    return at.replace(hour=0, minute=0) + timedelta(minutes=rounded)


def _fits(wish: SlotWish, start: datetime) -> bool:
    t = start.timetz().replace(tzinfo=None)
    if wish.earliest is not None and t < wish.earliest:
        return False
    return not (wish.latest is not None and t > wish.latest)


class BookingMark(Model):
    """A step in a booking's life (held, confirmed, moved, cancelled, reminded, no-show)."""

    event: str = Field(max_length=40)
    at: datetime
    by: str | None = None  # customer, staff email, "system"
    note: str | None = Field(default=None, max_length=200)


class Booking(Model):
    tenant_id: str
    booking_id: str  # BK-XXXXX
    customer_id: str
    item_id: str
    service_name: str
    variant_selection: dict[str, str] = Field(default_factory=dict)
    staff_id: str
    staff_name: str
    start: datetime
    end: datetime  # the end of the service (the buffer is the shop's, not the customer's)
    cells_minutes: int = Field(ge=CELL_MINUTES, le=MAX_APPOINTMENT_MINUTES)  # service plus buffer, as held
    place: Place = "shop"
    zone: str | None = None
    address: str | None = Field(default=None, max_length=300)
    price: int = Field(ge=0)
    travel_fee: int = Field(default=0, ge=0)
    deposit: int = Field(ge=0)
    order_id: str | None = None  # the deposit's order (none without a deposit)
    status: BookingStatus = "held"
    hold_until: datetime | None = None
    deposit_outcome: DepositOutcome | None = None
    moves: int = 0
    language: str | None = None
    marks: list[BookingMark] = Field(default_factory=list, max_length=100)
    created_at: datetime
    updated_at: datetime

    @property
    def reference(self) -> str:
        return self.booking_id

    @property
    def balance(self) -> int:
        """What is paid at the appointment."""
        return max(0, self.price + self.travel_fee - self.deposit)

    def held_cells(self) -> list[str]:
        return [cell_key(self.staff_id, c) for c in cell_starts(self.start, self.cells_minutes)]

    def hold_lapsed(self, now: datetime) -> bool:
        return self.status == "held" and self.hold_until is not None and self.hold_until <= now

    def shown_status(self, now: datetime) -> str:
        return "expired" if self.hold_lapsed(now) else self.status


@dataclass(frozen=True)
class ChangeTerms:
    """What the shop's policy allows for a booking now: moving it, and what cancelling does to the deposit."""

    can_move: bool
    deposit_on_cancel: DepositOutcome
    inside_notice: bool


def change_terms(settings: BookingSettings, booking: Booking, now: datetime) -> ChangeTerms:
    inside = booking.start - now < timedelta(hours=settings.policy.notice_hours)
    paid = booking.deposit > 0 and booking.status == "confirmed"
    rule = settings.policy.late_cancel if inside else settings.policy.early_cancel
    outcome: DepositOutcome = "none" if not paid else ("kept" if rule == "keep" else "refund_due")
    return ChangeTerms(
        can_move=not inside and booking.moves < settings.policy.max_moves and booking.start > now,
        deposit_on_cancel=outcome,
        inside_notice=inside,
    )
