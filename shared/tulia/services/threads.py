"""The conversation log the console shows, written beside the outbox: what the customer wrote, what
was sent (read back from the stored outbox, so a redelivered turn writes the same entries again) and
the events of the turn (a person asked for, an order made, a payment asked for or landed, an
appointment booked). Best effort: the log never fails or delays a customer's reply."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from tulia.channel.whatsapp import InboundMessage
from tulia.domain.customer import Customer
from tulia.domain.thread import ThreadEntry
from tulia.observability import logger as log

if TYPE_CHECKING:
    from tulia.services import Services

STEP = timedelta(microseconds=1)

# a tool that did something the shop wants to see in the conversation -> the event it shows as
TOOL_EVENTS = {
    "handoff_create_ticket": "handoff",
    "order_create": "order_created",
    "payment_initiate_stk_push": "payment_requested",
    "payment_initiate_card": "payment_requested",
}


def payload_text(payload: dict[str, Any]) -> tuple[str, str | None]:
    """What a WhatsApp message body we sent says, as text (and the template's name when it was one)."""
    kind = payload.get("type")
    if kind == "text":
        return str(payload.get("text", {}).get("body", "")), None
    if kind == "interactive":
        part = payload.get("interactive", {})
        action = part.get("action", {})
        titles = [str(b.get("reply", {}).get("title", "")) for b in action.get("buttons", [])]
        titles += [str(r.get("title", "")) for s in action.get("sections", []) for r in s.get("rows", [])]
        lines = [str(part["header"].get("text", ""))] if part.get("header") else []
        lines.append(str(part.get("body", {}).get("text", "")))
        if titles:
            lines.append("\n".join(f"{n}. {t}" for n, t in enumerate(titles, start=1)))
        return "\n\n".join(x for x in lines if x), None
    if kind == "image":  # an item's picture: its caption, marked as a picture
        image = payload.get("image", {})
        return f"🖼 {image.get('caption', '')}".strip(), None
    if kind == "template":
        template = payload.get("template", {})
        params = [
            str(p.get("text", ""))
            for c in template.get("components", [])
            for p in c.get("parameters", [])
            if p.get("type") == "text"
        ]
        return " · ".join(params), str(template.get("name", "")) or None
    return f"[{kind}]", None


def stored_at(outbox: dict[str, Any], fallback: datetime) -> datetime:
    raw = outbox.get("created_at")
    return datetime.fromisoformat(str(raw)) if raw else fallback


MEDIA_SHOWN = {"image": "📷 Photo", "audio": "🎤 Voice note", "location": "📍 Location"}


def shown_as(message: InboundMessage) -> str:
    """A customer's message as the shop's people read it: a photo or voice note named (the file itself stays in
    the media bucket), a voice note's transcript marked as spoken."""
    if message.spoken:
        return f"🎤 {message.text}" if message.text else "🎤 (nothing could be made out)"
    label = MEDIA_SHOWN.get(message.kind)
    if label is None:
        return message.text or f"[{message.kind}]"
    return f"{label}: {message.text}" if message.text else label


def heard(messages: Sequence[InboundMessage], before: datetime) -> list[ThreadEntry]:
    """The customer's messages of a turn, in order just before its reply: at the time the shop's side read them
    (WhatsApp's own times are whole seconds, and would put a message before a person's action of the same
    second that it followed)."""
    entries = []
    for n, m in enumerate(messages):
        at = before - STEP * (100 + len(messages) - n)
        said = shown_as(m)
        entries.append(ThreadEntry(at=at, role="customer", text=said[:4096], ref=m.message_id))
    return entries


def said(key: str, outbox: dict[str, Any], at: datetime) -> list[ThreadEntry]:
    """What was sent for a turn or a piece of news: its stored replies, in order, after ``at``."""
    entries = []
    for n, payload in enumerate(outbox.get("replies") or []):
        body, template = payload_text(payload)
        entries.append(
            ThreadEntry(at=at + STEP * (n + 1), role="bot", text=body[:4096], ref=f"{key}.{n}", template=template)
        )
    return entries


def events_of(key: str, trace: Sequence[dict[str, Any]], at: datetime) -> list[ThreadEntry]:
    """The events of a turn, from its trace (stored with the outbox): just before its replies."""
    entries: list[ThreadEntry] = []
    for entry in trace:
        event = None
        facts: dict[str, str | int] = {}
        if entry.get("kind") == "tool" and entry.get("ok") and entry.get("tool") in TOOL_EVENTS:
            event = TOOL_EVENTS[str(entry["tool"])]
            facts = dict(entry.get("facts") or {})  # graph/calls.event_facts
        elif entry.get("kind") == "booking" and entry.get("node") in ("booking_confirmed", "booking_moved"):
            event = "booking_made" if entry["node"] == "booking_confirmed" else "booking_moved"
            facts = {"booking_ref": str(entry.get("booking_ref", "")), "start": str(entry.get("start", ""))}
        if event is not None:
            entries.append(event_entry(f"{key}.e{len(entries)}", event, facts, at - STEP * (50 - len(entries))))
    return entries


def event_entry(ref: str, event: str, facts: dict[str, str | int], at: datetime, by: str | None = None) -> ThreadEntry:
    wording = ", ".join(f"{k} {v}" for k, v in facts.items())
    said = event + (f": {wording}" if wording else "")
    return ThreadEntry(at=at, role="event", event=event, facts=facts, ref=ref, by=by, text=said)


def write(services: Services, customer: Customer, entries: Sequence[ThreadEntry]) -> None:
    """Add entries to the customer's conversation; a failure is logged, never raised."""
    try:
        services.threads.add(
            customer.tenant_id, customer.customer_id, entries, name=customer.display_name, phone=customer.phone_e164
        )
    except Exception:  # noqa: BLE001 - the log is for the console: the customer's reply goes out regardless
        log.exception("conversation log not written", extra={"tenant_id": customer.tenant_id})


def write_turn(
    services: Services,
    tenant_id: str,
    key: str,
    messages: Sequence[InboundMessage],
    outbox: dict[str, Any],
) -> None:
    """A customer's turn: their messages, the turn's events and the replies stored for it."""
    try:
        last = messages[-1]
        customer_id = (
            services.customers.find_id_by_phone(tenant_id, last.phone_e164) if last.phone_e164 else None
        ) or (services.customers.find_id_by_wa_user(tenant_id, last.wa_user_id) if last.wa_user_id else None)
        if customer_id is None:
            return
        customer = services.customers.get(tenant_id, customer_id)
    except Exception:  # noqa: BLE001 - as above
        log.exception("conversation log not written", extra={"tenant_id": tenant_id})
        return
    at = stored_at(outbox, services.clock())
    entries = [*heard(messages, at), *events_of(key, outbox.get("trace") or [], at), *said(key, outbox, at)]
    write(services, customer, entries)
