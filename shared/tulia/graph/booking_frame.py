"""The booking frame: the second frame on the order frame's machinery (:mod:`tulia.graph.slots`).

It keeps what the customer said about an appointment (the service and its options, the day and time
in their words as read by :mod:`tulia.nlu.when`, a staff member wanted, the zone and address for a
service at their place) and what the tools answered (the slots offered, the slot held, its deposit
order); ``next_booking_step`` names the first thing still missing, and one node asks it. Prices,
deposits and free times are never kept as facts to repeat: they come from this turn's tools.
"""

from __future__ import annotations

from datetime import date, time
from typing import Literal

from pydantic import Field

from tulia.domain.literals import BookingQuestion, BookingStep
from tulia.domain.persisted import Persisted
from tulia.graph.frame import VariantChoice
from tulia.graph.slots import SlotFrame
from tulia.nlu.when import WhenSaid


class _Part(Persisted):
    """A part of the booking frame (checkpointed: versioned and read leniently by later releases)."""


class WhenWish(_Part):
    """What the customer said about when, as read (kept across turns: "Saturday" then "at 3")."""

    days: list[date] = Field(default_factory=list, max_length=31)
    at: time | None = None
    earliest: time | None = None
    latest: time | None = None

    @classmethod
    def of(cls, said: WhenSaid) -> WhenWish:
        return cls(days=list(said.days), at=said.at, earliest=said.earliest, latest=said.latest)

    def said(self) -> WhenSaid:
        return WhenSaid(tuple(self.days), self.at, self.earliest, self.latest)


class OfferedSlot(_Part):
    start: str  # ISO with the shop's offset, as booking_search_slots gave it
    staff_id: str
    staff_name: str


class HeldBooking(_Part):
    booking_ref: str
    start: str
    staff_name: str
    deposit: int
    order_ref: str | None = None


class BookingFrame(SlotFrame):
    item_id: str | None = None
    name: str | None = None
    variants: list[VariantChoice] = Field(default_factory=list)
    variant_selection: dict[str, str] = Field(default_factory=dict)
    place: Literal["shop", "home"] = "shop"
    zones: list[str] = Field(default_factory=list)  # where a service at the customer's place is given
    zone: str | None = None
    address: str | None = Field(default=None, max_length=300)
    when: WhenWish = Field(default_factory=WhenWish)
    staff_id: str | None = None  # the person asked for (None: anyone)
    offered: list[OfferedSlot] = Field(default_factory=list, max_length=10)
    chosen: OfferedSlot | None = None
    held: HeldBooking | None = None
    agreed: bool = False  # the customer said yes to the summary
    moving: str | None = None  # the reference of a confirmed booking being moved
    asking: BookingQuestion | None = None
    replaced: bool = False  # another service was named while its question was open ("a men's haircut instead")

    def missing_variant(self) -> VariantChoice | None:
        return next((v for v in self.variants if v.name not in self.variant_selection), None)

    @property
    def open(self) -> bool:
        """A booking the customer can still finish (nothing paid, nothing confirmed yet)."""
        return self.item_id is not None and not (self.held and self.held.order_ref and self.agreed)


def next_booking_step(frame: BookingFrame) -> BookingStep:
    """The first thing still missing decides what the booking does next."""
    if frame.item_id is None:
        return "ask_service"
    if frame.missing_variant() is not None:
        return "ask_variant"
    if frame.held is None:
        if frame.chosen is None:
            return "offer_slots"
        if frame.place == "home" and frame.zone is None:
            return "ask_zone"  # the search said where the service is given; the travel fee is the zone's
        return "hold_slot"
    if not frame.agreed:
        return "confirm_booking"
    if frame.held.order_ref is None and frame.held.deposit > 0:
        return "book"
    if frame.held.deposit > 0:
        return "pay_deposit"
    return "booked"


BOOKING_MODELS = (WhenWish, OfferedSlot, HeldBooking, BookingFrame)
