"""kb_retrieve and handoff_create_ticket."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tulia.domain.alerts import handoff_alert
from tulia.domain.common import new_reference
from tulia.domain.handoff import HandoffTicket
from tulia.domain.tenant import Tenant
from tulia.errors import BusinessRuleViolation, InvalidInput, NotFound, StateConflict
from tulia.store.customers import CustomerRepo
from tulia.store.tenants import TenantRepo
from tulia.tools.args import HandoffCreateTicketArgs, KbRetrieveArgs
from tulia.tools.common import Output
from tulia.tools.context import ToolContext

MAX_SNAPSHOT_BYTES = 64 * 1024
MAX_QUERY_CHARS = 1000


class Snippet(Output):
    doc_id: str
    title: str
    section: str | None
    source_type: str
    text: str
    score: float


class KbRetrieveOut(Output):
    snippets: list[Snippet]
    answer_found: bool


class TicketOut(Output):
    ticket_id: str
    status: str
    priority: str
    reason: str
    expected_response: str | None  # the shop's promise, only while the team is in
    team_available: bool
    team_back_at: str | None  # when the team is next in (ISO, EAT), outside the shop's handoff hours
    created: bool


def team_availability(tenant: Tenant, now: datetime, language: str | None) -> dict[str, Any]:
    """What may be promised about a person's reply now: the response time inside the handoff hours
    (or always, without hours); outside them, when the team is back."""
    hours = tenant.handoff.opening_hours()
    if hours is None or hours.is_open(now):
        promise = tenant.text(tenant.handoff.response_time, language)
        return {"expected_response": promise, "team_available": True, "team_back_at": None}
    back = hours.next_opening(now)
    return {"expected_response": None, "team_available": False, "team_back_at": back.isoformat()}


def contact_of(tenant: Tenant, language: str | None) -> str:
    """How to reach the shop without the bot: the pack's contact text, else its number and address."""
    if tenant.handoff.contact is not None:
        return tenant.text(tenant.handoff.contact, language)
    address = tenant.text(tenant.pickup.address, language)
    number = tenant.whatsapp.display_phone_number if tenant.whatsapp else None
    return " / ".join([*([number] if number else []), *([address] if address else [])])


def kb_retrieve(ctx: ToolContext, args: KbRetrieveArgs) -> KbRetrieveOut:
    passages = ctx.services.kb_search.search(
        ctx.tenant_id, args.query[:MAX_QUERY_CHARS], top_k=args.top_k, source_types=args.source_types
    )
    snippets = [
        Snippet(
            doc_id=p.chunk.doc_id,
            title=p.chunk.title,
            section=p.chunk.section,
            source_type=p.chunk.source_type,
            text=p.chunk.text,
            score=round(p.score, 4),
        )
        for p in passages
    ]
    return KbRetrieveOut(snippets=snippets, answer_found=bool(snippets))


def handoff_create_ticket(ctx: ToolContext, args: HandoffCreateTicketArgs) -> TicketOut:
    s, tid = ctx.services, ctx.tenant_id
    reason = args.reason.strip()
    if not reason:
        raise InvalidInput("A handoff needs a reason.", field="reason")
    if len(json.dumps(args.context_snapshot, default=str)) > MAX_SNAPSHOT_BYTES:
        raise InvalidInput("The context snapshot is too large (64 KB at most).", field="context_snapshot")
    found = s.db.batch_get([TenantRepo.key(tid), CustomerRepo.key(tid, args.customer_id)])
    if TenantRepo.key(tid) not in found:
        raise NotFound(f"Unknown tenant '{tid}'.", field="tenant_id")
    raw_customer = found.get(CustomerRepo.key(tid, args.customer_id))
    if raw_customer is None:
        raise NotFound("Unknown customer.", field="customer_id")
    tenant, customer = s.tenants.from_item(found[TenantRepo.key(tid)]), CustomerRepo.from_item(raw_customer)
    if not tenant.handoff.enabled:
        raise BusinessRuleViolation(
            f"{tenant.name} does not hand conversations to a person in chat.",
            code="handoff_disabled",
            details={"contact": contact_of(tenant, ctx.language)},
        )
    now = s.clock()
    availability = team_availability(tenant, now, ctx.language)
    if customer.handoff_ticket_id:
        # already with a human: do not open a second ticket for the same conversation
        ticket = s.handoffs.get(tid, customer.handoff_ticket_id)
        if ticket.status != "resolved":
            return TicketOut(
                ticket_id=ticket.ticket_id,
                status=ticket.status,
                priority=ticket.priority,
                reason=ticket.reason,
                created=False,
                **availability,
            )
    for _attempt in range(3):
        ticket = HandoffTicket(
            tenant_id=tid,
            ticket_id=new_reference("HND"),
            customer_id=customer.customer_id,
            conversation_id=args.conversation_id,
            reason=reason[:500],
            priority=args.priority,
            context_snapshot=args.context_snapshot,
            last_customer_message_at=now,  # a ticket opens on the customer's turn
            created_at=now,
            updated_at=now,
        )
        try:
            s.handoffs.create(ticket)
            break
        except StateConflict:
            continue
    else:
        raise StateConflict("Could not open a handoff ticket; try again.")
    s.alerts.add(handoff_alert(tid, ticket.ticket_id, customer, now))
    return TicketOut(
        ticket_id=ticket.ticket_id,
        status=ticket.status,
        priority=ticket.priority,
        reason=ticket.reason,
        created=True,
        **availability,
    )
