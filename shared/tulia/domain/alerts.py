"""Alerts for the shop's staff: something happened that a person may want to act on now (a customer asks
for a person, money came in, an appointment was made, moved or cancelled). Each alert is recorded once
(its id is what it is about), counted in the console's unread badges, and sent to each staff member's
devices (Web Push) and, if they ask for it, to their own WhatsApp number outside their quiet hours."""

from __future__ import annotations

import re
from datetime import datetime, time
from typing import Literal, get_args

from pydantic import Field, field_validator

from tulia.domain.booking import Booking
from tulia.domain.common import NAIROBI, Model
from tulia.domain.customer import Customer
from tulia.domain.phone import normalize_phone
from tulia.errors import InvalidInput

AlertKind = Literal["handoff", "payment", "unmatched_payment", "booking_made", "booking_moved", "booking_cancelled"]
ALERT_KINDS: tuple[AlertKind, ...] = get_args(AlertKind)
# the console screen an alert belongs to (its unread badge)
Screen = Literal["inbox", "orders", "money", "bookings"]
SCREENS: tuple[Screen, ...] = get_args(Screen)
SCREEN_OF: dict[AlertKind, Screen] = {
    "handoff": "inbox",
    "payment": "orders",
    "unmatched_payment": "money",
    "booking_made": "bookings",
    "booking_moved": "bookings",
    "booking_cancelled": "bookings",
}
OWNER_ONLY: frozenset[AlertKind] = frozenset({"unmatched_payment"})  # the money screen is the owner's
WHATSAPP_BY_DEFAULT: tuple[AlertKind, ...] = ("handoff", "unmatched_payment")  # what cannot wait
StaffLang = Literal["en", "sw"]  # the console's languages

_QUIET = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$")


class StaffAlert(Model):
    """One thing that happened, with the facts its words need (never more of the customer than their name
    and number, which the staff member sees in the console anyway)."""

    tenant_id: str
    alert_id: str = Field(max_length=120)
    kind: AlertKind
    at: datetime
    subject: str = Field(max_length=80, description="The ticket, order, payment or booking it is about")
    customer_name: str | None = Field(default=None, max_length=80)
    customer_phone: str | None = Field(default=None, max_length=20)
    amount: int | None = None  # KES, for money
    service: str | None = Field(default=None, max_length=80)  # for appointments
    starts_at: datetime | None = None  # for appointments
    path: str = Field(max_length=200, description="Where the console shows it, from /console/")

    @property
    def screen(self) -> Screen:
        return SCREEN_OF[self.kind]


def kinds_for_role(role: str) -> tuple[AlertKind, ...]:
    """What a person in ``role`` may be told (agents do not see the money screen)."""
    return ALERT_KINDS if role == "owner" else tuple(k for k in ALERT_KINDS if k not in OWNER_ONLY)


def _customer_facts(customer: Customer | None) -> dict[str, str | None]:
    if customer is None:
        return {"customer_name": None, "customer_phone": None}
    return {"customer_name": (customer.display_name or "")[:80] or None, "customer_phone": customer.phone_e164}


def handoff_alert(tenant_id: str, ticket_id: str, customer: Customer | None, at: datetime) -> StaffAlert:
    return StaffAlert(
        tenant_id=tenant_id,
        alert_id=alert_id("handoff", ticket_id),
        kind="handoff",
        at=at,
        subject=ticket_id,
        path=f"inbox/{ticket_id}",
        **_customer_facts(customer),
    )


def payment_alert(
    tenant_id: str, payment_id: str, order_id: str, amount: int, customer: Customer | None, at: datetime
) -> StaffAlert:
    return StaffAlert(
        tenant_id=tenant_id,
        alert_id=alert_id("payment", payment_id),
        kind="payment",
        at=at,
        subject=order_id,
        amount=amount,
        path=f"orders/{order_id}",
        **_customer_facts(customer),
    )


def unmatched_payment_alert(tenant_id: str, reference: str, amount: int, at: datetime) -> StaffAlert:
    """Money that came in and matched no order (``reference``: the provider's transaction code)."""
    return StaffAlert(
        tenant_id=tenant_id,
        alert_id=alert_id("unmatched_payment", reference),
        kind="unmatched_payment",
        at=at,
        subject=reference,
        amount=amount,
        path="money",
    )


def booking_alert(kind: AlertKind, booking: Booking, customer: Customer | None, at: datetime) -> StaffAlert:
    """A booking made (confirmed), moved or cancelled by the customer."""
    return StaffAlert(
        tenant_id=booking.tenant_id,
        alert_id=alert_id(kind, booking.booking_id, at),
        kind=kind,
        at=at,
        subject=booking.booking_id,
        service=booking.service_name[:80],
        starts_at=booking.start,
        path=f"bookings?day={booking.start.astimezone(NAIROBI).date().isoformat()}",
        **_customer_facts(customer),
    )


