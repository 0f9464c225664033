"""The handoff inbox: tickets the bot escalated, with the snapshot and what the customer wrote since;
claim one, reply to the customer as a person (sent on WhatsApp from the shop's number: free-form
inside WhatsApp's 24-hour customer-service window, the shop's ``staff_reply`` template outside it, or
a refusal naming the missing template), and resolve it to give the conversation back to the bot.
Owners and agents."""

import contextlib
from dataclasses import dataclass
from typing import Annotated, Any

import httpx
from aws_lambda_powertools.event_handler.openapi.params import Header, Query
from pydantic import Field

from tulia.admin.common import (
    PAGE_LIMIT_MAX,
    AdminDeps,
    CustomerBrief,
    Deps,
    Page,
    Staff,
    View,
    admin_router,
    audit,
    customer_briefs,
)
from tulia.channel.graph_api import SendFailed, TemplateManager, WhatsAppSender
from tulia.channel.outbound import Outbound, greeting_name, send_planned
from tulia.channel.window import TemplateCall
from tulia.domain.customer import Customer
from tulia.domain.handoff import TRANSCRIPT_LIMIT, HandoffTicket, TicketStatus, TranscriptEntry
from tulia.domain.tenant import Tenant
from tulia.domain.thread import ThreadEntry
from tulia.errors import BusinessRuleViolation, NotFound, ProviderUnavailable, StateConflict
from tulia.nlg.messages import text
from tulia.nlg.templates import render
from tulia.services import threads
from tulia.store.templates import TemplateRepo


class TicketView(HandoffTicket):
    """A ticket with who the customer is (name and number), as the inbox shows it."""

    customer: CustomerBrief | None = None  # None: the customer's data was erased


class ReplyBody(View):
    text: str = Field(min_length=1, max_length=4096, description="What the customer receives on WhatsApp")


class ResolveBody(View):
    note: str | None = Field(default=None, max_length=500, description="For the shop's records")


@dataclass
class WhatsAppAccess:
    """The Graph API as the admin function uses it: sending with the shop's token (or the
    deployment's), and the shop's message templates."""

    http: httpx.Client
    api_base: str
    default_token: str

    def token(self, tenant: Tenant) -> str:
        return tenant.wa.access_token or self.default_token

    @property
    def sender(self) -> WhatsAppSender:
        return WhatsAppSender(self.http, self.api_base)

    @property
    def templates(self) -> TemplateManager:
        return TemplateManager(self.http, self.api_base)


def language_of(ticket: HandoffTicket, customer: Customer, tenant: Tenant) -> str:
    """The language a person's messages on a ticket are in: the conversation's, the customer's, the shop's."""
    return str(ticket.context_snapshot.get("language") or customer.language_preference or tenant.languages.default)


def outbound_of(deps: AdminDeps) -> Outbound:
    from tulia.store.messages import MessageRepo

    s = deps.services
    return Outbound(MessageRepo(s.db), TemplateRepo(s.db), s.clock)


router = admin_router()


