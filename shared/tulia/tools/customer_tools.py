"""customer_get_or_create and customer_update_preferences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tulia.domain.common import new_id
from tulia.domain.customer import Customer
from tulia.domain.phone import normalize_phone
from tulia.errors import StateConflict
from tulia.observability import logger as log
from tulia.tools.args import CustomerGetOrCreateArgs, CustomerUpdatePreferencesArgs
from tulia.tools.common import Output
from tulia.tools.context import ToolContext

if TYPE_CHECKING:
    from tulia.services import Services

# Consent-bearing fields: every change to one of these appends an immutable consent event.
CONSENT_FIELDS = ("marketing_opt_in", "offers_whatsapp", "order_updates_whatsapp")


class CustomerOut(Output):
    customer_id: str
    phone_e164: str | None
    wa_user_id: str | None
    display_name: str | None
    language_preference: str | None
    marketing_opt_in: bool | None
    notification_prefs: dict[str, bool]
    orders_paid_count: int
    in_handoff: bool
    handoff_ticket_id: str | None


class CustomerGetOrCreateOut(CustomerOut):
    created: bool


class ConsentEventOut(Output):
    event_id: str
    field: str
    old_value: bool | str | None
    new_value: bool | str | None
    source: str
    at: str


class CustomerUpdateOut(CustomerOut):
    changed: list[str]
    consent_events: list[ConsentEventOut]


def customer_fields(c: Customer) -> dict[str, object]:
    return {
        "customer_id": c.customer_id,
        "phone_e164": c.phone_e164,
        "wa_user_id": c.wa_user_id,
        "display_name": c.display_name,
        "language_preference": c.language_preference,
        "marketing_opt_in": c.marketing_opt_in,
        "notification_prefs": c.notification_prefs.model_dump(),
        "orders_paid_count": c.orders_paid_count,
        "in_handoff": c.handoff_ticket_id is not None,
        "handoff_ticket_id": c.handoff_ticket_id,
    }


def customer_get_or_create(ctx: ToolContext, args: CustomerGetOrCreateArgs) -> CustomerGetOrCreateOut:
    phone = normalize_phone(args.phone_e164)
    customer, created = ctx.services.customers.find_or_create(
        ctx.tenant_id, phone, args.display_name, ctx.services.clock()
    )
    return CustomerGetOrCreateOut(**customer_fields(customer), created=created)


def customer_update_preferences(ctx: ToolContext, args: CustomerUpdatePreferencesArgs) -> CustomerUpdateOut:
    repo = ctx.services.customers
    before = repo.get(ctx.tenant_id, args.customer_id)
    wanted = args.updates.model_dump(exclude_none=True)
    # Opting out of marketing also stops offers; opting in turns offers on unless said otherwise.
    if wanted.get("marketing_opt_in") is False:
        wanted.setdefault("offers_whatsapp", False)
    elif wanted.get("marketing_opt_in") is True:
        wanted.setdefault("offers_whatsapp", True)

    now = ctx.services.clock()
    prefs = before.notification_prefs.model_dump()
    current = {"language_preference": before.language_preference, "marketing_opt_in": before.marketing_opt_in, **prefs}
    changed = [f for f, v in wanted.items() if current.get(f) != v]
    if not changed:
        return CustomerUpdateOut(**customer_fields(before), changed=[], consent_events=[])

    new_prefs = {k: wanted.get(k, v) for k, v in prefs.items()}
    after = before.model_copy(
        update={
            "language_preference": wanted.get("language_preference", before.language_preference),
            "marketing_opt_in": wanted.get("marketing_opt_in", before.marketing_opt_in),
            "notification_prefs": before.notification_prefs.model_copy(update=new_prefs),
            "updated_at": now,
        }
    )
    events = [
        repo.new_consent_event(
            before,
            field=f,
            old=current.get(f),
            new=wanted[f],
            source=args.consent_source,
            request_id=args.request_id,
            conversation_id=args.conversation_id,
            at=now,
            message_id=ctx.message_id,
        )
        for f in changed
        if f in CONSENT_FIELDS
    ]
    try:
        repo.save_preferences(before, after, events)
    except StateConflict as exc:
        raise StateConflict("The customer's preferences changed meanwhile; nothing was saved. Try again.") from exc
    return CustomerUpdateOut(
        **customer_fields(after),
        changed=changed,
        consent_events=[
            ConsentEventOut(
                event_id=e.event_id,
                field=e.field,
                old_value=e.old_value,
                new_value=e.new_value,
                source=e.source,
                at=e.at.isoformat(),
            )
            for e in events
        ],
    )


# WhatsApp senders without a phone number (usernames, PROTOCOLS.md 1.8) ---------------------------
# The spec's customer tool is keyed by phone. A sender Meta gives only a business-scoped user id
# (BSUID) for is found or created by that id here: the id comes from the signed webhook (trusted
# channel identity), never from the model. Both ids are kept when both are seen: one person, one
# customer.
def whatsapp_user_customer(
    services: Services, tenant_id: str, wa_user_id: str, display_name: str | None
) -> dict[str, Any]:
    """The customer known by this user id (created on first contact), as the customer tool answers."""
    repo = services.customers
    existing_id = repo.find_id_by_wa_user(tenant_id, wa_user_id)
    if existing_id is None:
        now = services.clock()
        customer = Customer(
            tenant_id=tenant_id,
            customer_id=new_id("cus"),
            wa_user_id=wa_user_id,
            display_name=(display_name or "").strip()[:120] or None,
            created_at=now,
            updated_at=now,
        )
        try:
            repo.create(customer)
            return {"ok": True, "data": {**customer_fields(customer), "created": True}}
        except StateConflict:  # another message of the same sender created it a moment ago
            existing_id = repo.find_id_by_wa_user(tenant_id, wa_user_id)
            if existing_id is None:
                raise
    return {"ok": True, "data": {**customer_fields(repo.get(tenant_id, existing_id)), "created": False}}


def link_whatsapp_user(
    services: Services,
    tenant_id: str,
    *,
    wa_user_id: str,
    phone_e164: str | None = None,
    customer_id: str | None = None,
) -> None:
    """Keep both ids of one person on one customer.

    Before the phone lookup (``phone_e164``): a customer known so far only by this user id gets the
    phone, unless the phone already belongs to another customer. After it (``customer_id``): the
    customer found by phone gets the user id, unless the id already belongs to another customer
    (then both records stay; the shop can merge them)."""
    repo = services.customers
    now = services.clock()
    try:
        if phone_e164 is not None:
            known_id = repo.find_id_by_wa_user(tenant_id, wa_user_id)
            if known_id is None:
                return
            customer = repo.get(tenant_id, known_id)
            if customer.phone_e164 is None and repo.find_id_by_phone(tenant_id, phone_e164) is None:
                repo.add_alias(customer, phone_e164=phone_e164, now=now)
        elif customer_id is not None:
            customer = repo.get(tenant_id, customer_id)
            if customer.wa_user_id is None:
                repo.add_alias(customer, wa_user_id=wa_user_id, now=now)
    except StateConflict:
        log.warning("a WhatsApp id already belongs to another customer", extra={"tenant_id": tenant_id})
