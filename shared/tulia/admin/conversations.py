"""Every conversation of the shop: the list (newest first, searched by name or number, filtered to
those waiting for a person, with an unpaid order, or booked), one conversation (its messages and events,
the customer's consent, orders, bookings and the shop's private notes about them), taking a
conversation over from the bot (a person then answers through the inbox's reply and hands it back with
its resolve), and the quick replies the shop writes once. Owners and agents; quick replies are set by
owners."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from tulia.admin.auth import Forbidden
from tulia.admin.common import (
    PAGE_LIMIT_MAX,
    AdminDeps,
    CustomerBrief,
    Deleted,
    Deps,
    Owner,
    Page,
    Staff,
    View,
    admin_router,
    audit,
)
from tulia.admin.handoffs import TicketView, log_event, outbound_of, views
from tulia.channel.whatsapp import conversation_id_for, customer_key
from tulia.domain.booking import Booking
from tulia.domain.common import new_reference
from tulia.domain.customer import Customer, NotificationPrefs
from tulia.domain.handoff import HandoffTicket
from tulia.domain.order import Order
from tulia.domain.thread import NOTE_LIMIT, QUICK_REPLIES_MAX, QuickReply, StaffNote, ThreadEntry, ThreadHead
from tulia.domain.times import sortable
from tulia.errors import BusinessRuleViolation, NotFound, StateConflict
from tulia.store.threads import search_terms, search_text

Filter = Literal["all", "waiting", "unpaid", "booked"]
FILTERED_MAX = 200  # a filtered list is not paged: the shop's waiting, unpaid or booked customers
UNPAID_SINCE = timedelta(days=30)
BOOKED_AHEAD = timedelta(days=60)
UNPAID = ("draft", "pending_payment", "payment_failed")  # made, not paid


class ConversationSummary(View):
    customer: CustomerBrief
    last_at: str | None  # ISO time of the newest message or event; None: nothing logged yet
    last_role: str | None
    last_text: str
    waiting: bool  # a person has (or is asked to take) the conversation: the bot is quiet
    ticket_id: str | None


class Consent(View):
    marketing_opt_in: bool | None
    language_preference: str | None
    notification_prefs: NotificationPrefs


class OrderBrief(View):
    order_id: str
    status: str
    payment_status: str
    total: int
    created_at: str


class BookingBrief(View):
    booking_id: str
    service_name: str
    staff_name: str
    start: str
    status: str


class Conversation(View):
    customer: CustomerBrief
    consent: Consent
    ticket: TicketView | None  # the hand-over in force, if any
    entries: list[ThreadEntry]  # the newest, oldest first
    cursor: str | None  # pass to .../entries for older ones
    notes: list[StaffNote]
    orders: list[OrderBrief]
    bookings: list[BookingBrief]


class NoteBody(View):
    text: str = Field(min_length=1, max_length=NOTE_LIMIT)


class QuickReplies(View):
    replies: list[QuickReply] = Field(max_length=QUICK_REPLIES_MAX)


router = admin_router()


@router.get("/admin/conversations", tags=["conversations"], summary="Every conversation, newest first")
def list_conversations(
    who: Staff,
    deps: Deps,
    q: Annotated[str, Query(max_length=100, description="A name or a phone number (or part of one)")] = "",
    filter: Annotated[Filter, Query()] = "all",
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 30,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[ConversationSummary]:
    s, tid = deps.services, who.tenant_id
    if filter == "all":
        page = s.threads.heads(tid, limit=limit, cursor=cursor, query=q)
        return Page[ConversationSummary](items=_summaries(deps, tid, page.items), cursor=page.cursor)
    ids = _filtered_ids(deps, tid, filter)
    heads = s.threads.heads_of(tid, ids)
    customers = s.customers.get_many(tid, ids)
    words, digits = search_terms(q)
    found = [
        _summary(customers[c], heads.get(c))
        for c in ids
        if c in customers
        and (
            not (words or digits)
            or (digits or words) in search_text(customers[c].display_name, customers[c].phone_e164)
        )
    ]
    found.sort(key=lambda x: x.last_at or "", reverse=True)
    return Page[ConversationSummary](items=found)


def _filtered_ids(deps: AdminDeps, tid: str, which: Filter) -> list[str]:
    s, now = deps.services, deps.services.clock()
    if which == "waiting":
        tickets = [
            t
            for status in ("open", "claimed")
            for t in s.handoffs.list_by_status(tid, status, limit=PAGE_LIMIT_MAX).items
        ]
        return list(dict.fromkeys(t.customer_id for t in tickets))[:FILTERED_MAX]
    if which == "unpaid":
        since = (sortable(now - UNPAID_SINCE), "~")
        orders = [
            o
            for status in UNPAID
            for o in s.orders.search(tid, status=status, created_between=since, limit=PAGE_LIMIT_MAX).items
        ]
        return list(dict.fromkeys(o.customer_id for o in orders))[:FILTERED_MAX]
    booked = s.bookings.list_between(tid, now - timedelta(hours=2), now + BOOKED_AHEAD, limit=FILTERED_MAX)
    return list(dict.fromkeys(b.customer_id for b in booked if b.status in ("held", "confirmed")))


def _summaries(deps: AdminDeps, tid: str, heads: list[ThreadHead]) -> list[ConversationSummary]:
    customers = deps.services.customers.get_many(tid, [h.customer_id for h in heads])
    return [_summary(customers[h.customer_id], h) for h in heads if h.customer_id in customers]


def _summary(customer: Customer, head: ThreadHead | None) -> ConversationSummary:
    return ConversationSummary(
        customer=_brief(customer),
        last_at=head.last_at.isoformat() if head else None,
        last_role=head.last_role if head else None,
        last_text=head.last_text if head else "",
        waiting=customer.handoff_ticket_id is not None,
        ticket_id=customer.handoff_ticket_id,
    )


def _brief(customer: Customer) -> CustomerBrief:
    return CustomerBrief(customer_id=customer.customer_id, name=customer.display_name, phone=customer.phone_e164)


@router.get("/admin/conversations/<customer_id>", tags=["conversations"], summary="One conversation and its customer")
def get_conversation(customer_id: str, who: Staff, deps: Deps) -> Conversation:
    s, tid = deps.services, who.tenant_id
    customer = s.customers.get(tid, customer_id)
    page = s.threads.entries(tid, customer_id, limit=50)
    ticket = None
    if customer.handoff_ticket_id:
        try:
            ticket = views(deps, tid, [s.handoffs.get(tid, customer.handoff_ticket_id)])[0]
        except NotFound:
            ticket = None
    orders = s.orders.list_for_customer(tid, customer_id, limit=5).items
    bookings = s.bookings.list_for_customer(tid, customer_id, since=s.clock() - timedelta(days=30), limit=5)
    return Conversation(
        customer=_brief(customer),
        consent=Consent(
            marketing_opt_in=customer.marketing_opt_in,
            language_preference=customer.language_preference,
            notification_prefs=customer.notification_prefs,
        ),
        ticket=ticket if ticket is not None and ticket.status != "resolved" else None,
        entries=page.items,
        cursor=page.cursor,
        notes=s.threads.notes(tid, customer_id),
        orders=[_order(o) for o in orders],
        bookings=[_booking(b) for b in bookings],
    )


def _order(o: Order) -> OrderBrief:
    return OrderBrief(
        order_id=o.order_id,
        status=o.status,
        payment_status=o.payment_status,
        total=o.totals.total,
        created_at=o.created_at.isoformat(),
    )


def _booking(b: Booking) -> BookingBrief:
    return BookingBrief(
        booking_id=b.booking_id, service_name=b.service_name, staff_name=b.staff_name, start=b.start.isoformat(),
        status=b.status,
    )  # fmt: skip


@router.get(
    "/admin/conversations/<customer_id>/entries", tags=["conversations"], summary="Older messages, oldest first"
)
def older_entries(
    customer_id: str,
    who: Staff,
    deps: Deps,
    cursor: Annotated[str, Query(max_length=2000)],
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
) -> Page[ThreadEntry]:
    deps.services.customers.get(who.tenant_id, customer_id)
    page = deps.services.threads.entries(who.tenant_id, customer_id, limit=limit, cursor=cursor)
    return Page[ThreadEntry](items=page.items, cursor=page.cursor)


@router.post(
    "/admin/conversations/<customer_id>/take",
    tags=["conversations"],
    summary="Take the conversation over from the bot (you reply; resolve the ticket to hand it back)",
)
def take_over(customer_id: str, who: Staff, deps: Deps) -> HandoffTicket:
    s, tid = deps.services, who.tenant_id
    customer = s.customers.get(tid, customer_id)
    now = s.clock()
    if customer.handoff_ticket_id:
        ticket = s.handoffs.get(tid, customer.handoff_ticket_id)
        if ticket.status != "resolved":
            if ticket.assigned_to and ticket.assigned_to != who.actor:
                raise StateConflict(
                    f"{ticket.assigned_to} has this conversation.", details={"assigned_to": ticket.assigned_to}
                )
            if ticket.assigned_to == who.actor and ticket.status == "claimed":
                return ticket
            after = ticket.model_copy(update={"status": "claimed", "assigned_to": who.actor, "updated_at": now})
            s.handoffs.replace(ticket, after)
            log_event(deps, customer, "taken_over", {"ticket_id": ticket.ticket_id}, by=who.actor)
            audit(deps, who, "handoff.claim", ticket.ticket_id)
            return after
    tenant = s.tenants.get(tid)
    if not tenant.handoff.enabled:
        raise BusinessRuleViolation(
            "The shop's settings hand no conversation to a person: turn hand-overs on in Settings first.",
            code="handoff_disabled",
        )
    last_inbound = outbound_of(deps).last_inbound(customer)
    for _attempt in range(3):
        ticket = HandoffTicket(
            tenant_id=tid,
            ticket_id=new_reference("HND"),
            customer_id=customer_id,
            conversation_id=conversation_id_for(tid, customer_key(customer.phone_e164, customer.wa_user_id)),
            reason="taken_over",
            priority="normal",
            status="claimed",
            assigned_to=who.actor,
            context_snapshot={"facts": {"reason": "taken_over", "by": who.actor}},
            last_customer_message_at=last_inbound,
            created_at=now,
            updated_at=now,
        )
        try:
            s.handoffs.create(ticket)
            break
        except StateConflict:
            continue
    else:
        raise StateConflict("Could not take the conversation; try again.")
    log_event(deps, customer, "taken_over", {"ticket_id": ticket.ticket_id}, by=who.actor)
    audit(deps, who, "conversation.take", customer_id, ticket_id=ticket.ticket_id)
    return ticket


@router.post("/admin/conversations/<customer_id>/notes", tags=["conversations"], summary="Add a private note")
def add_note(customer_id: str, body: NoteBody, who: Staff, deps: Deps) -> StaffNote:
    deps.services.customers.get(who.tenant_id, customer_id)
    note = StaffNote(
        note_id=f"{sortable(deps.services.clock())}-{secrets.token_hex(3)}",
        customer_id=customer_id,
        text=body.text.strip() or body.text,
        by=who.actor,
        at=deps.services.clock(),
    )
    deps.services.threads.add_note(who.tenant_id, note)
    audit(deps, who, "conversation.note", customer_id, chars=len(note.text))
    return note


@router.delete(
    "/admin/conversations/<customer_id>/notes/<note_id>",
    tags=["conversations"],
    summary="Delete a note (its author or an owner)",
)
def delete_note(customer_id: str, note_id: str, who: Staff, deps: Deps) -> Deleted:
    notes = {n.note_id: n for n in deps.services.threads.notes(who.tenant_id, customer_id)}
    note = notes.get(note_id)
    if note is None:
        raise NotFound("Unknown note.", field="note_id")
    if note.by != who.actor and "owner" not in who.roles:
        raise Forbidden("Only the note's author or an owner can delete it.")
    deps.services.threads.delete_note(who.tenant_id, customer_id, note_id)
    audit(deps, who, "conversation.note_delete", customer_id, note_id=note_id)
    return Deleted(deleted=True, id=note_id)


@router.get("/admin/quick-replies", tags=["conversations"], summary="The shop's quick replies")
def get_quick_replies(who: Staff, deps: Deps) -> QuickReplies:
    return QuickReplies(replies=deps.services.threads.quick_replies(who.tenant_id))


@router.put("/admin/quick-replies", tags=["conversations"], summary="Set the shop's quick replies")
def put_quick_replies(body: QuickReplies, who: Owner, deps: Deps) -> QuickReplies:
    deps.services.threads.save_quick_replies(who.tenant_id, body.replies)
    audit(deps, who, "quick_replies.update", who.tenant_id, count=len(body.replies))
    return body