def alert_id(kind: AlertKind, subject: str, at: datetime | None = None) -> str:
    """An alert's id says what it is about, so the same event raised twice is one alert. A booking can be
    moved or cancelled again later: those carry the time they happened."""
    if kind == "booking_moved" and at is not None:
        return f"{kind}-{subject}-{int(at.timestamp())}"
    return f"{kind}-{subject}"


class AlertPreferences(Model):
    """What one staff member wants to be told, and where. ``push``: the kinds sent to every device where they
    turned alerts on; ``whatsapp``: the kinds also sent to their own WhatsApp number (the shop's
    ``staff_alert`` template), never inside ``quiet_hours`` (shop time, "22:00-07:00"; may cross midnight)."""

    push: list[AlertKind] = Field(default_factory=lambda: list(ALERT_KINDS))
    whatsapp: list[AlertKind] = Field(default_factory=lambda: list(WHATSAPP_BY_DEFAULT))
    whatsapp_number: str | None = Field(default=None, max_length=20)
    quiet_hours: str = Field(default="21:00-07:00", max_length=11, description='"" for none')
    language: StaffLang = "en"

    @field_validator("push", "whatsapp")
    @classmethod
    def _once_each(cls, kinds: list[AlertKind]) -> list[AlertKind]:
        return [k for k in ALERT_KINDS if k in kinds]

    @field_validator("whatsapp_number")
    @classmethod
    def _a_phone_number(cls, number: str | None) -> str | None:
        if number is None or not number.strip():
            return None
        try:
            return normalize_phone(number)
        except InvalidInput as exc:
            raise ValueError(exc.message) from None

    @field_validator("quiet_hours", mode="before")
    @classmethod
    def _from_to(cls, hours: str | None) -> str:
        if hours is None or not str(hours).strip():
            return ""  # none (stored as such: a missing value would read back as the default)
        hours = str(hours).strip().replace(" ", "")
        if not _QUIET.match(hours):
            raise ValueError("quiet hours are written as HH:MM-HH:MM, for example 21:00-07:00")
        return hours

    def quiet_at(self, now: datetime) -> bool:
        """Whether ``now`` falls in the quiet hours, read in the shop's time."""
        m = _QUIET.match(self.quiet_hours)
        if m is None:
            return False  # none
        start, end = time(int(m[1]), int(m[2])), time(int(m[3]), int(m[4]))
        local = now.astimezone(NAIROBI).time()
        if start == end:
            return False
        return start <= local < end if start < end else local >= start or local < end


def _who(alert: StaffAlert, lang: StaffLang) -> str:
    return alert.customer_name or alert.customer_phone or ("A customer" if lang == "en" else "Mteja")


def _money(amount: int | None) -> str:
    return f"KES {amount:,}" if amount is not None else "KES ?"


def _when(at: datetime | None, lang: StaffLang) -> str:
    if at is None:
        return ""
    local = at.astimezone(NAIROBI)
    days = (
        ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
        if lang == "en"
        else ("Jumatatu", "Jumanne", "Jumatano", "Alhamisi", "Ijumaa", "Jumamosi", "Jumapili")
    )
    return f"{days[local.weekday()]} {local.day}/{local.month} {local:%H:%M}"


def alert_words(alert: StaffAlert, lang: StaffLang) -> tuple[str, str]:
    """The alert's title and one line of detail, in the staff member's console language."""
    who, money, when = _who(alert, lang), _money(alert.amount), _when(alert.starts_at, lang)
    service = alert.service or ("an appointment" if lang == "en" else "miadi")
    if lang == "sw":
        words = {
            "handoff": (f"{who} anasubiri mtu", f"Ameomba kuongea na mtu. Fungua mazungumzo ({alert.subject})."),
            "payment": (f"Malipo: {money}", f"{who} amelipa {money} kwa oda {alert.subject}."),
            "unmatched_payment": (
                f"Pesa bila oda: {money}",
                f"{money} zimeingia bila kulingana na oda yoyote ({alert.subject}). Angalia Pesa.",
            ),
            "booking_made": (f"Miadi mpya: {who}", f"{service}, {when} ({alert.subject})."),
            "booking_moved": (f"Miadi imehamishwa: {who}", f"{service}, sasa {when} ({alert.subject})."),
            "booking_cancelled": (f"Miadi imefutwa: {who}", f"{service}, {when} ({alert.subject})."),
        }
    else:
        words = {
            "handoff": (
                f"{who} is waiting for a person",
                f"Asked to talk to a person. Open the chat ({alert.subject}).",
            ),
            "payment": (f"Payment: {money}", f"{who} paid {money} for order {alert.subject}."),
            "unmatched_payment": (
                f"Money with no order: {money}",
                f"{money} came in that matched no order ({alert.subject}). See Money.",
            ),
            "booking_made": (f"New booking: {who}", f"{service}, {when} ({alert.subject})."),
            "booking_moved": (f"Booking moved: {who}", f"{service}, now {when} ({alert.subject})."),
            "booking_cancelled": (f"Booking cancelled: {who}", f"{service}, {when} ({alert.subject})."),
        }
    return words[alert.kind]
