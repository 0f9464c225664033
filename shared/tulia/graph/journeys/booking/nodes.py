"""The booking journey's nodes: a service with a duration is booked, not sold (the second frame on the
sale's machinery, :mod:`tulia.graph.slots`; the subgraph is :mod:`tulia.graph.journeys.booking.journey`).

A bookable item picked in the sale starts a ``BookingFrame`` in ``state.booking`` and hands the turn over
here; every message fills it (the day and time in the customer's words, a staff member named, the area for a
service at their place, an option); ``next_booking_step`` names the one thing still missing and one node
here asks it. Free times, prices and deposits come only from this turn's booking tools. The deposit is an
order paid through the sale's own payment nodes (the turn is handed back to the sale at ``advance`` or
``start_payment``), so STK, Paybill, Till and card, and their outcomes, are the sale's.

    (the sale's pick) begin_booking ─ booking_advance ─┬─ booking_ask_variant / booking_ask_zone
    booking_fill (typed answers) ─┤                    ├─ booking_offer (free times as a list)
    booking_tap (rows, buttons) ──┘                    ├─ booking_hold ─ booking_summary
                                                       ├─ booking_book ─ (the sale's) advance / start_payment
    booking_change ("I can't make it", "cancel my booking", reminder buttons): show, move or cancel by policy
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.domain.common import NAIROBI
from tulia.domain.geo import pin_of, pin_place
from tulia.domain.literals import BookingQuestion
from tulia.domain.phone import mask_phone
from tulia.domain.tenant import zone_at
from tulia.graph.booking_frame import (
    BookingFrame,
    HeldBooking,
    OfferedSlot,
    WhenWish,
    next_booking_step,
)
from tulia.graph.buttons import parse_tap, tap_id
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.frame import BuiltOrder, OrderFrame, VariantChoice
from tulia.graph.journeys.sale_common import (
    can_prompt,
    echo_words,
    say_option_question,
    shop_of,
    shop_options,
    variant_title,
)
from tulia.graph.nodes import inbound_text, shop_contact, shop_index, t
from tulia.graph.slots import ask
from tulia.graph.state import ConversationState, Scratch
from tulia.nlg.messages import ROW_TITLE_LIMIT, buttons, listing, text
from tulia.nlg.templates import day_names, days_named, money, slot_row, slot_when
from tulia.nlu.booking_words import anyone_said, change_said, staff_named
from tulia.nlu.frame_extract import adjective_root, extract_method, extract_zone, named_option
from tulia.nlu.lexicon import normalize
from tulia.nlu.order_words import order_cancel_said
from tulia.nlu.reader import BUYING, CANCELLATIONS, SURE, message_reader
from tulia.nlu.rules import product_query, read_at_shop
from tulia.nlu.when import read_when, without_when

SLOTS_SHOWN = 5
AdvanceTarget = Literal[
    "booking_ask_variant", "booking_ask_zone", "booking_offer", "booking_hold", "booking_summary", "booking_book",
    "__end__",
]  # fmt: skip


# what the nodes share ------------------------------------------------------------------------------------
def booking_of(turn: Turn) -> BookingFrame:
    """A working copy of the booking's frame (a new one when there is none)."""
    current = turn.get("booking")
    return current.model_copy(deep=True) if isinstance(current, BookingFrame) else BookingFrame()


def ask_booking(
    turn: Turn, frame: BookingFrame | None, question: BookingQuestion | None, options: list[dict[str, Any]]
) -> None:
    """The booking's question on its frame; without a frame (nothing being booked), the question about a booking
    already made is the conversation's own ("booking_change"), and the sale's question is closed as well."""
    if frame is not None:
        ask(turn, "booking", frame, question, options)
        return
    sale = turn.get("frame")
    if isinstance(sale, OrderFrame) and sale.asking is not None:
        turn.set(frame=sale.unasked())
    asked = question if question == "booking_change" else None
    turn.set(booking=None, question=asked, question_options=options if asked else [])


def _settle_question(turn: Turn) -> None:
    """Nothing is asked any more (a booking being made stays as it is)."""
    ask_booking(turn, booking_of(turn) if isinstance(turn.get("booking"), BookingFrame) else None, None, [])


def _people(turn: Turn) -> list[tuple[str, str]]:
    tenant = shop_of(turn)
    return [(m.id, m.name) for m in tenant.booking_settings().people()]


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso).astimezone(NAIROBI)


def _when(turn: Turn, iso: str) -> str:
    return slot_when(_at(iso), turn.lang, str(turn.get("sheng_fallback")))


def _compact(iso: str) -> str:
    return _at(iso).strftime("%Y%m%d%H%M")


def _from_compact(compact: str) -> str | None:
    try:
        return datetime.strptime(compact, "%Y%m%d%H%M").replace(tzinfo=NAIROBI).isoformat()
    except ValueError:
        return None


def _place(turn: Turn, booking: dict[str, Any]) -> str:
    if booking["place"] == "home":
        address = ", ".join(x for x in (booking.get("address"), booking.get("zone")) if x)
        return t(turn, "booking_at_home", address=address)
    tenant = shop_of(turn)
    where = tenant.text(tenant.pickup.address, turn.text_lang) if tenant.pickup.address else None
    shop = turn.state.tenant_name or tenant.name
    named = where and normalize(where).startswith(normalize(shop))  # "Sauti Music Centre, Kimathi House ...": once
    return t(turn, "booking_at_shop", shop=where if named else f"{shop}, {where}" if where else shop)


def _service_named(frame: BookingFrame) -> str:
    chosen = ", ".join(frame.variant_selection.values())
    return f"{frame.name}{f' ({chosen})' if chosen else ''}"


def _wish_of(text_said: str, turn: Turn, before: WhenWish | None = None) -> WhenWish | None:
    """What the words say about when, added to what was said before; None when they say nothing."""
    said = read_when(text_said, turn.ctx.services.clock())
    if not said.said:
        return None
    return WhenWish.of(said.merged_onto(before.said()) if before is not None else said)