@router.get("/admin/handoffs", tags=["handoffs"], summary="Tickets by status (open by default), oldest first")
def list_tickets(
    who: Staff,
    deps: Deps,
    status: Annotated[TicketStatus, Query()] = "open",
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[TicketView]:
    page = deps.services.handoffs.list_by_status(who.tenant_id, status, limit=limit, cursor=cursor)
    return Page[TicketView](items=views(deps, who.tenant_id, page.items), cursor=page.cursor)


@router.get("/admin/handoffs/<ticket_id>", tags=["handoffs"], summary="A ticket: snapshot and transcript")
def get_ticket(ticket_id: str, who: Staff, deps: Deps) -> TicketView:
    return views(deps, who.tenant_id, [deps.services.handoffs.get(who.tenant_id, ticket_id)])[0]


def views(deps: AdminDeps, tenant_id: str, tickets: list[HandoffTicket]) -> list[TicketView]:
    briefs = customer_briefs(deps, tenant_id, (t.customer_id for t in tickets))
    return [TicketView(**dict(t), customer=briefs.get(t.customer_id)) for t in tickets]


@router.post("/admin/handoffs/<ticket_id>/claim", tags=["handoffs"], summary="Take the ticket (you reply)")
def claim(ticket_id: str, who: Staff, deps: Deps) -> HandoffTicket:
    ticket = deps.services.handoffs.get(who.tenant_id, ticket_id)
    if ticket.status == "resolved":
        raise StateConflict("The ticket is resolved.", details={"status": ticket.status})
    if ticket.assigned_to == who.actor:
        return ticket  # claiming again is not an error
    if ticket.status == "claimed" and ticket.assigned_to:
        raise StateConflict(f"{ticket.assigned_to} has this ticket.", details={"assigned_to": ticket.assigned_to})
    after = ticket.model_copy(
        update={"status": "claimed", "assigned_to": who.actor, "updated_at": deps.services.clock()}
    )
    deps.services.handoffs.replace(ticket, after)
    with contextlib.suppress(NotFound):  # an erased customer's ticket is still claimed; it has no conversation
        customer = deps.services.customers.get(who.tenant_id, ticket.customer_id)
        log_event(deps, customer, "taken_over", {"ticket_id": ticket_id}, by=who.actor)
    audit(deps, who, "handoff.claim", ticket_id)
    return after


@router.post(
    "/admin/handoffs/<ticket_id>/reply",
    tags=["handoffs"],
    summary="Reply to the customer on WhatsApp as a person (within 24 hours of their last message)",
    description="Send an Idempotency-Key header to make a retry safe: the same key sends once.",
)
def reply(
    ticket_id: str,
    body: ReplyBody,
    who: Staff,
    deps: Deps,
    idempotency_key: Annotated[str | None, Header(alias="idempotency-key", max_length=100)] = None,
) -> HandoffTicket:
    if deps.whatsapp is None:
        raise ProviderUnavailable("WhatsApp sending is not configured for the admin API.")
    ticket = deps.services.handoffs.get(who.tenant_id, ticket_id)
    if idempotency_key:
        done = next((e for e in ticket.transcript if e.client_key == idempotency_key), None)
        if done is not None and done.message_id and not done.message_id.startswith("failed"):
            return ticket
    if ticket.status == "resolved":
        raise StateConflict("The ticket is resolved: the bot has the conversation again.")
    if ticket.assigned_to and ticket.assigned_to != who.actor:
        raise StateConflict(f"{ticket.assigned_to} has this ticket.", details={"assigned_to": ticket.assigned_to})
    now = deps.services.clock()
    customer = deps.services.customers.get(who.tenant_id, ticket.customer_id)
    tenant = deps.services.tenants.get(who.tenant_id)
    lang = language_of(ticket, customer, tenant)
    entry = TranscriptEntry(role="agent", text=body.text, at=now, by=who.actor, client_key=idempotency_key)
    kept = [e for e in ticket.transcript if not (idempotency_key and e.client_key == idempotency_key)]
    sending = ticket.model_copy(
        update={
            "status": "claimed",
            "assigned_to": who.actor,
            "transcript": [*kept, entry][-TRANSCRIPT_LIMIT:],
            "updated_at": now,
        }
    )
    deps.services.handoffs.replace(ticket, sending)  # reserved first: a concurrent retry of the same key loses here
    try:
        delivery, wamids = send_planned(
            outbound_of(deps),
            deps.whatsapp.sender,
            deps.whatsapp.token(tenant),
            tenant,
            customer,
            free_form=[text(body.text)],
            template=TemplateCall(
                tenant.messaging.templates.staff_reply, [greeting_name(customer, lang), tenant.name, body.text]
            ),
            lang=lang,
        )
    except SendFailed as exc:
        failed = _with_entry(sending, entry, f"failed:{exc.code or exc.status}", deps.services.clock())
        deps.services.handoffs.replace(sending, failed)
        raise ProviderUnavailable(
            "WhatsApp did not accept the message; try again.", details={"status": exc.status, "code": exc.code}
        ) from exc
    if delivery.mode == "refused":
        refusal = dict(delivery.refusal or {})
        deps.services.handoffs.replace(
            sending, _with_entry(sending, entry, f"failed:{refusal['code']}", deps.services.clock())
        )
        raise BusinessRuleViolation(
            str(refusal.pop("message")) + " Add or sync the template, or wait for the customer to write again.",
            code=str(refusal.pop("code")),
            details={**refusal, "last_customer_message_at": _iso(outbound_of(deps).last_inbound(customer))},
        )
    # outside the window the customer reads the template: the transcript keeps what they read
    shown = delivery.preview if delivery.mode == "template" else None
    sent = _with_entry(sending, entry, wamids[0], deps.services.clock(), shown=shown)
    deps.services.handoffs.replace(sending, sent)
    template = tenant.messaging.templates.staff_reply if delivery.mode == "template" else None
    said = ThreadEntry(
        at=now, role="staff", text=shown or body.text, ref=idempotency_key or wamids[0], by=who.actor, template=template
    )
    threads.write(deps.services, customer, [said])
    audit(deps, who, "handoff.reply", ticket_id, chars=len(body.text), mode=delivery.mode)
    return sent


@router.post(
    "/admin/handoffs/<ticket_id>/resolve",
    tags=["handoffs"],
    summary="Close the ticket: the bot answers the customer again",
)
def resolve(
    ticket_id: str,
    who: Staff,
    deps: Deps,
    body: ResolveBody | None = None,
) -> HandoffTicket:
    ticket = deps.services.handoffs.get(who.tenant_id, ticket_id)
    if ticket.status == "resolved":
        return ticket
    now = deps.services.clock()
    after = ticket.model_copy(
        update={
            "status": "resolved",
            "assigned_to": ticket.assigned_to or who.actor,
            "resolution_note": body.note if body else None,
            "resolved_at": now,
            "updated_at": now,
        }
    )
    deps.services.handoffs.resolve(ticket, after)
    audit(deps, who, "handoff.resolve", ticket_id)
    customer = deps.services.customers.get(who.tenant_id, ticket.customer_id)
    log_event(deps, customer, "handed_back", {"ticket_id": ticket_id}, by=who.actor)
    return tell_the_bot_is_back(deps, after)


def tell_the_bot_is_back(deps: AdminDeps, ticket: HandoffTicket) -> HandoffTicket:
    """The customer learns that the person is done and the bot answers again, in their language,
    when WhatsApp's window allows a free-form message (no template is worth a paid message here:
    their next message reaches the bot anyway). The notice, sent or failed, is kept on the ticket."""
    if deps.whatsapp is None:
        return ticket
    customer = deps.services.customers.get(ticket.tenant_id, ticket.customer_id)
    tenant = deps.services.tenants.get(ticket.tenant_id)
    lang = language_of(ticket, customer, tenant)
    body = render("handoff_ended", lang, tenant.languages.sheng_reply_language, bot_name=tenant.persona.bot_name)
    try:
        delivery, wamids = send_planned(
            outbound_of(deps),
            deps.whatsapp.sender,
            deps.whatsapp.token(tenant),
            tenant,
            customer,
            free_form=[text(body)],
            template=None,
            lang=lang,
        )
    except SendFailed as exc:
        delivery, wamids = None, [f"failed:{exc.code or exc.status}"]
    if delivery is not None and delivery.mode == "refused":
        return ticket  # the window is closed: nothing to say now
    entry = TranscriptEntry(role="bot", text=body, at=deps.services.clock(), message_id=wamids[0])
    threads.write(
        deps.services, customer, [ThreadEntry(at=entry.at, role="bot", text=body, ref=f"back-{ticket.ticket_id}")]
    )
    noted = ticket.model_copy(
        update={"transcript": [*ticket.transcript, entry][-TRANSCRIPT_LIMIT:], "updated_at": deps.services.clock()}
    )
    try:
        deps.services.handoffs.replace(ticket, noted)
    except StateConflict:
        return ticket
    return noted


def log_event(deps: AdminDeps, customer: Customer, event: str, facts: dict[str, str | int], *, by: str) -> None:
    """A person's action in the customer's conversation as the console shows it (best effort)."""
    now = deps.services.clock()
    threads.write(deps.services, customer, [threads.event_entry(f"{event}-{now.timestamp()}", event, facts, now, by)])


def _iso(at: Any) -> str | None:
    return at.isoformat() if at is not None else None


def _with_entry(
    ticket: HandoffTicket, entry: TranscriptEntry, message_id: str, now: Any, *, shown: str | None = None
) -> HandoffTicket:
    changes: dict[str, Any] = {"message_id": message_id} | ({"text": shown} if shown else {})
    transcript = [e.model_copy(update=changes) if e == entry else e for e in ticket.transcript]
    return ticket.model_copy(update={"transcript": transcript, "updated_at": now})
