"""The booking frame's next step: the first thing still missing, whatever order it was said in."""

from __future__ import annotations

from tulia.graph.booking_frame import BookingFrame, HeldBooking, OfferedSlot, next_booking_step
from tulia.graph.frame import VariantChoice

SLOT = OfferedSlot(start="2026-11-28T10:00:00+03:00", staff_id="wanjiru", staff_name="Wanjiru")


def test_the_first_missing_thing_is_asked() -> None:
    frame = BookingFrame()
    assert next_booking_step(frame) == "ask_service"
    frame.item_id, frame.name = "SV-BRD-01", "Knotless Braids (medium)"
    frame.variants = [VariantChoice(name="length", options=["Shoulder", "Mid-back", "Waist"])]
    assert next_booking_step(frame) == "ask_variant"
    frame.variant_selection = {"length": "Waist"}
    assert next_booking_step(frame) == "offer_slots"  # nothing said about when: the nearest free times
    frame.chosen = SLOT
    assert next_booking_step(frame) == "hold_slot"
    frame.held = HeldBooking(booking_ref="BK-23456", start=SLOT.start, staff_name="Wanjiru", deposit=1500)
    assert next_booking_step(frame) == "confirm_booking"
    frame.agreed = True
    assert next_booking_step(frame) == "book"
    frame.held = frame.held.model_copy(update={"order_ref": "ORD-23456"})
    assert next_booking_step(frame) == "pay_deposit"
    assert not frame.open


def test_a_service_at_the_customers_place_asks_where_before_holding_the_time() -> None:
    frame = BookingFrame(item_id="SV-MU-01", name="Bridal Makeup", place="home", zones=["Kilimani & Kileleshwa"])
    assert next_booking_step(frame) == "offer_slots"
    frame.chosen = SLOT
    assert next_booking_step(frame) == "ask_zone"  # the travel fee is the zone's, so it is known before the hold
    frame.zone = "Kilimani & Kileleshwa"
    assert next_booking_step(frame) == "hold_slot"


def test_without_a_deposit_the_booking_is_done_once_agreed() -> None:
    frame = BookingFrame(item_id="SV-HC-02", name="Kids' Haircut", chosen=SLOT, agreed=True)
    frame.held = HeldBooking(booking_ref="BK-34567", start=SLOT.start, staff_name="Wanjiru", deposit=0)
    assert next_booking_step(frame) == "booked"
