"""Reaching a customer first (not as the reply to their message): decide with WhatsApp's 24-hour
window whether the free-form message may go or its template must, then send it.

Used by the inbox (a person's reply, the notice that the bot is back) and by the agent for the news it
brings unasked (payment receipts, order updates), and by broadcasts and reminders (template only).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.channel.whatsapp import addressed_to, customer_key
from tulia.channel.window import OUTSIDE_WINDOW_CODE, Delivery, TemplateCall, as_template, plan
from tulia.domain.customer import Customer
from tulia.domain.templates import MessageTemplate
from tulia.domain.tenant import Tenant
from tulia.nlg.messages import OutboundMessage
from tulia.store.messages import MessageRepo
from tulia.store.templates import TemplateRepo


def greeting_name(customer: Customer, lang: str) -> str:
    """How a template greets the customer: their WhatsApp name, else "customer" in their language."""
    name = (customer.display_name or "").strip().split(" ")[0]
    return name or ("mteja" if lang in ("sw", "sheng") else "there")


@dataclass
class Outbound:
    messages: MessageRepo
    templates: TemplateRepo
    clock: Callable[[], datetime]

    def last_inbound(self, customer: Customer) -> datetime | None:
        return self.messages.last_inbound(customer.tenant_id, customer_key(customer.phone_e164, customer.wa_user_id))

    def plan(
        self,
        tenant: Tenant,
        customer: Customer,
        *,
        free_form: list[OutboundMessage],
        template: TemplateCall | None,
        lang: str,
        window_closed: bool = False,
    ) -> Delivery:
        """The messages to send now (``window_closed``: Meta said so, whatever our record says)."""
        to = addressed_to(customer.phone_e164, customer.wa_user_id)
        return plan(
            last_inbound_at=None if window_closed else self.last_inbound(customer),
            now=self.clock(),
            free_form=[m.to_whatsapp(**to) for m in free_form],
            template=template,
            templates=lambda: self.templates.list(tenant.tenant_id),
            lang=lang,
            default_lang=tenant.languages.default,
            to=to,
        )

    def template(
        self,
        tenant: Tenant,
        customer: Customer,
        call: TemplateCall,
        lang: str,
        templates: list[MessageTemplate] | None = None,
    ) -> Delivery:
        """The template form of a message (``templates``: the shop's list when the caller read it once
        for many customers)."""
        return as_template(
            call,
            templates if templates is not None else self.templates.list(tenant.tenant_id),
            lang=lang,
            default_lang=tenant.languages.default,
            to=addressed_to(customer.phone_e164, customer.wa_user_id),
        )


def send_planned(
    outbound: Outbound,
    sender: WhatsAppSender,
    token: str,
    tenant: Tenant,
    customer: Customer,
    *,
    free_form: list[OutboundMessage],
    template: TemplateCall | None,
    lang: str,
) -> tuple[Delivery, list[str]]:
    """Plan and send now; a free-form message Meta refuses as outside the window (131047: our record
    was behind Meta's) is sent again as the template. Returns the delivery and the wamids."""
    delivery = outbound.plan(tenant, customer, free_form=free_form, template=template, lang=lang)
    if delivery.mode == "refused":
        return delivery, []
    try:
        return delivery, [sender.send(tenant.wa.phone_number_id, token, p) for p in delivery.payloads]
    except SendFailed as exc:
        if exc.code != OUTSIDE_WINDOW_CODE or delivery.mode != "free_form":
            raise
    delivery = outbound.plan(tenant, customer, free_form=free_form, template=template, lang=lang, window_closed=True)
    if delivery.mode == "refused":
        return delivery, []
    return delivery, [sender.send(tenant.wa.phone_number_id, token, p) for p in delivery.payloads]


def refusal_of(delivery: Delivery) -> dict[str, Any]:
    return dict(delivery.refusal or {})