# starting: the sale picked a service with a duration ------------------------------------------------------
def begin_booking(turn: Turn, item: dict[str, Any], words: str) -> Command[Literal["__end__"]]:
    """The item picked is booked: its frame, with everything the words already said (an option, the
    day and time, a staff member, the area). A time still held for another service is let go; when that
    service was replaced by this one (another service named instead), the day and time asked for are kept. The
    rest of the turn is the booking journey's."""
    before = turn.get("booking")
    if isinstance(before, BookingFrame) and before.held is not None and not before.agreed:
        turn.tool("booking_cancel", customer_id=turn.state.customer_id, booking_id=before.held.booking_ref)
    frame = BookingFrame(
        item_id=item["item_id"],
        name=item["name"],
        variants=[
            VariantChoice(name=v["name"], options=v["options"], price_deltas=v.get("price_deltas") or {})
            for v in item["variants"]
        ],
    )
    plain = normalize(words)
    for variant in frame.variants:
        said = named_option(plain, variant.options, item["name"])
        if said is not None:
            frame.variant_selection = {**frame.variant_selection, variant.name: said}
    # a service named instead of the one being booked keeps the day and time asked, unless the words say others
    kept = before.when if isinstance(before, BookingFrame) and before.replaced and not before.agreed else None
    frame.when = _wish_of(words, turn) or kept or WhenWish()
    frame.staff_id = staff_named(words, _people(turn))
    zone, place, _spans = extract_zone(plain, shop_options(turn).zones)
    if zone is not None:
        frame.zone, frame.address = zone, place
    turn.trace.append({"kind": "step", "node": "booking_begin", "item_id": frame.item_id})
    turn.set(booking=frame, selected_item_ids=[frame.item_id or ""], rejected_shortlists=0)
    turn.hand_over("booking_advance")
    return turn.goto(END)


def booking_advance(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[AdvanceTarget]:
    """The first thing still missing decides the one question asked."""
    turn = Turn(state, runtime, "booking_advance")
    frame = booking_of(turn)
    for variant in frame.variants:  # nothing to ask when there is one option
        if variant.name not in frame.variant_selection and len(variant.options) == 1:
            frame.variant_selection = {**frame.variant_selection, variant.name: variant.options[0]}
    step = next_booking_step(frame)
    turn.trace.append({"kind": "step", "node": "booking_advance", "next": step})
    turn.set(booking=frame)
    if step == "pay_deposit":
        turn.hand_over("advance")  # the deposit's order is the sale's: its payment step asks how
        return turn.goto(END)
    target: dict[str, AdvanceTarget] = {
        "ask_variant": "booking_ask_variant",
        "ask_zone": "booking_ask_zone",
        "offer_slots": "booking_offer",
        "hold_slot": "booking_hold",
        "confirm_booking": "booking_summary",
        "book": "booking_book",
    }
    return turn.goto(target.get(step, END))


# the questions ----------------------------------------------------------------------------------------------
def booking_ask_variant(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "booking_ask_variant")
    _say_variant_question(turn, booking_of(turn))
    return turn.goto(END)


def _say_variant_question(turn: Turn, frame: BookingFrame, lead: str = "") -> None:
    variant = frame.missing_variant()
    assert variant is not None
    options = [(tap_id("bk:var", variant.name, o), o, variant_title(o, variant.price_deltas)) for o in variant.options]
    body = lead + f"{_service_named(frame)}\n" + t(turn, "ask_variant", dimension=variant.name)
    priced = any(variant.price_deltas.get(o) for o in variant.options)
    asked = say_option_question(turn, body, options, button=variant.name, priced=priced)
    ask_booking(turn, frame, "booking_variant", asked)


def booking_ask_zone(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "booking_ask_zone")
    _say_zone_question(turn, booking_of(turn))
    return turn.goto(END)


def _say_zone_question(turn: Turn, frame: BookingFrame, lead: str = "") -> None:
    tenant = shop_of(turn)
    served = {name.casefold() for name in frame.zones}
    rows = [
        (tap_id("bk:zone", z.name), z.name[:ROW_TITLE_LIMIT], money(z.fee))
        for z in tenant.delivery_zones
        if z.name.casefold() in served
    ][:10]
    turn.say(
        listing(lead + t(turn, "booking_ask_zone", service=frame.name), rows, button=t(turn, "booking_zone_button"))
    )
    ask_booking(turn, frame, "booking_zone", [{"id": r[0], "title": r[1]} for r in rows])


def booking_offer(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["booking_advance", "__end__"]]:
    """booking_search_slots: the nearest free times to what was said, as a list. The exact time asked,
    when it is free, is taken at once (the summary that follows offers another time)."""
    turn = Turn(state, runtime, "booking_offer")
    frame = booking_of(turn)
    lead = str(state.scratch.get("lead") or "")
    wish: dict[str, Any] = {
        "dates": [d.isoformat() for d in frame.when.days] or None,
        "at": frame.when.at.strftime("%H:%M") if frame.when.at else None,
        "earliest": frame.when.earliest.strftime("%H:%M") if frame.when.earliest else None,
        "latest": frame.when.latest.strftime("%H:%M") if frame.when.latest else None,
        "staff_id": frame.staff_id,
    }
    args = {"item_id": frame.item_id, "variant_selection": frame.variant_selection or None, "limit": SLOTS_SHOWN}
    result = turn.tool("booking_search_slots", **args, wish={k: v for k, v in wish.items() if v})
    if not result["ok"] and result["error"].get("reason") == "staff_cannot" and frame.staff_id:
        staff = dict(_people(turn)).get(frame.staff_id, frame.staff_id)
        lead += t(turn, "booking_staff_unable", staff=staff, service=frame.name) + "\n"
        frame.staff_id = None
        wish.pop("staff_id")
        result = turn.tool("booking_search_slots", **args, wish={k: v for k, v in wish.items() if v})
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error" if result["error"]["code"] != "not_found" else "item_gone")))
        ask_booking(turn, None, None, [])
        return turn.goto(END)
    found = result["data"]
    service = found["service"]
    frame.place, frame.zones = service["place"], service["zones"]
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    notes: list[str] = []
    if found["closed_days"]:
        closed = [date.fromisoformat(d) for d in found["closed_days"]]
        notes.append(t(turn, "booking_closed", days=day_names(closed, lang, fallback)))
    if found["too_far_days"]:
        notes.append(t(turn, "booking_too_far", n=found["horizon_days"]))
    slots = found["slots"]
    asked_day = frame.when.days[0].isoformat() if len(frame.when.days) == 1 else None
    exact = frame.when.at is not None and asked_day is not None and frame.moving is None
    if exact and slots and slots[0]["start"][:16] == f"{asked_day}T{frame.when.at:%H:%M}":
        first = slots[0]
        frame.chosen = OfferedSlot(start=first["start"], staff_id=first["staff_id"], staff_name=first["staff_name"])
        if lead or notes:
            turn.say(text((lead + "\n".join(notes)).strip()))
        turn.set(booking=frame)
        return turn.goto("booking_advance")
    days = days_named(list(frame.when.days), lang, fallback)
    if exact and slots and frame.when.at is not None and asked_day is not None:
        # the day and time she asked (with the person she asked for) is taken: said, before the nearest free times
        asked = datetime.combine(date.fromisoformat(asked_day), frame.when.at, tzinfo=NAIROBI)
        staff = dict(_people(turn)).get(frame.staff_id or "", "")
        with_staff = t(turn, "booking_with_staff", staff=staff) if staff else ""
        head = t(
            turn,
            "booking_time_taken",
            service=_service_named(frame),
            when=slot_when(asked, lang, fallback),
            with_staff=with_staff,
        )
    elif slots:
        head = t(turn, "booking_slots", service=_service_named(frame), days=days)
    elif found["later"]:
        slots = found["later"]
        head = t(turn, "booking_none_asked", service=_service_named(frame), days=days or "")
    else:
        turn.say(text("\n".join([*notes, t(turn, "booking_none_at_all", service=frame.name, n=found["horizon_days"])])))
        ask_booking(turn, None, None, [])
        return turn.goto(END)
    _offer(turn, frame, slots, "\n".join([lead.strip(), *notes, head]).strip())
    return turn.goto(END)


def _offer(turn: Turn, frame: BookingFrame, slots: list[dict[str, Any]], body: str) -> None:
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    rows: list[tuple[str, str, str | None]] = []
    for slot in slots[:10]:
        title, clock = slot_row(_at(slot["start"]), lang, fallback)
        who = t(turn, "booking_staff_free", staff=slot["staff_name"])
        rows.append(
            (tap_id("bk:slot", _compact(slot["start"]), slot["staff_id"]), title, f"{clock}, {who}" if clock else who)
        )
    frame.offered = [
        OfferedSlot(start=s["start"], staff_id=s["staff_id"], staff_name=s["staff_name"]) for s in slots[:10]
    ]
    frame.chosen = None
    turn.say(listing(body, rows, button=t(turn, "booking_slots_button"), footer=t(turn, "booking_slots_footer")))
    ask_booking(turn, frame, "booking_slot", [{"id": r[0], "title": r[1]} for r in rows])


def booking_hold(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["booking_summary", "booking_offer", "booking_ask_zone", "__end__"]]:
    """booking_hold (or, for a booking being moved, booking_reschedule) for the time chosen."""
    turn = Turn(state, runtime, "booking_hold")
    frame = booking_of(turn)
    chosen = frame.chosen
    assert chosen is not None
    if frame.moving:
        return _move(turn, frame, chosen)
    result = turn.tool(
        "booking_hold",
        customer_id=state.customer_id,
        item_id=frame.item_id,
        variant_selection=frame.variant_selection or None,
        start=chosen.start,
        staff_id=chosen.staff_id,
        zone=frame.zone,
        address=frame.address,
    )
    if not result["ok"]:
        error = result["error"]
        if error.get("field") == "zone":
            frame.zone = None
            turn.set(booking=frame)
            return turn.goto("booking_ask_zone")
        if error["code"] in ("state_conflict", "business_rule_violation"):
            turn.say(text(t(turn, "booking_taken", when=_when(turn, chosen.start))))
            frame.chosen = None
            turn.set(booking=frame)
            return turn.goto("booking_offer")
        turn.say(text(t(turn, "tool_error")))
        ask_booking(turn, frame, None, [])
        return turn.goto(END)
    held = result["data"]
    frame.held = HeldBooking(
        booking_ref=held["booking_ref"], start=held["start"], staff_name=held["staff_name"], deposit=held["deposit"]
    )
    turn.trace.append({"kind": "step", "node": "booking_hold", "booking_ref": held["booking_ref"]})
    turn.set(booking=frame, scratch=Scratch(booking=held))
    return turn.goto("booking_summary")


def _move(turn: Turn, frame: BookingFrame, chosen: OfferedSlot) -> Command[Any]:
    result = turn.tool(
        "booking_reschedule",
        customer_id=turn.state.customer_id,
        booking_id=frame.moving,
        start=chosen.start,
        staff_id=chosen.staff_id,
    )
    if not result["ok"]:
        error = result["error"]
        if error.get("reason") in ("inside_notice", "max_moves"):
            _say_not_movable(turn, error.get("reason"), (error.get("details") or {}).get("notice_hours"))
            ask_booking(turn, None, None, [])
            return turn.goto(END)
        turn.say(text(t(turn, "booking_taken", when=_when(turn, chosen.start))))
        frame.chosen = None
        turn.set(booking=frame)
        return turn.goto("booking_offer")
    moved = result["data"]
    turn.trace.append(
        {"kind": "booking", "node": "booking_moved", "booking_ref": moved["booking_ref"], "start": moved["start"]}
    )
    turn.say(
        text(
            t(
                turn,
                "booking_moved",
                service=moved["service_name"],
                when=_when(turn, moved["start"]),
                staff=moved["staff_name"],
                ref=moved["booking_ref"],
            )
        )
    )
    ask_booking(turn, None, None, [])
    return turn.goto(END)


def _say_not_movable(turn: Turn, reason: str | None, hours: int | None) -> None:
    contact = shop_contact(turn)
    if reason == "inside_notice":
        # the shop's people may move it at any time: the customer is handed to them (a ticket in the inbox)
        tenant = shop_of(turn)
        notice = hours or tenant.booking_settings().policy.notice_hours
        turn.say(text(t(turn, "booking_move_inside_notice", hours=notice)))
        turn.set(route="handoff", escalation_reason="booking_change")
    else:
        turn.say(text(t(turn, "booking_move_max", contact=contact).strip()))


def booking_summary(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """The booking held, named back whole (service, day, time, staff, place, price, deposit) with the
    buttons to pay the deposit (or confirm), choose another time, or let it go."""
    turn = Turn(state, runtime, "booking_summary")
    frame = booking_of(turn)
    held = state.scratch.get("booking") or _booking_now(turn, frame)
    if held is None:
        turn.say(text(t(turn, "booking_released")))
        ask_booking(turn, None, None, [])
        return turn.goto(END)
    _say_summary(turn, frame, held)
    return turn.goto(END)


def _booking_now(turn: Turn, frame: BookingFrame) -> dict[str, Any] | None:
    """The held booking as the tools see it now (None when it is no longer held)."""
    if frame.held is None:
        return None
    result = turn.tool("booking_list", customer_id=turn.state.customer_id, limit=10)
    if not result["ok"]:
        return None
    return next(
        (b for b in result["data"]["bookings"] if b["booking_ref"] == frame.held.booking_ref and b["status"] == "held"),
        None,
    )


def _say_summary(turn: Turn, frame: BookingFrame, b: dict[str, Any], lead: str = "") -> None:
    ref = b["booking_ref"]
    travel = t(turn, "booking_travel", fee=money(b["travel_fee"])) if b["travel_fee"] else ""
    lines = [
        lead
        + t(
            turn,
            "booking_summary",
            service=_service_named(frame),
            when=_when(turn, b["start"]),
            staff=b["staff_name"],
            place=_place(turn, b),
            price=money(b["price"]),
            travel=travel,
        )
    ]
    if b["deposit"]:
        lines.append(t(turn, "booking_deposit_line", deposit=money(b["deposit"]), balance=money(b["balance"])))
    else:
        lines.append(t(turn, "booking_no_deposit_line", balance=money(b["balance"])))
    if b.get("hold_until"):
        lines.append(t(turn, "booking_held_until", until=_at(b["hold_until"]).strftime("%H:%M")))
    phone = turn.state.phone_e164
    stk = b["deposit"] > 0 and "mpesa_stk" in shop_options(turn).methods and can_prompt(phone)
    if stk:
        pay = t(turn, "booking_btn_pay_stk")
        lines.append(
            t(turn, "booking_stk_offer", button=pay, deposit=money(b["deposit"]), phone=mask_phone(phone or ""))
        )
        options = [(tap_id("bk:stk", ref), pay), (tap_id("bk:pay", ref), t(turn, "booking_btn_pay_other"))]
    else:
        options = [(tap_id("bk:pay" if b["deposit"] else "bk:yes", ref), t(turn, "booking_btn_confirm"))]
    options.append((tap_id("bk:other", ref), t(turn, "booking_btn_other_time")))
    if not stk:
        options.append((tap_id("bk:no", ref), t(turn, "booking_btn_cancel")))
    turn.say(buttons("\n".join(lines), options))
    ask_booking(turn, frame, "booking_confirm", [{"id": i, "title": title} for i, title in options])


def booking_book(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["booking_offer", "__end__"]]:
    """booking_create: confirmed at once without a deposit; with one, its order is paid as a sale (the
    M-Pesa prompt at once when the customer tapped "Pay deposit M-Pesa" on a summary naming the amount
    and the number)."""
    turn = Turn(state, runtime, "booking_book")
    frame = booking_of(turn)
    assert frame.held is not None
    result = turn.tool("booking_create", customer_id=state.customer_id, booking_id=frame.held.booking_ref)
    if not result["ok"]:
        if result["error"]["code"] in ("state_conflict", "not_found"):
            turn.say(text(t(turn, "booking_taken", when=_when(turn, frame.held.start))))
            frame.held, frame.chosen, frame.agreed = None, None, False
            turn.set(booking=frame)
            return turn.goto("booking_offer")
        turn.say(text(t(turn, "tool_error")))
        ask_booking(turn, frame, None, [])
        return turn.goto(END)
    b = result["data"]
    turn.trace.append(
        {"kind": "step", "node": "booking_create", "booking_ref": b["booking_ref"], "status": b["status"]}
    )
    if b["status"] == "confirmed":
        say_confirmed(turn, b)
        ask_booking(turn, None, None, [])
        return turn.goto(END)
    order_ref, due = str(b["order_ref"]), int(b["amount_due"])
    frame.held = frame.held.model_copy(update={"order_ref": order_ref})
    frame.agreed = True
    pay = state.scratch.get("pay")
    pay_now = pay == "stk"  # tapped on a summary that named the amount and the number
    sale = OrderFrame(
        order=BuiltOrder(order_id=order_ref, amount_due=due, fingerprint="", adopted=True),
        payment_method="mpesa_stk" if pay_now else pay if pay in ("mpesa_stk", "mpesa_c2b", "pesapal") else None,
    )
    turn.say(text(t(turn, "booking_deposit_order", booking=b["booking_ref"], ref=order_ref)))
    ask_booking(turn, frame, None, [])
    turn.set(frame=sale, order_id=order_ref, order_totals={"total": due, "amount_due": due}, payment_status=None)
    turn.hand_over("start_payment" if pay_now else "advance")  # the sale's payment nodes pay it
    return turn.goto(END)


def say_confirmed(turn: Turn, b: dict[str, Any]) -> None:
    """The booking is confirmed: service, day, time, staff, place, and the balance to pay there. (The
    trace entry has its reminders queued after the turn.)"""
    turn.trace.append(
        {"kind": "booking", "node": "booking_confirmed", "booking_ref": b["booking_ref"], "start": b["start"]}
    )
    body = t(
        turn,
        "booking_confirmed",
        service=b["service_name"],
        when=_when(turn, b["start"]),
        staff=b["staff_name"],
        place=_place(turn, b),
        ref=b["booking_ref"],
    )
    if b["balance"]:
        body += "\n" + t(turn, "booking_balance_line", balance=money(b["balance"]))
    turn.say(text(body))


def booking_of_order(turn: Turn, order_ref: str) -> dict[str, Any] | None:
    """The customer's booking whose deposit is order ``order_ref`` (booking_list), in a shop that books."""
    if not shop_index(turn).books:
        return None
    result = turn.tool("booking_list", customer_id=turn.state.customer_id, include_past=True, limit=10)
    if not result["ok"]:
        return None
    return next((b for b in result["data"]["bookings"] if b["order_ref"] == order_ref), None)


def deposit_paid(turn: Turn, order_ref: str) -> None:
    """A deposit's payment arrived: the booking it confirmed, or why it could not (its time was released)."""
    booking = booking_of_order(turn, order_ref)
    if booking is None:
        return
    if booking["status"] == "confirmed":
        say_confirmed(turn, booking)
    elif booking["status"] in ("expired", "cancelled"):
        turn.say(text(t(turn, "booking_slot_released", ref=booking["booking_ref"])))
    current = turn.get("booking")
    if isinstance(current, BookingFrame) and current.held and current.held.order_ref == order_ref:
        turn.set(booking=None)


# answers ---------------------------------------------------------------------------------------------------
SHORT_OPTION_ANSWER = 4  # words: "the 90 min one"


def booking_fill(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["booking_advance", "booking_book", "booking_offer", "booking_change", "__end__"]]:
    """A typed answer to the booking's question: a number or an option's name, a day or a time, a staff
    member, the area, yes or no. Anything else is another matter (answered, then the booking goes on)."""
    turn = Turn(state, runtime, "booking_fill")
    frame = booking_of(turn)
    body = inbound_text(state)
    plain = normalize(body)
    pending = state.pending
    choice = state.understanding.get("choice")
    fast = state.understanding.get("fast")
    if pending == "booking_change":
        return _change_answer(turn, fast, choice)
    options = _options_said(frame, plain) if pending in ("booking_slot", "booking_confirm") else {}
    changed = {name: o for name, o in options.items() if frame.variant_selection.get(name) not in (None, o)}
    kept = bool(options) and all(frame.variant_selection.get(name) == o for name, o in options.items())
    if pending == "booking_confirm" and frame.held is not None and kept:
        # "make it couple instead of solo", and it is a couple's already: the summary again, as it stands
        remind_booking(turn, frame)
        return turn.goto(END)
    if pending == "booking_confirm" and frame.held is not None and _lets_it_go(turn, body):
        # "the party got postponed, please cancel that booking": the time held for her is let go (nothing was paid)
        _release(turn, frame)
        turn.say(text(t(turn, "booking_released")))
        ask_booking(turn, None, None, [])
        return turn.goto(END)
    if frame.item_id is not None and changed:
        # "samahani kumbe ni two bedroom": the service's option changed (its price, maybe its length); the time she
        # had chosen is asked for again with it, and held at once when it is still free
        frame.variant_selection = {**frame.variant_selection, **changed}
        if frame.chosen is not None:
            start = _at(frame.chosen.start)
            frame.when, frame.staff_id = WhenWish(days=[start.date()], at=start.time()), frame.chosen.staff_id
        _release(turn, frame)
        turn.set(booking=frame)
        return turn.goto("booking_offer")
    # a short answer naming an option of the one asked is that option, even where another service's name has the same
    # words ("90 minutes" for the Swedish massage's length is no "Deep Tissue Massage (90 min)")
    # ("it's an SUV, a RAV4": her car's model is a tyre's word, but she is no buyer of tyres here), unless the whole
    # message reads as a new wish
    answers_the_option = (
        pending == "booking_variant"
        and (missing := frame.missing_variant()) is not None
        and named_option(plain, missing.options, frame.name or "") is not None
        and (len(plain.split()) <= SHORT_OPTION_ANSWER or not _reads_as_a_wish(turn, body))
    )
    # the way to pay said at the summary ("card": how she pays, even where the shop sells a gift card)
    methods = shop_options(turn).methods
    method = extract_method(plain, list(methods))[0] if pending == "booking_confirm" and frame.held else None
    if frame.item_id is None or (
        pending != "booking_zone"
        and not answers_the_option
        and method is None
        and _names_another_service(turn, frame, body)
    ):
        # "a pedicure instead": a new wish, read as one (the held time is let go, the time asked is kept)
        frame.replaced = frame.item_id is not None
        turn.set(route="reclassify", booking=frame)
        return turn.goto(END)
    if pending == "booking_variant" and (variant := frame.missing_variant()) is not None:
        picked = (
            variant.options[choice - 1]
            if choice is not None and 1 <= choice <= len(variant.options)
            else named_option(plain, variant.options, frame.name or "")
        )
        if picked is not None:
            frame.variant_selection = {**frame.variant_selection, variant.name: picked}
            _also_when(turn, frame, body)
            turn.set(booking=frame)
            return turn.goto("booking_advance")
    tenant = shop_of(turn)
    served = [(z.name, list(z.areas)) for z in tenant.delivery_zones if z.name in frame.zones]
    zone_said = False
    if frame.place == "home" and pending != "booking_zone":  # "Kilimani" said before it was asked
        zone, place, _spans = extract_zone(plain, served)
        if zone is not None:
            frame.zone, frame.address, zone_said = zone, _address(body, place), True
    if pending == "booking_zone" and (pin := pin_of(state.inbound)) is not None:
        # a location pin for a visit at home: its zone on the shop's map (only the zones this service goes to)
        point, words = pin
        zone_found = zone_at([z for z in tenant.delivery_zones if z.name in frame.zones], point)
        if zone_found is not None:
            frame.zone, frame.address = zone_found.name, pin_place(point, words)
            turn.set(booking=frame)
            return turn.goto("booking_advance")
        turn.say(text(t(turn, "booking_zone_not_served", place=echo_words(words or t(turn, "pin_place")))))
        _say_zone_question(turn, frame)
        return turn.goto(END)
    if pending == "booking_zone":
        zone, place, _spans = extract_zone(plain, served)
        if zone is None and choice is not None and 1 <= choice <= len(state.pending_options):
            zone = place = str(state.pending_options[choice - 1]["title"])
        if zone is not None:
            frame.zone, frame.address = zone, _address(body, place)
            turn.set(booking=frame)
            return turn.goto("booking_advance")
        if body.strip() and len(body.split()) <= 5 and "?" not in body and fast is None:
            turn.say(text(t(turn, "booking_zone_not_served", place=echo_words(body.strip()))))
            _say_zone_question(turn, frame)
            return turn.goto(END)
    if pending == "booking_slot":
        if choice is not None and 1 <= choice <= len(frame.offered):
            frame.chosen = frame.offered[choice - 1]
            turn.set(booking=frame)
            return turn.goto("booking_advance")
        staff = staff_named(body, _people(turn))
        anyone = anyone_said(body)
        said = read_when(body, turn.ctx.services.clock())
        if said.at is not None:
            days = set(said.days) or {_at(s.start).date() for s in frame.offered}
            match = next(
                (
                    s
                    for s in frame.offered
                    if _at(s.start).time() == said.at
                    and _at(s.start).date() in days
                    and (staff is None or s.staff_id == staff)
                ),
                None,
            )
            if match is not None:
                frame.chosen = match
                turn.set(booking=frame)
                return turn.goto("booking_advance")
        if said.said or staff is not None or anyone:
            if said.said:
                frame.when = WhenWish.of(said.merged_onto(frame.when.said()))
            frame.staff_id = None if anyone else (staff or frame.staff_id)
            frame.offered, frame.chosen = [], None
            turn.set(booking=frame)
            return turn.goto("booking_offer")
    if pending == "booking_confirm" and frame.held is not None:
        if fast == "yes" or choice == 1 or method is not None:  # "yes", or "I'll pay by Till": agreed
            frame.agreed = True
            stk = "mpesa_stk" in methods and can_prompt(state.phone_e164) and method in (None, "mpesa_stk")
            pay = "stk" if stk and frame.held.deposit and (fast == "yes" or choice == 1) else method
            turn.set(booking=frame, scratch=Scratch(pay=pay))
            return turn.goto("booking_book")
        said = read_when(body, turn.ctx.services.clock())
        staff = staff_named(body, _people(turn))
        if said.said or staff is not None:  # "make it 3pm instead": the hold is let go, the new time offered
            _release(turn, frame)
            if said.said:
                frame.when = WhenWish.of(said.merged_onto(frame.when.said()))
            frame.staff_id = staff or frame.staff_id
            turn.set(booking=frame)
            return turn.goto("booking_offer")
        if fast == "no":
            _release(turn, frame)
            turn.say(text(t(turn, "booking_released")))
            ask_booking(turn, None, None, [])
            return turn.goto(END)
    if zone_said:
        turn.set(booking=frame)
        return turn.goto("booking_advance")
    turn.set(route="reclassify")  # a side question: answered elsewhere, then the booking is offered again
    return turn.goto(END)


def _options_said(frame: BookingFrame, plain: str) -> dict[str, str]:
    """The options of the service the message names, by dimension ("two bedroom": bedrooms, 2 bedrooms)."""
    named = ((v.name, named_option(plain, v.options, frame.name or "")) for v in frame.variants)
    return {name: option for name, option in named if option is not None}


def _reads_as_a_wish(turn: Turn, body: str) -> bool:
    """Whether the reader is sure the message asks to buy or book something (a model's code of the catalog read as
    the thing it is, never as an offer's code)."""
    reading = read_at_shop(body, normalize(body), shop_index(turn))
    return reading.label in BUYING and reading.confidence >= SURE


def _names_another_service(turn: Turn, frame: BookingFrame, body: str) -> bool:
    """Whether the words name something of the shop's other than the service being booked."""
    index = shop_index(turn)
    said = read_when(body, turn.ctx.services.clock())
    query = product_query(without_when(body, said) if said.said else body)
    if not query or not index.names_products(query):
        return False
    own = set(index.terms(frame.name or "")) | {  # its name, its options and their dimensions ("shoulder length")
        term for v in frame.variants for word in (v.name, *v.options) for term in index.terms(word)
    }
    own |= {adjective_root(t) for t in own}  # "ngozi ya mafuta" (oil) of the option "Oily"
    named = {t for t in index.terms(query) if t in index.product_terms}  # "acoustic, sina electric": its options
    return bool(named) and not named <= own


def _address(body: str, place: str | None) -> str | None:
    """The address as the customer gave it ("Kilimani, near Yaya, Hse 4"), or the area named in a longer message."""
    words = body.strip()
    return words[:300] if words and len(words.split()) <= 12 else place


def _also_when(turn: Turn, frame: BookingFrame, body: str) -> None:
    wish = _wish_of(body, turn, frame.when)
    if wish is not None:
        frame.when = wish


def _lets_it_go(turn: Turn, body: str) -> bool:
    """At the booking's summary, "cancel that booking", "wacha hiyo appointment" or a shrug ("achana nayo", "never
    mind"): read there, the time held for her goes. Said with her reason, the clause that cancels does it, whether
    the reader calls it the booking's or an order's ("actually please cancel, we fly to Kisumu on the 10th"), unless
    that clause names a day or a time ("cancel tuesday, make it wednesday" moves it)."""
    # "not now, can we do friday?", "cancel that, I want Wanjiru instead": a move, another person or a new time asked
    # for beside the clause that cancels is no letting go, however the whole message reads
    people = [(m.id, m.name) for m in shop_of(turn).booking_settings().people()]
    reader, now = message_reader(), turn.ctx.services.clock()
    read = {c: reader.read(c, context="checkout").label for c in _CLAUSE.split(body) if c.strip()}
    beside = [c for c, label in read.items() if label not in CANCELLATIONS] if len(read) > 1 else []
    if any(
        staff_named(c, people) is not None or _a_new_time_asked(turn, c) or read[c] == "booking_move" for c in beside
    ):
        return False
    change = change_said(body, "checkout")
    if change == "cancel" or order_cancel_said(body, "checkout"):
        return True
    if change == "move" or staff_named(body, people) is not None or _a_new_time_asked(turn, body):
        return False
    sure = reader.sure_clauses(body, CANCELLATIONS, "checkout")
    return bool(sure) and all(not read_when(clause, now).said for clause in sure)


_CLAUSE = re.compile(r"[.!?;,\n]+")
# "make it wednesday", "can we do friday", "badilisha iwe jumatano": another time asked for
_NEW_TIME_ASKED = re.compile(r"\b(?:make it|change it to|move it to|can we do|instead|badala|badilisha|iwe|ifanye)\b")


def _a_new_time_asked(turn: Turn, body: str) -> bool:
    """Whether a message asks for another time: a day or a time said with words of changing it."""
    return bool(_NEW_TIME_ASKED.search(body.casefold())) and read_when(body, turn.ctx.services.clock()).said


def _release(turn: Turn, frame: BookingFrame) -> None:
    """Let a held time go at once (another customer may take it), rather than wait for its hold to lapse."""
    if frame.held is not None:
        turn.tool("booking_cancel", customer_id=turn.state.customer_id, booking_id=frame.held.booking_ref)
    frame.held, frame.chosen, frame.agreed, frame.offered = None, None, False, []


# taps -------------------------------------------------------------------------------------------------------
def booking_tap(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["booking_advance", "booking_book", "booking_offer", "booking_change", "__end__"]]:
    """A row or button of the booking: its id says what it does and for which booking."""
    turn = Turn(state, runtime, "booking_tap")
    tap = parse_tap(state.inbound.get("reply_id"))
    if tap is None or not tap.booking:  # sales_start routes only a booking's taps here
        return turn.goto(END)
    kind, rest = tap.action, tap.last
    frame = booking_of(turn)
    if kind in ("move", "cancel", "cancelyes", "keep", "coming", "show"):
        turn.set(scratch=Scratch(change=kind, ref=rest))
        return turn.goto("booking_change")
    if frame.item_id is None:
        turn.say(text(t(turn, "booking_none_upcoming")))
        ask_booking(turn, None, None, [])
        return turn.goto(END)
    if kind == "var":
        dimension, option = tap.parts
        variant = next((v for v in frame.variants if v.name == dimension), None)
        if variant is not None and option in variant.options:
            frame.variant_selection = {**frame.variant_selection, dimension: option}
    elif kind == "zone" and rest in frame.zones:
        frame.zone, frame.address = rest, rest
    elif kind == "slot":
        compact, staff_id = tap.parts
        start = _from_compact(compact)
        offered = next((s for s in frame.offered if s.start == start and s.staff_id == staff_id), None)
        if start is not None and frame.agreed:
            turn.say(text(t(turn, "booking_stale")))  # its deposit is being paid: that row is of the past
            return turn.goto(END)
        if start is not None:
            if frame.held is not None:  # another row of the list after the summary: that time instead
                offered_before = frame.offered
                _release(turn, frame)
                frame.offered = offered_before
            names = dict(_people(turn))
            frame.chosen = offered or OfferedSlot(start=start, staff_id=staff_id, staff_name=names.get(staff_id, ""))
    elif kind in ("stk", "pay", "yes", "other", "no"):
        if frame.held is None or frame.held.booking_ref != rest or frame.agreed:
            turn.say(text(t(turn, "booking_stale")))
            return turn.goto(END)
        if kind == "other":
            _release(turn, frame)
            turn.set(booking=frame)
            return turn.goto("booking_offer")
        if kind == "no":
            _release(turn, frame)
            turn.say(text(t(turn, "booking_released")))
            ask_booking(turn, None, None, [])
            return turn.goto(END)
        frame.agreed = True
        turn.set(booking=frame, scratch=Scratch(pay="stk" if kind == "stk" else None))
        return turn.goto("booking_book")
    turn.set(booking=frame)
    return turn.goto("booking_advance")


# an appointment already made: show, move, cancel -----------------------------------------------------------
def booking_change(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["booking_offer", "__end__"]]:
    """ "I can't make it", "nataka kubadilisha saa", "cancel my booking", "my appointment", or a
    reminder's button: the customer's upcoming booking (booking_list), then the new times, the
    cancellation by the shop's policy, or the booking shown."""
    turn = Turn(state, runtime, "booking_change")
    body = inbound_text(state)
    action = str(state.scratch.get("change") or change_said(body) or "show")
    ref = str(state.scratch.get("ref") or "")
    listed = turn.tool("booking_list", customer_id=state.customer_id, limit=10)
    if not listed["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.goto(END)
    upcoming = [b for b in listed["data"]["bookings"] if b["status"] in ("confirmed", "held")]
    booking = next((b for b in upcoming if b["booking_ref"] == ref), None) if ref else None
    if booking is None and not ref:
        booking = next((b for b in upcoming if b["status"] == "confirmed"), upcoming[0] if upcoming else None)
    if booking is None:
        turn.say(text(t(turn, "booking_none_upcoming")))
        _settle_question(turn)
        return turn.goto(END)
    ref = booking["booking_ref"]
    when = _when(turn, booking["start"])
    if action == "coming":
        turn.say(text(t(turn, "booking_see_you", when=when)))
        return turn.goto(END)
    if action == "keep":
        turn.say(text(t(turn, "booking_kept")))
        _settle_question(turn)
        return turn.goto(END)
    if action == "cancelyes":
        return _cancel(turn, booking)
    if action == "cancel":
        if booking["status"] == "held":
            return _cancel(turn, booking)
        options = [
            (tap_id("bk:cancelyes", ref), t(turn, "booking_btn_yes_cancel")),
            (tap_id("bk:keep", ref), t(turn, "booking_btn_keep")),
        ]
        body_text = t(
            turn,
            "booking_cancel_ask",
            service=booking["service_name"],
            when=when,
            deposit=_deposit_line(turn, booking, booking["deposit_if_cancelled"]),
        )
        turn.say(buttons(body_text.strip(), options))
        ask_booking(turn, None, "booking_change", [{"id": i, "title": title, "ref": ref} for i, title in options])
        return turn.goto(END)
    if action == "move":
        if booking["status"] == "confirmed" and not booking["can_move"]:
            _say_not_movable(turn, "inside_notice" if booking["inside_notice"] else "max_moves", None)
            return turn.goto(END)
        frame = BookingFrame(
            item_id=booking["item_id"],
            name=booking["service_name"],
            variant_selection=booking["variant_selection"],
            place=booking["place"],
            zone=booking["zone"],
            address=booking["address"],
        )
        if booking["status"] == "confirmed":
            frame.moving = ref
        else:  # waiting for its deposit: let it go and book the new time
            turn.tool("booking_cancel", customer_id=state.customer_id, booking_id=ref)
        said = read_when(body, turn.ctx.services.clock())
        old_start = _at(booking["start"])  # nothing said: the nearest free times around the old one
        frame.when = WhenWish.of(said) if said.said else WhenWish(days=[old_start.date()], at=old_start.time())
        turn.set(
            booking=frame,
            scratch=Scratch(lead=t(turn, "booking_move_which", service=booking["service_name"], when=when) + "\n"),
        )
        return turn.goto("booking_offer")
    # show
    lines = [
        t(
            turn,
            "booking_details",
            ref=ref,
            service=booking["service_name"],
            when=when,
            staff=booking["staff_name"],
            place=_place(turn, booking),
        )
    ]
    if booking["status"] == "held" and booking["order_ref"]:
        lines.append(
            t(turn, "booking_awaiting_deposit", amount=money(booking["amount_due"]), order=booking["order_ref"])
        )
        turn.say(text("\n".join(lines)))
        return turn.goto(END)
    options = [
        (tap_id("bk:move", ref), t(turn, "booking_btn_move")),
        (tap_id("bk:cancel", ref), t(turn, "booking_btn_cancel_booking")),
    ]
    turn.say(buttons("\n".join(lines), options))
    return turn.goto(END)


def _change_answer(turn: Turn, fast: str | None, choice: int | None) -> Command[Any]:
    """Yes or no to "cancel your booking?"."""
    options = turn.state.pending_options
    ref = str(options[0].get("ref") or "") if options else ""
    if fast == "yes" or choice == 1:
        turn.set(scratch=Scratch(change="cancelyes", ref=ref))
        return turn.goto("booking_change")
    if fast == "no" or choice == 2:
        turn.set(scratch=Scratch(change="keep", ref=ref))
        return turn.goto("booking_change")
    turn.set(route="reclassify")
    return turn.goto(END)


def _deposit_line(turn: Turn, booking: dict[str, Any], outcome: str) -> str:
    if not booking["deposit"] or outcome in ("none", None):
        return ""
    if outcome == "kept":
        tenant = shop_of(turn)
        hours = tenant.booking_settings().policy.notice_hours
        return t(turn, "booking_deposit_kept", amount=money(booking["deposit"]), hours=hours)
    return t(turn, "booking_deposit_refund", amount=money(booking["deposit"]))


def _cancel(turn: Turn, booking: dict[str, Any]) -> Command[Any]:
    result = turn.tool("booking_cancel", customer_id=turn.state.customer_id, booking_id=booking["booking_ref"])
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.goto(END)
    done = result["data"]
    turn.say(
        text(
            t(
                turn,
                "booking_cancelled",
                ref=done["booking_ref"],
                deposit=_deposit_line(turn, done, str(done["deposit_outcome"] or "none")),
            ).strip()
        )
    )
    current = turn.get("booking")
    keep = (
        current
        if isinstance(current, BookingFrame)
        and (current.held is None or current.held.booking_ref != done["booking_ref"])
        else None
    )
    ask_booking(turn, keep, None, [])
    return turn.goto(END)


# a side question answered: the booking offered again ------------------------------------------------------
def remind_booking(turn: Turn, frame: BookingFrame) -> None:
    """The booking's pending question again, with its buttons or rows."""
    lead = t(turn, "resume_booking") + "\n"
    if frame.asking == "booking_variant" and frame.missing_variant() is not None:
        _say_variant_question(turn, frame, lead)
    elif frame.asking == "booking_zone":
        _say_zone_question(turn, frame, lead)
    elif frame.asking == "booking_slot" and frame.offered:
        slots = [{"start": s.start, "staff_id": s.staff_id, "staff_name": s.staff_name} for s in frame.offered]
        _offer(turn, frame, slots, lead + t(turn, "booking_slots", service=_service_named(frame), days=""))
    elif frame.asking == "booking_confirm" and (held := _booking_now(turn, frame)) is not None:
        _say_summary(turn, frame, held, lead)
